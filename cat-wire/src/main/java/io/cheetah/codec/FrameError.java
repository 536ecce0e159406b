package io.cheetah.codec;

/**
 * Why a frame was rejected. Each reason is a label of the server's bad-frame counter
 * ({@code cheetah_frames_bad_total{reason}}), so the names are stable, lowercase-able identifiers.
 */
public enum FrameError
{
    /** The payload ends inside a record or a field. */
    TRUNCATED,
    /** The length prefix is zero or negative (CAT: "client message is error"). */
    NON_POSITIVE_LENGTH,
    /** The length prefix exceeds the configured maximum frame size. */
    FRAME_TOO_LARGE,
    /** The first three payload bytes are not NT1, PT1, NM1 or NB1. */
    UNKNOWN_CODEC,
    /** A varint longer than 10 bytes (64-bit) or 5 bytes (32-bit). */
    VARINT_TOO_LONG,
    /** A string's declared length runs past the end of the payload. */
    STRING_OVERRUN,
    /** A transaction end record with no open transaction. */
    END_WITHOUT_BEGIN,
    /** The payload ends while a transaction is still open. */
    UNCLOSED_TRANSACTION,
    /** Transactions nested deeper than the configured limit. */
    TOO_DEEP,
    /** More messages in one tree than the configured limit. */
    TOO_MANY_MESSAGES,
    /** A record tag that is not one of t T E H M L (or the PT1 equivalents). */
    UNKNOWN_RECORD,
    /** Records after the tree's root was complete, or a second top-level message. */
    TRAILING_DATA,
    /** A tree without any message. */
    EMPTY_TREE,
    /** Text that does not follow the PT1 line syntax (bad timestamp, missing field, bad duration). */
    BAD_TEXT,
    /** The connection ended in the middle of a frame. */
    INCOMPLETE_AT_EOF;

    /**
     * @return the label used in metrics and JSON error objects, e.g. {@code varint_too_long}.
     */
    public String label()
    {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
