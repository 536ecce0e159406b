package io.cheetah.message;

/**
 * The five kinds of message a CAT tree holds, with the NT1 record tag of each.
 * Used by the codecs, the flat decoded tree and everything that walks a tree.
 */
public enum MessageKind
{
    /** A timed unit of work with children; NT1 tags {@code t} (begin) and {@code T} (end). */
    TRANSACTION('t'),
    /** A point-in-time occurrence; NT1 tag {@code E}. */
    EVENT('E'),
    /** A status report carrying the client's status XML; NT1 tag {@code H}. */
    HEARTBEAT('H'),
    /** A business metric; NT1 tag {@code M}, and every entry of an NM1 metric bag. */
    METRIC('M'),
    /** A trace line; NT1 tag {@code L}. */
    TRACE('L');

    private static final MessageKind[] VALUES = values();

    private final char tag;

    MessageKind(final char tag)
    {
        this.tag = tag;
    }

    /**
     * @return the NT1 record tag ({@code t} for a transaction's begin record).
     */
    public char tag()
    {
        return tag;
    }

    /**
     * @param ordinal as returned by {@link #ordinal()}.
     * @return the kind with that ordinal, without allocating a values array.
     */
    public static MessageKind ofOrdinal(final int ordinal)
    {
        return VALUES[ordinal];
    }
}
