package io.cheetah.report;

/**
 * Makes client strings safe to keep as report keys: at most {@code maxLength} characters (a split surrogate pair
 * at the cut is dropped) and every control character (below U+0020, U+007F to U+009F) replaced by {@code '.'},
 * as CAT's cleanup job does for its narrower ASCII range (docs/protocol.md §4.2.2). Non-ASCII text is kept: a
 * dashboard can show it and the XML writer escapes it. One reusable instance per analyzer.
 */
public final class NameCleaner
{
    private final int maxLength;
    private final StringBuilder out = new StringBuilder(64);

    /**
     * @param maxLength characters kept.
     */
    public NameCleaner(final int maxLength)
    {
        this.maxLength = maxLength;
    }

    /**
     * @param s a string.
     * @return true when {@link #clean} would change it.
     */
    public boolean needsCleaning(final CharSequence s)
    {
        final int n = s.length();
        if (n > maxLength)
        {
            return true;
        }
        for (int i = 0; i < n; i++)
        {
            if (isControl(s.charAt(i)))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param s a string.
     * @return the cleaned form in a builder reused by the next call.
     */
    public CharSequence clean(final CharSequence s)
    {
        out.setLength(0);
        int n = Math.min(s.length(), maxLength);
        if (n < s.length() && n > 0 && Character.isHighSurrogate(s.charAt(n - 1)))
        {
            n--;
        }
        for (int i = 0; i < n; i++)
        {
            final char c = s.charAt(i);
            out.append(isControl(c) ? '.' : c);
        }
        return out;
    }

    private static boolean isControl(final char c)
    {
        return c < 0x20 || (c >= 0x7F && c <= 0x9F);
    }
}
