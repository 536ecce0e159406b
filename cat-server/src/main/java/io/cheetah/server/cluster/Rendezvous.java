package io.cheetah.server.cluster;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which members a domain's clients send to: rendezvous (highest random weight) hashing, so every member ranks the
 * same way without talking to the others, and a member joining or leaving moves only the domains it ranks first
 * or second for. Called by the router for every answer in cluster mode.
 */
public final class Rendezvous
{
    private Rendezvous()
    {
    }

    /**
     * @param domain  the client's domain.
     * @param members the live members (any order).
     * @param count   how many to return (primary first, then fallbacks).
     * @return up to {@code count} members, best first.
     */
    public static List<Member> rank(final String domain, final List<Member> members, final int count)
    {
        final long d = hash(domain);
        final List<Member> ranked = new ArrayList<>(members);
        // ties (equal weights) are broken by id so that every member agrees
        ranked.sort(Comparator.comparingLong((Member m) -> weight(d, m)).reversed().thenComparing(Member::id));
        return List.copyOf(ranked.subList(0, Math.min(count, ranked.size())));
    }

    static long weight(final long domainHash, final Member m)
    {
        return mix(domainHash ^ Long.rotateLeft(hash(m.id()), 29));
    }

    /** FNV-1a over UTF-8, then mixed: stable across JVMs and versions, unlike {@code String.hashCode} spread. */
    static long hash(final String s)
    {
        long h = 0xcbf29ce484222325L;
        for (final byte b : s.getBytes(StandardCharsets.UTF_8))
        {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return mix(h);
    }

    /** The finaliser of SplitMix64: every input bit moves every output bit. */
    static long mix(final long z0)
    {
        long z = (z0 ^ (z0 >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
