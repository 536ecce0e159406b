package io.cheetah.codec;

import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

/**
 * Decodes an NT1 payload (docs/protocol.md §1.3) into a {@link FlatTree}: ten header strings, then records until the
 * payload ends, nested with an explicit stack (never recursion). Allocation-free once the interner is warm, apart
 * from strings it has not seen. Not thread-safe: one per decoding thread. Called by {@link TreeDecoder}.
 */
public final class Nt1Decoder extends WireReader
{
    private static final String SYSTEM = "System";
    private static final String UPLOAD_METRIC = "UploadMetric";

    private int[] stack = new int[64];

    /**
     * @param limits   depth and size bounds.
     * @param interner this thread's string cache.
     */
    public Nt1Decoder(final DecodeLimits limits, final Utf8Interner interner)
    {
        super(limits, interner);
    }

    /**
     * Decodes one NT1 payload. The tree's header, message id and messages are replaced; its frame bytes are left
     * as they are.
     *
     * @param src    bytes.
     * @param offset first byte of the payload (the {@code N} of {@code NT1}).
     * @param length payload length.
     * @param base   offset of the frame start, so error offsets are frame-relative.
     * @param tree   destination, which the caller has reset.
     * @throws MalformedFrameException naming why the payload is not a valid tree.
     */
    public void decode(final byte[] src, final int offset, final int length, final int base, final FlatTree tree)
        throws MalformedFrameException
    {
        start(src, offset, length, base);
        try
        {
            final String domain = readInterned();
            final int domainSymbol = interner.lastSymbol();
            final String hostname = readInterned();
            final String ip = readInterned();
            final int ipSymbol = interner.lastSymbol();
            final String group = readInterned();
            final String threadId = readInterned();
            final String threadName = readInterned();
            readBytes();
            final int idOffset = strOffset;
            final int idLength = strLength;
            final String parent = readPlain();
            final String root = readPlain();
            final String session = readPlain();
            tree.setHeader(FlatTree.CODEC_NT1, domain, hostname, ip, group, threadId, threadName, parent, root,
                session);
            tree.setHeaderSymbols(domainSymbol, ipSymbol);
            tree.setMessageId(src, idOffset, idLength);
            readRecords(tree);
        }
        finally
        {
            this.buf = null;
        }
    }

    private void readRecords(final FlatTree tree) throws MalformedFrameException
    {
        final int maxDepth = limits.maxDepth();
        final int maxMessages = limits.maxMessages();
        int depth = 0;
        boolean rootDone = false;
        while (pos < end)
        {
            final int tagAt = pos;
            final byte tag = buf[pos++];
            switch (tag)
            {
                case 't':
                {
                    final long ts = readVarLong();
                    final String type = readInterned();
                    final int typeSymbol = interner.lastSymbol();
                    final String name = readInterned();
                    final int nameSymbol = interner.lastSymbol();
                    if (rootDone)
                    {
                        throw error(FrameError.TRAILING_DATA, tagAt, "a second top-level transaction");
                    }
                    if (depth == maxDepth)
                    {
                        throw error(FrameError.TOO_DEEP, tagAt, "nesting deeper than " + maxDepth);
                    }
                    if (tree.size() == maxMessages)
                    {
                        throw error(FrameError.TOO_MANY_MESSAGES, tagAt, "more than " + maxMessages + " messages");
                    }
                    final int parent = depth == 0 ? FlatTree.NONE : stack[depth - 1];
                    final int i = tree.add(MessageKind.TRANSACTION, parent, type, name, ts);
                    tree.setSymbols(i, typeSymbol, nameSymbol);
                    if (depth == stack.length)
                    {
                        stack = java.util.Arrays.copyOf(stack, Math.min(maxDepth, depth * 2));
                    }
                    stack[depth++] = i;
                    break;
                }
                case 'T':
                {
                    final String status = readInterned();
                    readBytes();
                    final int dataOffset = strOffset;
                    final int dataLength = strLength;
                    final long duration = readVarLong();
                    if (depth == 0)
                    {
                        throw error(FrameError.END_WITHOUT_BEGIN, tagAt, "transaction end with nothing open");
                    }
                    final int i = stack[--depth];
                    tree.setStatus(i, status);
                    tree.setData(i, buf, dataOffset, dataLength);
                    tree.setDurationMicros(i, duration);
                    if (SYSTEM.equals(tree.type(i)) && tree.name(i).startsWith(UPLOAD_METRIC))
                    {
                        tree.rename(i, SYSTEM, UPLOAD_METRIC);
                    }
                    if (depth == 0)
                    {
                        rootDone = true;
                    }
                    break;
                }
                case 'E':
                    readLeaf(tree, MessageKind.EVENT, depth, rootDone, tagAt);
                    rootDone = depth == 0;
                    break;
                case 'H':
                    readLeaf(tree, MessageKind.HEARTBEAT, depth, rootDone, tagAt);
                    rootDone = depth == 0;
                    break;
                case 'M':
                    readLeaf(tree, MessageKind.METRIC, depth, rootDone, tagAt);
                    rootDone = depth == 0;
                    break;
                case 'L':
                    readLeaf(tree, MessageKind.TRACE, depth, rootDone, tagAt);
                    rootDone = depth == 0;
                    break;
                default:
                    throw error(FrameError.UNKNOWN_RECORD, tagAt, "record tag 0x" + Integer.toHexString(tag & 0xFF));
            }
        }
        if (depth > 0)
        {
            throw error(FrameError.UNCLOSED_TRANSACTION, pos, depth + " transaction(s) never closed");
        }
        if (tree.size() == 0)
        {
            throw error(FrameError.EMPTY_TREE, pos, "no message in the tree");
        }
    }

    private void readLeaf(final FlatTree tree, final MessageKind kind, final int depth, final boolean rootDone,
        final int tagAt) throws MalformedFrameException
    {
        final long ts = readVarLong();
        final String type = readInterned();
        final int typeSymbol = interner.lastSymbol();
        final String name = readInterned();
        final int nameSymbol = interner.lastSymbol();
        final String status = readInterned();
        readBytes();
        if (rootDone || (depth == 0 && tree.size() > 0))
        {
            throw error(FrameError.TRAILING_DATA, tagAt, "a second top-level message");
        }
        if (tree.size() == limits.maxMessages())
        {
            throw error(FrameError.TOO_MANY_MESSAGES, tagAt, "more than " + limits.maxMessages() + " messages");
        }
        final int i = tree.add(kind, depth == 0 ? FlatTree.NONE : stack[depth - 1], type, name, ts);
        tree.setSymbols(i, typeSymbol, nameSymbol);
        tree.setStatus(i, status);
        tree.setData(i, buf, strOffset, strLength);
    }
}
