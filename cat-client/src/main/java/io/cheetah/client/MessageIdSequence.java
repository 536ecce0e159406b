package io.cheetah.client;

import io.cheetah.message.MessageId;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Mints CAT message ids {@code <domain>-<ipHex>-<hour>-<index>} (docs/protocol.md §2), unique within this process:
 * the index counts from 0 within each hour and restarts when the hour changes. Any thread may call it; the common
 * caller is the sender thread, which names each tree as it encodes it, so the application thread pays nothing.
 * Ids are not persisted across restarts (CAT's mark file); a restart within the same hour reuses indexes.
 */
public final class MessageIdSequence
{
    private final String prefix;
    private final LongSupplier clock;
    private final AtomicReference<Hour> current;

    /** The counter of one hour; replaced, never reset, so a racing caller keeps a consistent (hour, index) pair. */
    private static final class Hour
    {
        final long hour;
        final AtomicLong next = new AtomicLong();

        Hour(final long hour)
        {
            this.hour = hour;
        }
    }

    /**
     * @param domain the domain part.
     * @param ip     the client IPv4 address (turned into 8 hex digits).
     * @param clock  epoch milliseconds.
     */
    public MessageIdSequence(final String domain, final String ip, final LongSupplier clock)
    {
        this.prefix = domain + '-' + MessageId.ipHex(ip) + '-';
        this.clock = clock;
        this.current = new AtomicReference<>(new Hour(clock.getAsLong() / MessageId.HOUR_MILLIS));
    }

    /**
     * @return a new id for this process's domain.
     */
    public String next()
    {
        final long hour = clock.getAsLong() / MessageId.HOUR_MILLIS;
        Hour h = current.get();
        while (hour > h.hour)
        {
            final Hour fresh = new Hour(hour);
            if (current.compareAndSet(h, fresh))
            {
                h = fresh;
                break;
            }
            h = current.get();
        }
        final long index = h.next.getAndIncrement();
        return new StringBuilder(prefix.length() + 20).append(prefix).append(h.hour).append('-').append(index)
            .toString();
    }
}
