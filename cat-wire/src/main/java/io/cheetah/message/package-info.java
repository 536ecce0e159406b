/**
 * The message model: the object trees the client SDK builds ({@link io.cheetah.message.MessageTree},
 * {@link io.cheetah.message.TransactionMessage}, …), CAT message ids, and the array-based
 * {@link io.cheetah.message.FlatTree} that the server decodes into and analyzers read.
 * <pre>
 *  client SDK ─▶ MessageTree ─▶ Nt1Encoder ─▶ bytes ─▶ TreeDecoder ─▶ FlatTree ─▶ analyzers
 *                                                                      └─▶ toMessageTree() (tools, logview)
 * </pre>
 */
package io.cheetah.message;
