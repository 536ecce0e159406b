/**
 * JSON views of decoded frames, in the schema of the team's wire vectors ({@code .jsonl}: one object per frame),
 * and the decode tool built on them. The logview store reuses {@link io.cheetah.codec.json.TreeJsonWriter} for
 * {@code ?forceDownload=json}.
 * <pre>
 *  capture file ─▶ FrameReader ─▶ TreeDecoder ─▶ FlatTree ─▶ TreeJsonWriter ─▶ one JSON line per frame
 *                      │               └─ MalformedFrameException ─▶ {"error","offset","detail"}
 *                      └─ bad prefix / EOF inside a frame ─▶ error line, end of stream
 * </pre>
 */
package io.cheetah.codec.json;
