package io.cheetah.client.transport;

import io.cheetah.codec.FrameWriter;

/**
 * Mints message ids for the trees the sender names as it encodes them (a tree the application did not ask the id of
 * has none until then). Implemented by the client's {@code MessageIdSequence}; tests pass a lambda.
 */
@FunctionalInterface
public interface MessageIds
{
    /**
     * @return a new id.
     */
    String next();

    /**
     * Mints a new id and writes it as an NT1 string; implementations override this to write the id's bytes without
     * making a {@code String} of it (sender thread).
     *
     * @param out the frame being written.
     */
    default void writeNext(final FrameWriter out)
    {
        out.writeString(next());
    }
}
