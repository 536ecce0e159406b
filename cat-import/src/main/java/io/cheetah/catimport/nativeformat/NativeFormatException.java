package io.cheetah.catimport.nativeformat;

import java.io.IOException;

/**
 * A CAT native report blob that cannot be decoded: damaged, truncated, of an unknown format, or holding a field the
 * report kind's {@link NativeSchema} does not know. Names the byte offset where decoding stopped and why, so an import
 * can count and name the row and go on.
 */
public final class NativeFormatException extends IOException
{
    private static final long serialVersionUID = 1L;

    private final int offset;
    private final String reason;

    /**
     * @param offset byte offset in the blob where decoding stopped.
     * @param reason what was wrong there.
     */
    public NativeFormatException(final int offset, final String reason)
    {
        super(reason + " at offset " + offset);
        this.offset = offset;
        this.reason = reason;
    }

    /**
     * @return the byte offset in the blob where decoding stopped.
     */
    public int offset()
    {
        return offset;
    }

    /**
     * @return what was wrong, without the offset that {@link #getMessage()} adds.
     */
    public String reason()
    {
        return reason;
    }
}
