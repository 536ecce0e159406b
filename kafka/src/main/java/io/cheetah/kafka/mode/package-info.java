/**
 * How the Kafka mode plugs into the server: {@link io.cheetah.kafka.mode.KafkaMode}, a
 * {@link io.cheetah.server.ServerMode} listed in {@code META-INF/services}, checks the configuration before the server
 * is assembled and starts the aggregator beside it.
 * <pre>
 *  FullServer.start ─▶ ServiceLoader&lt;ServerMode&gt; ─▶ KafkaMode.assemble (checks) ─▶ server runs
 *                                                   ─▶ KafkaMode.start ─▶ Aggregator (role aggregator or both)
 * </pre>
 */
package io.cheetah.kafka.mode;
