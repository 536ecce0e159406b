package io.cheetah.server.ingest;

import java.util.HashSet;
import java.util.Set;

/**
 * The domains one connection has sent, so that a connection of many domains (a proxy, or a flood of invented
 * domains) is recognised: once it has sent more than {@link #WIDE_AFTER} distinct domains, every later tree of it is
 * marked {@code wideSource} and analyzers let such trees open new domains only in half of their domain cap
 * (docs/protocol.md §1.6). A CAT client sends the one domain of its application (a few at most), so ordinary
 * connections never get there. One instance per connection, used only on the ingest thread that owns it; allocates
 * only for the first {@link #WIDE_AFTER} domains.
 */
public final class ConnectionDomains
{
    /** Distinct domains a connection may send before its trees count as coming from many domains. */
    public static final int WIDE_AFTER = 16;

    private final Set<String> seen = new HashSet<>();
    private String last;
    private boolean wide;

    /**
     * @param domain the domain of the connection's latest tree.
     * @return 1 when this tree makes the connection wide (the caller counts and logs it once), 0 otherwise.
     */
    int observe(final String domain)
    {
        // a connection sends one domain tree after tree, and the interner hands out the same String: skip the set
        if (wide || domain == last || seen.contains(domain))
        {
            last = domain;
            return 0;
        }
        last = domain;
        if (seen.size() < WIDE_AFTER)
        {
            seen.add(domain);
            return 0;
        }
        wide = true;
        seen.clear();
        return 1;
    }

    /**
     * @return whether the connection has sent more than {@link #WIDE_AFTER} distinct domains.
     */
    boolean wide()
    {
        return wide;
    }
}
