/**
 * Getting trees to a server: the bounded lock-free queues, the one sender thread that encodes many NT1 frames per
 * socket write, endpoint choice (router order, failover, failback), the router request, and the counters of
 * everything sent or dropped.
 * <pre>
 *  submit ─▶ TreeQueue(high) ─┐                                     ┌─▶ endpoint 0 (preferred)
 *  submit ─▶ TreeQueue(normal)┴─▶ Sender ─▶ FrameWriter ─▶ FrameChannel ─▶ endpoint 1 (failover) …
 *  RouterClient ─▶ Routes (endpoints, sample, block) ─▶ Sender
 * </pre>
 */
package io.cheetah.client.transport;
