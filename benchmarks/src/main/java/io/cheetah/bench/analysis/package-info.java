/**
 * JMH benchmarks of the report analyzers (Transaction, Event) over decoded std trees, and the report memory
 * measurements ({@code ReportMemory}, {@code ObjectModelReport}) that compare our layout with a plain object model.
 */
package io.cheetah.bench.analysis;
