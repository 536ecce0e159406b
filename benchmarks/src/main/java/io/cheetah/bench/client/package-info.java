/**
 * JMH benchmark of the client SDK on the caller's thread: what recording and handing over one typical request
 * (a root transaction with nested transactions and events) costs an application, the sender writing into a sink.
 */
package io.cheetah.bench.client;
