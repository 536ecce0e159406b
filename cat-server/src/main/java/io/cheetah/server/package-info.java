/**
 * The server's entry point and wiring: {@link io.cheetah.server.Main} reads the configuration and starts a
 * {@link io.cheetah.server.FullServer} (storage, logview store, dashboard, around a
 * {@link io.cheetah.server.CheetahServer}), which assembles ingest, dispatch, rings, periods and HTTP from a list of
 * analyzer types, a report sink, a fallback report source and extra HTTP handlers, so that storage, the logview
 * store and the web UI plug in without touching the pipeline.
 * <pre>
 *   Main ─▶ ConfigLoader ─▶ ServerConfig
 *     └──▶ FullServer.start: ReportStore.start (embedded MariaDB), LogviewStore, checkpoints of hours H-1 and H
 *           └──▶ CheetahServer.builder(config)
 *             .analyzers(catalog + dump)   .sink(storage)   .history(storage)   .restore(checkpoints)
 *             .mount("/cat/r/m", logview)   .mount("/", dashboard)   .closeAfter(logview, storage)
 *             .start() ─▶ TcpIngest ─▶ Dispatcher ─▶ RingGroup ─▶ analyzers ─▶ ReportSink
 *                          HttpServer (router, metrics, mounted)   HourTicker ─▶ RingGroup (close, checkpoint)
 * </pre>
 */
package io.cheetah.server;
