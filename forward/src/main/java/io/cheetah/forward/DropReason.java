package io.cheetah.forward;

/**
 * Why a frame was not passed on to a CAT server: the label of {@code cheetah_forward_dropped_total{reason}}.
 */
public enum DropReason
{
    /** The CAT server's buffer (this ingest thread's share) had no room: it is slow, stalled or away. */
    BUFFER_FULL("buffer_full"),
    /** The frame is longer than an eighth of an ingest thread's share of {@code forward.bufferBytes}. */
    TOO_LARGE("too_large"),
    /** Still buffered when the server stopped (after a short attempt to send it). */
    SHUTDOWN("shutdown");

    private final String label;

    DropReason(final String label)
    {
        this.label = label;
    }

    /**
     * @return the metric label.
     */
    public String label()
    {
        return label;
    }
}
