package io.cheetah.message;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A decoded message tree laid out as parallel arrays, reused from tree to tree so that decoding and analysis
 * allocate nothing per message once warm. Messages are numbered in creation (wire) order; the root is message 0,
 * every parent comes before its children, and a transaction's children are linked through
 * {@link #firstChild(int)} / {@link #nextSibling(int)}, so no walk over a tree ever needs recursion.
 * <p>
 * Written by one decoder (NT1, PT1, NM1 in {@code io.cheetah.codec}), then read by the dispatcher's prefilters and
 * by analyzers. Not thread-safe: a tree is handed from thread to thread through a ring buffer's memory barriers.
 * <p>
 * Strings for type, name, status and the header are supplied by the decoder (usually interned, so the same
 * instance recurs). Data is kept as bytes in {@link #dataBuffer()}; {@link #data(int)} materialises a String
 * for the rare callers that need one.
 * <pre>
 *   index:     0          1            2             3
 *   kind:      T URL      E URL.Method T SQL         E SQL.Method
 *   parent:    -1         0            0             2
 *   firstChild:1          -1           3             -1
 *   nextSib:   -1         2            -1            -1
 * </pre>
 */
public final class FlatTree
{
    /** Parent index of the root message. */
    public static final int NONE = -1;
    /** {@link #symbolPair(int)} of a message whose type or name has no shared symbol. */
    public static final long NO_SYMBOLS = -1L;
    /** {@link #domainSymbol()} or {@link #ipSymbol()} of a header string that has no shared symbol. */
    public static final int NO_SYMBOL = -1;

    /** Codec id of an NT1 frame. */
    public static final byte CODEC_NT1 = 1;
    /** Codec id of a PT1 frame. */
    public static final byte CODEC_PT1 = 2;
    /** Codec id of an NM1 (or NB1) metric bag frame. */
    public static final byte CODEC_NM1 = 3;

    private static final int INITIAL_MESSAGES = 32;
    private static final int INITIAL_DATA = 1024;
    private static final int INITIAL_FRAME = 2048;
    /** Arrays grown past these sizes by one huge tree are dropped at {@link #reset()}, so pooled trees stay small. */
    private static final int RETAINED_MESSAGES = 4096;
    private static final int RETAINED_BYTES = 1 << 20;

    private byte codec;
    private String domain = "";
    private String hostname = "";
    private String ip = "";
    private int domainSymbol = NO_SYMBOL;
    private int ipSymbol = NO_SYMBOL;
    /** Kept across {@link #reset()}: a pooled tree is decoded by the same ingest, with the same table. */
    private SymbolStrings symbolStrings;
    private String threadGroupName = "";
    private String threadId = "";
    private String threadName = "";
    private String parentMessageId = "";
    private String rootMessageId = "";
    private String sessionToken = "";
    private byte[] messageIdBytes = new byte[64];
    private int messageIdLength;
    private String messageId;
    private boolean wideSource;

    private byte[] frame = new byte[INITIAL_FRAME];
    private int frameLength;

    private int size;
    private byte[] kinds;
    private int[] parents;
    private int[] firstChildren;
    private int[] lastChildren;
    private int[] nextSiblings;
    private String[] types;
    private String[] names;
    private String[] statuses;
    private long[] symbolPairs;
    private long[] timestamps;
    private long[] durations;
    private int[] dataOffsets;
    private int[] dataLengths;
    private long[] bagCounts;
    private double[] bagSums;
    private byte[] dataBuffer = new byte[INITIAL_DATA];
    private int dataUsed;
    private final int[] kindCounts = new int[MessageKind.values().length];
    /** Decode warnings (PT1 text that was off but recoverable); null until the first one, so NT1 pays nothing. */
    private List<String> warnings;

    /**
     * Creates an empty tree with room for a typical request tree.
     */
    public FlatTree()
    {
        allocateMessages(INITIAL_MESSAGES);
    }

    // ------------------------------------------------------------------------------------------------ building

    /**
     * Marks the tree as sent over a connection that has sent trees of many domains (a proxy, or a flood of invented
     * domains): analyzers give such trees only part of their domain cap, so the domains of ordinary clients keep
     * their reports (docs/protocol.md §1.6). Set by the ingest after decoding; cleared by {@link #reset()}.
     */
    public void markWideSource()
    {
        wideSource = true;
    }

    /**
     * @return whether the tree came over a connection of many domains ({@link #markWideSource()}).
     */
    public boolean wideSource()
    {
        return wideSource;
    }

    /**
     * Forgets the previous tree, keeping (moderately sized) arrays for the next one.
     */
    public void reset()
    {
        // types/names/statuses past size are never read, and the strings are the interner's: not cleared, which
        // saves three stores per message of every tree
        if (kinds.length > RETAINED_MESSAGES)
        {
            allocateMessages(INITIAL_MESSAGES);
        }
        if (dataBuffer.length > RETAINED_BYTES)
        {
            dataBuffer = new byte[INITIAL_DATA];
        }
        if (frame.length > RETAINED_BYTES)
        {
            frame = new byte[INITIAL_FRAME];
        }
        size = 0;
        dataUsed = 0;
        frameLength = 0;
        codec = 0;
        domain = hostname = ip = threadGroupName = threadId = threadName = "";
        domainSymbol = ipSymbol = NO_SYMBOL;
        parentMessageId = rootMessageId = sessionToken = "";
        messageIdLength = 0;
        messageId = "";
        wideSource = false;
        Arrays.fill(kindCounts, 0);
        if (warnings != null)
        {
            warnings.clear();
        }
    }

    /**
     * Ensures the frame buffer holds {@code length} bytes and returns it, for the ingest layer to copy a raw frame
     * (length prefix included) into before decoding from it.
     *
     * @param length of the raw frame in bytes.
     * @return the buffer to fill from index 0.
     */
    public byte[] frameBuffer(final int length)
    {
        if (frame.length < length)
        {
            frame = new byte[Math.max(length, frame.length * 2)];
        }
        frameLength = length;
        return frame;
    }

    /**
     * Copies a raw frame (length prefix included) into this tree.
     *
     * @param src    bytes.
     * @param offset of the frame's first byte.
     * @param length of the frame.
     */
    public void setFrame(final byte[] src, final int offset, final int length)
    {
        System.arraycopy(src, offset, frameBuffer(length), 0, length);
    }

    /**
     * Sets the header fields; null is stored as the empty string.
     *
     * @param codec           one of {@link #CODEC_NT1}, {@link #CODEC_PT1}, {@link #CODEC_NM1}.
     * @param domain          application key.
     * @param hostname        client host name.
     * @param ip              client IPv4 from the header.
     * @param threadGroupName thread group.
     * @param threadId        thread id text.
     * @param threadName      thread name.
     * @param parentMessageId parent id or empty.
     * @param rootMessageId   root id or empty.
     * @param sessionToken    session token or empty.
     */
    public void setHeader(final byte codec, final String domain, final String hostname, final String ip,
        final String threadGroupName, final String threadId, final String threadName, final String parentMessageId,
        final String rootMessageId, final String sessionToken)
    {
        this.codec = codec;
        this.domain = Message.nonNull(domain);
        this.hostname = Message.nonNull(hostname);
        this.ip = Message.nonNull(ip);
        this.threadGroupName = Message.nonNull(threadGroupName);
        this.threadId = Message.nonNull(threadId);
        this.threadName = Message.nonNull(threadName);
        this.parentMessageId = Message.nonNull(parentMessageId);
        this.rootMessageId = Message.nonNull(rootMessageId);
        this.sessionToken = Message.nonNull(sessionToken);
        this.domainSymbol = NO_SYMBOL;
        this.ipSymbol = NO_SYMBOL;
    }

    /**
     * Records the shared symbols of the header's domain and ip (the same symbol space as {@link #symbolPair(int)}),
     * so analyzers can find a domain's or machine's entry by int. Call after {@link #setHeader}, which forgets them.
     *
     * @param domainSymbol symbol of {@link #domain()}, or negative for none.
     * @param ipSymbol     symbol of {@link #ip()}, or negative for none.
     */
    public void setHeaderSymbols(final int domainSymbol, final int ipSymbol)
    {
        this.domainSymbol = domainSymbol < 0 ? NO_SYMBOL : domainSymbol;
        this.ipSymbol = ipSymbol < 0 ? NO_SYMBOL : ipSymbol;
    }

    /**
     * Sets the message id from its UTF-8 bytes; the String form is made only if someone asks for it.
     *
     * @param src    bytes.
     * @param offset first byte.
     * @param length byte count.
     */
    public void setMessageId(final byte[] src, final int offset, final int length)
    {
        if (messageIdBytes.length < length)
        {
            messageIdBytes = new byte[Math.max(length, messageIdBytes.length * 2)];
        }
        System.arraycopy(src, offset, messageIdBytes, 0, length);
        messageIdLength = length;
        messageId = length == 0 ? "" : null;
    }

    /**
     * Sets the message id from a String already at hand.
     *
     * @param id the message id.
     */
    public void setMessageId(final String id)
    {
        final byte[] bytes = Message.nonNull(id).getBytes(StandardCharsets.UTF_8);
        setMessageId(bytes, 0, bytes.length);
        messageId = Message.nonNull(id);
    }

    /**
     * Appends a message; its status is empty, its duration 0 and its data empty until set.
     *
     * @param kind      of the message.
     * @param parent    index of the enclosing transaction, or {@link #NONE}.
     * @param type      type string.
     * @param name      name string.
     * @param timestamp epoch ms.
     * @return the new message's index.
     */
    public int add(final MessageKind kind, final int parent, final String type, final String name,
        final long timestamp)
    {
        final int i = size;
        if (i == kinds.length)
        {
            growMessages(i * 2);
        }
        kinds[i] = (byte)kind.ordinal();
        parents[i] = parent;
        firstChildren[i] = NONE;
        lastChildren[i] = NONE;
        nextSiblings[i] = NONE;
        types[i] = type;
        names[i] = name;
        statuses[i] = "";
        symbolPairs[i] = NO_SYMBOLS;
        timestamps[i] = timestamp;
        durations[i] = 0;
        dataOffsets[i] = 0;
        dataLengths[i] = 0;
        if (parent != NONE)
        {
            final int last = lastChildren[parent];
            if (last == NONE)
            {
                firstChildren[parent] = i;
            }
            else
            {
                nextSiblings[last] = i;
            }
            lastChildren[parent] = i;
        }
        kindCounts[kinds[i]]++;
        size = i + 1;
        return i;
    }

    /**
     * @param i      message index.
     * @param status status string; null stored as empty.
     */
    public void setStatus(final int i, final String status)
    {
        statuses[i] = Message.nonNull(status);
    }

    /**
     * @param i      message index.
     * @param micros duration in microseconds.
     */
    public void setDurationMicros(final int i, final long micros)
    {
        durations[i] = micros;
    }

    /**
     * Moves every message's timestamp by the same amount (the ingest's correction of a PT1 client's whole-hour clock
     * offset, docs/protocol.md §1.4). Durations, data and the frame bytes are left as they are.
     *
     * @param deltaMillis milliseconds added to each timestamp.
     */
    public void shiftTimestamps(final long deltaMillis)
    {
        for (int i = 0; i < size; i++)
        {
            timestamps[i] += deltaMillis;
        }
    }

    /**
     * @param i     message index.
     * @param type  new type (the decoder's normalisation rules rename some transactions).
     * @param name  new name.
     */
    public void rename(final int i, final String type, final String name)
    {
        types[i] = type;
        names[i] = name;
        symbolPairs[i] = NO_SYMBOLS;
    }

    /**
     * Records the shared symbols of a message's type and name (the ingest's {@code SharedSymbols}), so analyzers
     * can key on them instead of the strings.
     *
     * @param i          message index.
     * @param typeSymbol symbol of {@link #type(int)}, or negative for none.
     * @param nameSymbol symbol of {@link #name(int)}, or negative for none.
     */
    public void setSymbols(final int i, final int typeSymbol, final int nameSymbol)
    {
        symbolPairs[i] = typeSymbol < 0 || nameSymbol < 0 ? NO_SYMBOLS :
            ((long)typeSymbol << 32) | (nameSymbol & 0xFFFF_FFFFL);
    }

    /**
     * Copies a message's data bytes into this tree.
     *
     * @param i      message index.
     * @param src    UTF-8 bytes.
     * @param offset first byte.
     * @param length byte count.
     */
    public void setData(final int i, final byte[] src, final int offset, final int length)
    {
        if (dataUsed + length > dataBuffer.length)
        {
            dataBuffer = Arrays.copyOf(dataBuffer, Math.max(dataUsed + length, dataBuffer.length * 2));
        }
        System.arraycopy(src, offset, dataBuffer, dataUsed, length);
        dataOffsets[i] = dataUsed;
        dataLengths[i] = length;
        dataUsed += length;
    }

    /**
     * Sets a message's data from a String (tests, tools, the NM1 decoder's synthesised values).
     *
     * @param i    message index.
     * @param data text; null stored as empty.
     */
    public void setData(final int i, final String data)
    {
        final byte[] bytes = Message.nonNull(data).getBytes(StandardCharsets.UTF_8);
        setData(i, bytes, 0, bytes.length);
    }

    /**
     * Sets the numeric fields of an NM1 metric-bag entry.
     *
     * @param i     message index.
     * @param count the metric's count.
     * @param sum   the metric's sum.
     */
    public void setBagValues(final int i, final long count, final double sum)
    {
        if (bagCounts == null || bagCounts.length < kinds.length)
        {
            bagCounts = bagCounts == null ? new long[kinds.length] : Arrays.copyOf(bagCounts, kinds.length);
            bagSums = bagSums == null ? new double[kinds.length] : Arrays.copyOf(bagSums, kinds.length);
        }
        bagCounts[i] = count;
        bagSums[i] = sum;
    }

    /**
     * Records something the decoder recovered from (PT1 data with raw TAB/LF, for instance); rare, so it may
     * allocate.
     *
     * @param warning human-readable text.
     */
    public void addWarning(final String warning)
    {
        if (warnings == null)
        {
            warnings = new ArrayList<>(2);
        }
        warnings.add(warning);
    }

    // ------------------------------------------------------------------------------------------------ reading

    /**
     * @return how many decode warnings the tree carries (0 for a clean tree).
     */
    public int warningCount()
    {
        return warnings == null ? 0 : warnings.size();
    }

    /**
     * @param k warning index, below {@link #warningCount()}.
     * @return the warning text.
     */
    public String warning(final int k)
    {
        return warnings.get(k);
    }

    /**
     * @return one of {@link #CODEC_NT1}, {@link #CODEC_PT1}, {@link #CODEC_NM1}, or 0 before decoding.
     */
    public byte codec()
    {
        return codec;
    }

    public String domain()
    {
        return domain;
    }

    /**
     * Names the table whose strings this tree's symbols stand for. Called by the decoder for every tree; stores only
     * when the table changes (a pooled tree stays with one ingest), so that a ring slot is not written for nothing.
     *
     * @param strings the table, or null when the decoder hands out no symbols.
     */
    public void setSymbolStrings(final SymbolStrings strings)
    {
        if (symbolStrings != strings)
        {
            symbolStrings = strings;
        }
    }

    /**
     * @return the table of this tree's symbols ({@link #symbolPair}, {@link #ipSymbol}), or null when it has none.
     */
    public SymbolStrings symbolStrings()
    {
        return symbolStrings;
    }

    /**
     * @return the shared symbol of {@link #domain()}, or {@link #NO_SYMBOL} when the decoder had none.
     */
    public int domainSymbol()
    {
        return domainSymbol;
    }

    /**
     * @return the shared symbol of {@link #ip()}, or {@link #NO_SYMBOL} when the decoder had none.
     */
    public int ipSymbol()
    {
        return ipSymbol;
    }

    public String hostname()
    {
        return hostname;
    }

    /**
     * @return the header IP: the machine key of every report.
     */
    public String ip()
    {
        return ip;
    }

    public String threadGroupName()
    {
        return threadGroupName;
    }

    public String threadId()
    {
        return threadId;
    }

    public String threadName()
    {
        return threadName;
    }

    public String parentMessageId()
    {
        return parentMessageId;
    }

    public String rootMessageId()
    {
        return rootMessageId;
    }

    public String sessionToken()
    {
        return sessionToken;
    }

    /**
     * @return the message id, made into a String on first call (one allocation per tree, only for callers that
     * need it).
     */
    public String messageId()
    {
        if (messageId == null)
        {
            messageId = new String(messageIdBytes, 0, messageIdLength, StandardCharsets.UTF_8);
        }
        return messageId;
    }

    /**
     * @return the buffer holding the message id's UTF-8 bytes from index 0.
     */
    public byte[] messageIdBytes()
    {
        return messageIdBytes;
    }

    /**
     * @return the byte length of the message id.
     */
    public int messageIdLength()
    {
        return messageIdLength;
    }

    /**
     * @return the raw frame as received (length prefix included) from index 0; see {@link #frameLength()}.
     */
    public byte[] frame()
    {
        return frame;
    }

    public int frameLength()
    {
        return frameLength;
    }

    /**
     * @return how many messages the tree holds.
     */
    public int size()
    {
        return size;
    }

    /**
     * @param kind a message kind.
     * @return how many messages of that kind the tree holds (what prefilters test).
     */
    public int count(final MessageKind kind)
    {
        return kindCounts[kind.ordinal()];
    }

    /**
     * @return the timestamp of the root message (what decides a tree's hour), or 0 for an empty tree.
     */
    public long rootTimestamp()
    {
        return size == 0 ? 0 : timestamps[0];
    }

    public MessageKind kind(final int i)
    {
        return MessageKind.ofOrdinal(kinds[i]);
    }

    /**
     * @param i message index.
     * @return true for a transaction; cheaper than comparing {@link #kind(int)}.
     */
    public boolean isTransaction(final int i)
    {
        return kinds[i] == 0;
    }

    /**
     * @param i message index.
     * @return true for an event.
     */
    public boolean isEvent(final int i)
    {
        return kinds[i] == 1;
    }

    public int parent(final int i)
    {
        return parents[i];
    }

    public int firstChild(final int i)
    {
        return firstChildren[i];
    }

    public int lastChild(final int i)
    {
        return lastChildren[i];
    }

    public int nextSibling(final int i)
    {
        return nextSiblings[i];
    }

    public String type(final int i)
    {
        return types[i];
    }

    /**
     * @param i message index.
     * @return the type symbol in the high and the name symbol in the low 32 bits (both non-negative), or
     *         {@link #NO_SYMBOLS} when the decoder had no symbol for either.
     */
    public long symbolPair(final int i)
    {
        return symbolPairs[i];
    }

    /**
     * @param i message index.
     * @return the shared symbol of {@link #type(int)}, or {@link #NO_SYMBOL} when the message has no symbol pair.
     */
    public int typeSymbol(final int i)
    {
        final long pair = symbolPairs[i];
        return pair == NO_SYMBOLS ? NO_SYMBOL : (int)(pair >>> 32);
    }

    /**
     * @param i message index.
     * @return the shared symbol of {@link #name(int)}, or {@link #NO_SYMBOL} when the message has no symbol pair.
     */
    public int nameSymbol(final int i)
    {
        final long pair = symbolPairs[i];
        return pair == NO_SYMBOLS ? NO_SYMBOL : (int)pair;
    }

    public String name(final int i)
    {
        return names[i];
    }

    public String status(final int i)
    {
        return statuses[i];
    }

    /**
     * @param i message index.
     * @return true when the status is exactly {@code "0"}.
     */
    public boolean isSuccess(final int i)
    {
        final String s = statuses[i];
        return s.length() == 1 && s.charAt(0) == '0';
    }

    public long timestamp(final int i)
    {
        return timestamps[i];
    }

    public long durationMicros(final int i)
    {
        return durations[i];
    }

    /**
     * @param i message index.
     * @return duration in whole milliseconds, truncated as CAT does.
     */
    public long durationMillis(final int i)
    {
        return durations[i] / 1000;
    }

    /**
     * @return the buffer that holds every message's data; see {@link #dataOffset(int)}.
     */
    public byte[] dataBuffer()
    {
        return dataBuffer;
    }

    public int dataOffset(final int i)
    {
        return dataOffsets[i];
    }

    public int dataLength(final int i)
    {
        return dataLengths[i];
    }

    /**
     * @param i message index.
     * @param b a byte.
     * @return true when the message's data starts with that byte (the batch flag {@code '@'} for instance).
     */
    public boolean dataStartsWith(final int i, final byte b)
    {
        return dataLengths[i] > 0 && dataBuffer[dataOffsets[i]] == b;
    }

    /**
     * @param i message index.
     * @return the data as a String (allocates; for rare paths).
     */
    public String data(final int i)
    {
        return dataLengths[i] == 0 ? "" :
            new String(dataBuffer, dataOffsets[i], dataLengths[i], StandardCharsets.UTF_8);
    }

    /**
     * @param i message index of an NM1 metric.
     * @return its count, or 0 for other messages.
     */
    public long bagCount(final int i)
    {
        return bagCounts == null || codec != CODEC_NM1 ? 0 : bagCounts[i];
    }

    /**
     * @param i message index of an NM1 metric.
     * @return its sum, or 0 for other messages.
     */
    public double bagSum(final int i)
    {
        return bagSums == null || codec != CODEC_NM1 ? 0 : bagSums[i];
    }

    // ------------------------------------------------------------------------------------------------ copying

    /**
     * Makes this tree an exact copy of another (arrays copied, strings shared).
     *
     * @param other the tree to copy.
     */
    public void copyFrom(final FlatTree other)
    {
        reset();
        setHeader(other.codec, other.domain, other.hostname, other.ip, other.threadGroupName, other.threadId,
            other.threadName, other.parentMessageId, other.rootMessageId, other.sessionToken);
        setHeaderSymbols(other.domainSymbol, other.ipSymbol);
        setSymbolStrings(other.symbolStrings);
        setMessageId(other.messageIdBytes, 0, other.messageIdLength);
        messageId = other.messageId;
        setFrame(other.frame, 0, other.frameLength);
        if (kinds.length < other.size)
        {
            growMessages(other.size);
        }
        final int n = other.size;
        System.arraycopy(other.kinds, 0, kinds, 0, n);
        System.arraycopy(other.parents, 0, parents, 0, n);
        System.arraycopy(other.firstChildren, 0, firstChildren, 0, n);
        System.arraycopy(other.lastChildren, 0, lastChildren, 0, n);
        System.arraycopy(other.nextSiblings, 0, nextSiblings, 0, n);
        System.arraycopy(other.types, 0, types, 0, n);
        System.arraycopy(other.names, 0, names, 0, n);
        System.arraycopy(other.statuses, 0, statuses, 0, n);
        System.arraycopy(other.symbolPairs, 0, symbolPairs, 0, n);
        System.arraycopy(other.timestamps, 0, timestamps, 0, n);
        System.arraycopy(other.durations, 0, durations, 0, n);
        System.arraycopy(other.dataOffsets, 0, dataOffsets, 0, n);
        System.arraycopy(other.dataLengths, 0, dataLengths, 0, n);
        if (other.bagCounts != null)
        {
            for (int i = 0; i < n; i++)
            {
                setBagValues(i, other.bagCounts[i], other.bagSums[i]);
            }
        }
        if (dataBuffer.length < other.dataUsed)
        {
            dataBuffer = new byte[other.dataUsed];
        }
        System.arraycopy(other.dataBuffer, 0, dataBuffer, 0, other.dataUsed);
        dataUsed = other.dataUsed;
        System.arraycopy(other.kindCounts, 0, kindCounts, 0, kindCounts.length);
        for (int k = 0; k < other.warningCount(); k++)
        {
            addWarning(other.warning(k));
        }
        size = n;
    }

    /**
     * Builds the object-model view of this tree (allocates; for tools, tests and logview rendering). Iterative, so
     * trees of any depth convert without a deep stack.
     *
     * @return a new {@link MessageTree}; its root is null when this tree has no message.
     */
    public MessageTree toMessageTree()
    {
        final MessageTree tree = new MessageTree()
            .domain(domain).hostname(hostname).ipAddress(ip)
            .threadGroupName(threadGroupName).threadId(threadId).threadName(threadName)
            .messageId(messageId()).parentMessageId(parentMessageId).rootMessageId(rootMessageId)
            .sessionToken(sessionToken);
        final List<Message> made = new ArrayList<>(size);
        for (int i = 0; i < size; i++)
        {
            final Message m;
            switch (kind(i))
            {
                case TRANSACTION:
                    m = new TransactionMessage(types[i], names[i], statuses[i], data(i), timestamps[i], durations[i]);
                    break;
                case EVENT:
                    m = new Event(types[i], names[i], statuses[i], data(i), timestamps[i]);
                    break;
                case HEARTBEAT:
                    m = new Heartbeat(types[i], names[i], statuses[i], data(i), timestamps[i]);
                    break;
                case METRIC:
                    m = new Metric(types[i], names[i], statuses[i], data(i), timestamps[i]);
                    break;
                default:
                    m = new Trace(types[i], names[i], statuses[i], data(i), timestamps[i]);
                    break;
            }
            made.add(m);
            if (parents[i] == NONE)
            {
                if (tree.root() == null)
                {
                    tree.root(m);
                }
            }
            else
            {
                ((TransactionMessage)made.get(parents[i])).addChild(m);
            }
        }
        return tree;
    }

    @Override
    public String toString()
    {
        return "FlatTree{" + domain + " " + ip + " " + messageId() + " messages=" + size + "}";
    }

    private void allocateMessages(final int n)
    {
        kinds = new byte[n];
        parents = new int[n];
        firstChildren = new int[n];
        lastChildren = new int[n];
        nextSiblings = new int[n];
        types = new String[n];
        names = new String[n];
        statuses = new String[n];
        symbolPairs = new long[n];
        timestamps = new long[n];
        durations = new long[n];
        dataOffsets = new int[n];
        dataLengths = new int[n];
        bagCounts = null;
        bagSums = null;
    }

    private void growMessages(final int n)
    {
        kinds = Arrays.copyOf(kinds, n);
        parents = Arrays.copyOf(parents, n);
        firstChildren = Arrays.copyOf(firstChildren, n);
        lastChildren = Arrays.copyOf(lastChildren, n);
        nextSiblings = Arrays.copyOf(nextSiblings, n);
        types = Arrays.copyOf(types, n);
        names = Arrays.copyOf(names, n);
        statuses = Arrays.copyOf(statuses, n);
        symbolPairs = Arrays.copyOf(symbolPairs, n);
        timestamps = Arrays.copyOf(timestamps, n);
        durations = Arrays.copyOf(durations, n);
        dataOffsets = Arrays.copyOf(dataOffsets, n);
        dataLengths = Arrays.copyOf(dataLengths, n);
        if (bagCounts != null)
        {
            bagCounts = Arrays.copyOf(bagCounts, n);
            bagSums = Arrays.copyOf(bagSums, n);
        }
    }
}
