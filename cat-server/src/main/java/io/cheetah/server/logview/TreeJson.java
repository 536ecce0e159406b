package io.cheetah.server.logview;

import io.cheetah.message.FlatTree;

/**
 * Writes a decoded tree as JSON in the schema of the shared vectors' README (one frame's object: codec, header,
 * message with nested children). The logview handler's {@code ?forceDownload=json} answer goes through it so the
 * reusable writer of {@code io.cheetah.codec} can replace {@link FlatTreeJson} without touching the handler.
 */
public interface TreeJson
{
    /**
     * @param tree a decoded tree.
     * @param out  where the JSON text is appended.
     */
    void write(FlatTree tree, StringBuilder out);
}
