package io.cheetah.analysis.problem;

/**
 * Cleans a problem status the way CAT 3.1.0 does before it saves a problem report (ProblemReportFilter): every
 * UTF-16 char outside 32..126 becomes a space and runs of spaces collapse into one; then the result is cut to
 * the configured length. Cheetah cleans when an entity is created, so two raw statuses that clean to the same
 * text share one entity instead of showing twice with the same id.
 */
final class StatusText
{
    private StatusText()
    {
    }

    /**
     * @param raw       status as sent (not null).
     * @param maxLength characters kept.
     * @return the cleaned status; the same instance when nothing changes.
     */
    static String clean(final String raw, final int maxLength)
    {
        boolean dirty = raw.length() > maxLength;
        for (int i = 0, n = raw.length(); i < n && !dirty; i++)
        {
            final char c = raw.charAt(i);
            dirty = c < 32 || c > 126 || (c == ' ' && i + 1 < n && raw.charAt(i + 1) == ' ');
        }
        if (!dirty)
        {
            return raw;
        }
        final StringBuilder sb = new StringBuilder(Math.min(raw.length(), maxLength));
        for (int i = 0, n = raw.length(); i < n && sb.length() < maxLength; i++)
        {
            char c = raw.charAt(i);
            if (c < 32 || c > 126)
            {
                c = ' ';
            }
            if (c != ' ' || sb.length() == 0 || sb.charAt(sb.length() - 1) != ' ')
            {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * @param raw       a type or thread group name (not null).
     * @param maxLength characters kept.
     * @return the text cut to the length; the same instance when short enough.
     */
    static String truncate(final String raw, final int maxLength)
    {
        return raw.length() <= maxLength ? raw : raw.substring(0, maxLength);
    }
}
