package io.cheetah.codec;

/**
 * Thrown by the decoders when a frame cannot be decoded; carries the {@link FrameError} reason and the byte offset
 * within the frame where decoding stopped. Stackless, because a flood of bad frames must not cost stack walks.
 */
public final class MalformedFrameException extends Exception
{
    private static final long serialVersionUID = 1L;

    private final FrameError error;
    private final int offset;
    private final String detail;

    /**
     * @param error  the reason.
     * @param offset byte offset in the frame (or -1 when not meaningful).
     * @param detail human-readable detail.
     */
    public MalformedFrameException(final FrameError error, final int offset, final String detail)
    {
        super(error.label() + (offset >= 0 ? " at byte " + offset : "") + (detail == null ? "" : ": " + detail),
            null, false, false);
        this.error = error;
        this.offset = offset;
        this.detail = detail == null ? "" : detail;
    }

    /**
     * @return the human-readable detail alone (without the label and offset that {@link #getMessage()} adds).
     */
    public String detail()
    {
        return detail;
    }

    public FrameError error()
    {
        return error;
    }

    public int offset()
    {
        return offset;
    }
}
