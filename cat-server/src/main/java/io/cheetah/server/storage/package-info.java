/**
 * Report storage: where the pipeline's {@link io.cheetah.server.storage.ReportSink} calls end up, and the
 * closed-hour side of {@link io.cheetah.server.query.ReportSource}. {@link io.cheetah.server.storage.ReportStore}
 * ties the parts together; {@link io.cheetah.server.storage.ReportEnvelope} is the byte form every part stores.
 * <pre>
 *  ring consumers ──▶ ReportStore ──▶ checkpoint/ (local files: checkpoints of open hours, pending spool)
 *                          │                │
 *                          │                ▼
 *                          │            mysql/ (pool, embedded MariaDB, schema, report tables)
 *                          │                ▲
 *                          ├──▶ StorageMaintenance ──▶ rollup/ (day, week, month tasks and builder) ──┘
 *                          │                           RetentionJob
 *  HTTP ──▶ ReportStore.report / history ──▶ ClosedHourReader: InFlightReports (memory), pending spool,
 *                                              StoredSpanReader (daily roll-ups + hourly rows, merged)
 * </pre>
 */
package io.cheetah.server.storage;
