/**
 * CAT wire codecs: frames ({@code int32} big-endian length + payload), NT1 binary trees, PT1 text trees and NM1/NB1
 * metric bags, with typed errors ({@link io.cheetah.codec.FrameError}) for every malformed input.
 * <pre>
 *  socket bytes ─▶ frame boundaries ─▶ TreeDecoder ──NT1──▶ Nt1Decoder ─┐
 *                                        │  └──PT1/NM1──▶ …           ├─▶ FlatTree
 *                                        └─ Utf8Interner (strings seen before cost nothing)
 *  MessageTree ─▶ Nt1Encoder ─▶ FrameWriter (many frames, one buffer)
 * </pre>
 */
package io.cheetah.codec;
