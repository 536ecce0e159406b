/**
 * The Heartbeat analyzer (CAT's {@code heartbeat} report, docs/protocol.md §4.5): once a minute each client sends
 * its status XML; every extension detail is kept as a number per machine and minute, with the machine's classpath.
 * <pre>
 *   ring consumer ──▶ HeartbeatAnalyzer.process(tree, hour)
 *                        └▶ for each H heartbeat: StatusXmlParser (hardened SAX: no DOCTYPE, bounded)
 *                              ├─ refused ─▶ HeartbeatLoss counters (unparsable / oversized), heartbeat ignored
 *                              └─ Status  ─▶ machine(ip).periods += Period(minute, extensions)   (≤ 61 / hour)
 *                    snapshot / closeHour ──▶ HeartbeatReport ──▶ HeartbeatReportFormat: binary v1, merge, XML, JSON
 * </pre>
 * Clients: Java 3.x/4.x send the full {@code status-model} XML (the Java client already writes {@code System},
 * {@code GC}, {@code Disk}, {@code JVMHeap}, {@code FrameworkThread}, {@code CatUsage} as extensions; CAT derives
 * them itself only for old clients reporting {@code message produced/bytes}, and so does the parser); cat-go sends
 * {@code mem.runtime} and {@code cpu} extensions plus {@code customInfo}; ccat/Python send what the application
 * registers.
 * <p>
 * JSON shape ({@code writeJson}; {@code ip} All lists every machine, otherwise only the asked one):
 * <pre>
 * {"domain":"d","startTime":hourMs,"endTime":hourMs+3599999,"ips":["10.0.0.1",…],
 *  "machines":[{"ip":"10.0.0.1","classpath":"…"|null,
 *     "periods":[{"minute":9,"extensions":[{"id":"System","details":[{"id":"LoadAverage","value":0.23}]}]}]}]}
 * </pre>
 */
package io.cheetah.analysis.heartbeat;
