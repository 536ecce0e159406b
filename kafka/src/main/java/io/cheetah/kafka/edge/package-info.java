/**
 * The edge of the Kafka mode (issue 52): what an edge does with each tree it read from a CAT client instead of
 * analysing it. It produces the frame, byte for byte, with the header the tree journal keeps today, to the topic
 * keyed by domain; the brokers' acknowledgements bound what waits, and past that bound the ingest stops reading its
 * sockets (TCP back-pressure) rather than dropping anything. {@link io.cheetah.kafka.edge.EdgeOutlet} makes a
 * {@code CheetahServer} an edge: its ingest hands every tree to the outlet, and the producer's pressure is the
 * ingest's {@code ReadGate}.
 * <pre>
 *   ingest thread ─▶ EdgeProducer.send ─▶ TreeRecord (header + frame, copied) ─▶ queue (never waits)
 *                        │ pending bytes &gt; kafka.edge.pendingBytes                  │
 *                        ▼                                                          ▼
 *                     Pressure.pause (stop reading sockets)      cheetah-edge-send ─▶ KafkaProducer.send
 *                        ▲                                       (may wait here while the brokers are away)
 *                        └── Pressure.resume (pending &lt;= half) ◀── acknowledged (idempotent, acks=all)
 * </pre>
 */
package io.cheetah.kafka.edge;
