/**
 * Building blocks shared by the report models, and the Transaction/Event report model built from them.
 * Other analyzers (problem, heartbeat) reuse the format pieces below; each class states its threading.
 * <pre>
 *  FlatTree ──▶ analyzer thread
 *                 │  NameCleaner (cap length, replace control chars)   BatchData (parse @c;f;sum;durations, @=s,f)
 *                 ▼
 *  ReportHours (DomainHours + a name budget per hour): hour ──▶ domain ──▶ DomainReport ── SymbolTable (per report)
 *                                     └─ machine ip ──▶ MachineTally ── type ──▶ TypeTally ── name ──▶ Tally
 *                                        (Int2ObjectHashMap at every level; caps fold into "OTHERS", FoldCounters)
 *                                                                         Tally = counts, sum, sum², min/max,
 *                                                                         sample ids, MinuteSeries (sparse
 *                                                                         per-minute cells), DurationSketch
 *                                                                         (minute × log-bucket, 1%, mergeable),
 *                                                                         status codes (IntLongHashMap)
 *  snapshot (queries) ──▶ DomainReport.copy() ──▶ TallyFormat: TallyCodec (binary) · addAll (exact merge)
 *                                                           · ReportView + TallyXml (CAT XML) · TallyJson
 *  checkpoint         ──▶ TallyCodec.encodeLive (no copy) ──▶ EncodedReport ──▶ storage writes the bytes
 *  closeHour          ──▶ DomainReport.seal() (in place: types take their names' figures) ──▶ storage
 * </pre>
 * A type's figures are made from its names whenever a report is copied, encoded or sealed; {@link
 * io.cheetah.report.SketchSum} adds the names' duration sketches in time linear in their cells.
 * Memory per name entry, roughly: 100 bytes of fields + 32 bytes per active minute + 8 bytes per non-empty
 * (minute, bucket) sketch cell + ~12 bytes of map slot; strings are held once per report.
 * <p>
 * Look-ups by the ingest's shared symbols, for every analyzer: {@link io.cheetah.report.TallyShortcuts} (Transaction
 * and Event: a (type, name) symbol pair to its tally), {@link io.cheetah.report.FoldedNames} (a capped set of
 * entries named by client text, found by the name's symbol), {@link io.cheetah.report.SymbolClasses} (what a type
 * means to an analyzer, one byte per type symbol). Each keeps the String way for strings without a symbol.
 * <p>
 * Shared by every report format, the tally ones above and the list-shaped problem and heartbeat ones:
 * {@link io.cheetah.report.XmlWriter} escapes every untrusted string written to XML, {@link io.cheetah.report.JsonText}
 * every one written to JSON; {@link io.cheetah.report.HourText} writes an hour's CAT {@code startTime}/{@code endTime};
 * {@link io.cheetah.report.ReportDataWriter} and {@link io.cheetah.report.ReportDataReader} hold the binary layout
 * of every other report (int-length strings, the version-domain-hour envelope, per-minute segments in rising
 * order, bounds-checked reading of untrusted bytes), where the tally reports use the denser varint
 * {@link io.cheetah.report.TallyCodec}.
 * <pre>
 *  ProblemReport / HeartbeatReport ──encode──▶ ReportDataWriter ──bytes──▶ ReportDataReader ──decode──▶ report
 *                                  ──writeXml──▶ XmlWriter (+ HourText)    ──writeJson──▶ JsonText
 * </pre>
 */
package io.cheetah.report;
