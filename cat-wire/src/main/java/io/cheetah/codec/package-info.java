/**
 * CAT wire codecs: frames ({@code int32} big-endian length + payload), NT1 binary trees, PT1 text trees and NM1/NB1
 * metric bags, with typed errors ({@link io.cheetah.codec.FrameError}) for every malformed input.
 * <pre>
 *  socket / file bytes ─▶ FrameReader (tools, tests; the server frames with Netty) ─▶ whole frames
 *                                     │
 *  whole frame ─▶ TreeDecoder ──NT1──▶ Nt1Decoder ─┐
 *                    │ ├──────PT1──▶ Pt1Decoder ─┼─▶ FlatTree (reused; warnings for recovered PT1 text)
 *                    │ └──NM1/NB1──▶ Nm1Decoder ─┘
 *                    └─ Utf8Interner (strings seen before cost nothing)
 *  StreamDecoder = FrameReader + TreeDecoder + a listener (trees, bad frames in stream order)
 *
 *  MessageTree ─▶ Nt1Encoder / Pt1Encoder ─▶ FrameWriter (many frames, one buffer)
 *  metric entries ─▶ Nm1Encoder ─▶ FrameWriter
 * </pre>
 */
package io.cheetah.codec;
