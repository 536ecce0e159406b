/**
 * Building blocks shared by the report models, and the Transaction/Event report model built from them.
 * Other analyzers (problem, heartbeat) may reuse any of these; each class states its threading.
 * <pre>
 *  FlatTree ──▶ analyzer thread
 *                 │  NameCleaner (cap length, replace control chars)   BatchData (parse @c;f;sum;durations, @=s,f)
 *                 ▼
 *  ReportHours: hour ──▶ domain ──▶ DomainReport ── SymbolTable (CharSequence → int, per report)
 *                                     └─ machine ip ──▶ MachineTally ── type ──▶ TypeTally ── name ──▶ Tally
 *                                        (Int2ObjectHashMap at every level; caps fold into "OTHERS", FoldCounters)
 *                                                                         Tally = counts, sum, sum², min/max,
 *                                                                         sample ids, MinuteSeries (sparse
 *                                                                         per-minute cells), DurationSketch
 *                                                                         (minute × log-bucket, 1%, mergeable),
 *                                                                         status codes (IntLongHashMap)
 *  snapshot/closeHour ──▶ DomainReport.copy() ──▶ TallyFormat: TallyCodec (binary) · addAll (exact merge)
 *                                                           · ReportView + TallyXml (CAT XML) · TallyJson
 * </pre>
 * Memory per name entry, roughly: 100 bytes of fields + 32 bytes per active minute + 8 bytes per non-empty
 * (minute, bucket) sketch cell + ~12 bytes of map slot; strings are held once per report.
 * {@link io.cheetah.report.XmlWriter} escapes every untrusted string written to XML.
 */
package io.cheetah.report;
