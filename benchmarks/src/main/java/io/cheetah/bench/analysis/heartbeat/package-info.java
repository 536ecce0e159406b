/**
 * JMH benchmark of the heartbeat status XML parser over std heartbeats.
 */
package io.cheetah.bench.analysis.heartbeat;
