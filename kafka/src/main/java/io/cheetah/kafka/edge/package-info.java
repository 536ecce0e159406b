/**
 * The edge of the Kafka mode (issue 52): what an edge does with each tree it read from a CAT client instead of
 * analysing it. It produces the frame, byte for byte, with the header the tree journal keeps today, to the topic
 * keyed by domain; the brokers' acknowledgements bound what waits, and past that bound the ingest stops reading its
 * sockets (TCP back-pressure) rather than dropping anything.
 * <pre>
 *   ingest thread ─▶ EdgeProducer.send ─▶ TreeRecord (header + frame) ─▶ KafkaProducer (idempotent, acks=all)
 *                        │ pending bytes &gt; kafka.edge.pendingBytes                 │ acknowledged
 *                        ▼                                                         ▼
 *                     Pressure.pause (stop reading sockets)  ◀── Pressure.resume (pending <= half)
 * </pre>
 */
package io.cheetah.kafka.edge;
