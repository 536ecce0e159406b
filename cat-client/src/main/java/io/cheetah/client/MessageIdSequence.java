package io.cheetah.client;

import io.cheetah.client.transport.MessageIds;
import io.cheetah.codec.FrameWriter;
import io.cheetah.message.MessageId;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Mints CAT message ids {@code <domain>-<ipHex>-<hour>-<index>} (docs/protocol.md §2), unique within this process:
 * the index counts from 0 within each hour and restarts when the hour changes. Any thread may call it; the common
 * caller is the sender thread, which names each tree as it encodes it, so the application thread pays nothing.
 * With a home directory the indexes survive a restart within the hour (CAT's mark file, {@link MessageIdMark}):
 * ids are reserved {@value #BLOCK} at a time in the mark, so the hot path only compares with the reservation and a
 * restarted client starts past everything the old one may have minted.
 */
public final class MessageIdSequence implements MessageIds
{
    /** Ids reserved in the mark file at a time. */
    static final int BLOCK = 10_000;

    private final String prefix;
    private final String pidPrefix;
    private final byte[] prefixBytes;
    private final byte[] pidPrefixBytes;
    private volatile boolean multiInstances;
    private final LongSupplier clock;
    private final AtomicReference<Hour> current;
    private final MessageIdMark mark;

    /** The counter of one hour; replaced, never reset, so a racing caller keeps a consistent (hour, index) pair. */
    private static final class Hour
    {
        final long hour;
        final AtomicLong next;
        /** Indexes below this are reserved in the mark (Long.MAX_VALUE without a mark). */
        volatile long reserved;

        Hour(final long hour, final long start)
        {
            this.hour = hour;
            this.next = new AtomicLong(start);
        }
    }

    /**
     * @param domain the domain part.
     * @param ip     the client IPv4 address (turned into 8 hex digits).
     * @param clock  epoch milliseconds.
     */
    public MessageIdSequence(final String domain, final String ip, final LongSupplier clock)
    {
        this(domain, ip, clock, null);
    }

    /**
     * @param domain the domain part.
     * @param ip     the client IPv4 address (turned into 8 hex digits).
     * @param clock  epoch milliseconds.
     * @param home   the client's home directory ({@code CAT_HOME}) for the mark file, or null for none.
     */
    public MessageIdSequence(final String domain, final String ip, final LongSupplier clock, final String home)
    {
        this.prefix = domain + '-' + MessageId.ipHex(ip) + '-';
        this.pidPrefix = domain + '-' + MessageId.ipHex(ip) + '.' + ProcessHandle.current().pid() + '-';
        this.prefixBytes = prefix.getBytes(StandardCharsets.UTF_8);
        this.pidPrefixBytes = pidPrefix.getBytes(StandardCharsets.UTF_8);
        this.clock = clock;
        this.mark = MessageIdMark.open(home, domain);
        final long hour = clock.getAsLong() / MessageId.HOUR_MILLIS;
        this.current = new AtomicReference<>(newHour(hour, mark == null ? 0 : mark.startIndex(hour)));
    }

    private Hour newHour(final long hour, final long start)
    {
        final Hour h = new Hour(hour, start);
        h.reserved = Long.MAX_VALUE;
        if (mark != null)
        {
            synchronized (this)
            {
                h.reserved = mark.reserve(hour, start + BLOCK) ? start + BLOCK : Long.MAX_VALUE;
            }
        }
        return h;
    }

    /** Moves the hour's reservation past {@code index} (rarely: once every {@value #BLOCK} ids). */
    private synchronized void reservePast(final Hour h, final long index)
    {
        while (index >= h.reserved && current.get() == h)
        {
            final long next = h.reserved + BLOCK;
            h.reserved = mark.reserve(h.hour, next) ? next : Long.MAX_VALUE;
        }
    }

    /**
     * @return a new id for this process's domain.
     */
    @Override
    public String next()
    {
        final Hour h = hour();
        final long index = claim(h);
        final String p = multiInstances ? pidPrefix : prefix;
        return new StringBuilder(p.length() + 20).append(p).append(h.hour).append('-').append(index).toString();
    }

    /**
     * Mints a new id straight into a frame as an NT1 string, making no {@code String} (the sender thread names each
     * tree this way).
     *
     * @param out the frame being written.
     */
    @Override
    public void writeNext(final FrameWriter out)
    {
        final Hour h = hour();
        final long index = claim(h);
        final byte[] p = multiInstances ? pidPrefixBytes : prefixBytes;
        out.writeVarLong(p.length + FrameWriter.decimalLength(h.hour) + 1 + FrameWriter.decimalLength(index));
        out.writeBytes(p, 0, p.length);
        out.writeDecimal(h.hour);
        out.writeByte('-');
        out.writeDecimal(index);
    }

    /** @return the counter of the current hour, rolled over when the clock has moved past the last one. */
    private Hour hour()
    {
        final long hour = clock.getAsLong() / MessageId.HOUR_MILLIS;
        Hour h = current.get();
        while (hour > h.hour)
        {
            final Hour fresh = newHour(hour, 0);
            if (current.compareAndSet(h, fresh))
            {
                return fresh;
            }
            h = current.get();
        }
        return h;
    }

    private long claim(final Hour h)
    {
        final long index = h.next.getAndIncrement();
        if (index >= h.reserved)
        {
            reservePast(h, index);
        }
        return index;
    }

    /**
     * Switches the {@code .pid} form on or off (the router's {@code multiInstances}, as CAT's clients follow it):
     * with several processes of a domain on one host, their ids then cannot collide.
     *
     * @param on whether ids carry this process's id.
     */
    public void multiInstances(final boolean on)
    {
        multiInstances = on;
    }
}
