/**
 * The server's entry point and wiring: {@link io.cheetah.server.Main} reads the configuration and starts a
 * {@link io.cheetah.server.CheetahServer}, which assembles ingest, dispatch, rings, periods and HTTP from a list of
 * analyzer types, a report sink, a fallback report source and extra HTTP handlers, so that storage, the logview
 * store and the web UI plug in without touching the pipeline.
 * <pre>
 *   Main ─▶ ConfigLoader ─▶ ServerConfig
 *     └──▶ CheetahServer.builder(config)
 *             .analyzers(catalog + dump)   .sink(storage)   .history(storage)   .mount("/cat/r", ui)
 *             .start() ─▶ TcpIngest ─▶ Dispatcher ─▶ RingGroup ─▶ analyzers ─▶ ReportSink
 *                          HttpServer (router, metrics, mounted)   HourTicker ─▶ RingGroup (close, checkpoint)
 * </pre>
 */
package io.cheetah.server;
