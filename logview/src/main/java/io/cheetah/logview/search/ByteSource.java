package io.cheetah.logview.search;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Positional reads of a search index file, wherever it lives (a local file, an archived one): the index reader's
 * only access to it, so it reads the same whether the hour is on this disk or in the archive.
 */
@FunctionalInterface
public interface ByteSource
{
    /**
     * Fills {@code dst} from {@code position} on.
     *
     * @param position where to start.
     * @param dst      what to fill (all of its remaining bytes).
     * @throws IOException when the bytes cannot be read (or the file is shorter).
     */
    void readFully(long position, ByteBuffer dst) throws IOException;
}
