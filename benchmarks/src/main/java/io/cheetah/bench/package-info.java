/**
 * JMH benchmarks, one sub-package per area ({@code codec}, {@code client}, {@code dispatch}, {@code analysis},
 * {@code logview}). Every benchmark extends {@link io.cheetah.bench.BenchmarkDefaults} so fork, warm-up and JVM
 * settings are the same everywhere. Build and run:
 * <pre>
 *   mvn -B -q package -pl benchmarks -am -DskipTests
 *   java -jar benchmarks/target/benchmarks.jar [regex] -prof gc
 * </pre>
 */
package io.cheetah.bench;
