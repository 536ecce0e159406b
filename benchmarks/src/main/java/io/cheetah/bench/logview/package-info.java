/**
 * JMH benchmarks of the logview store: appending std trees (write) and finding them again by message id
 * (lookup), over the trees of {@link io.cheetah.bench.logview.StdTrees}.
 */
package io.cheetah.bench.logview;
