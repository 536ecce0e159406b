/**
 * Benchmarks of the tree journal: the ingest thread's cost of journaling one tree.
 */
package io.cheetah.bench.journal;
