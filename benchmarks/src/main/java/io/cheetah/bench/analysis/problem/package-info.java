/**
 * JMH benchmark of the Problem analyzer over std trees with and without failures.
 */
package io.cheetah.bench.analysis.problem;
