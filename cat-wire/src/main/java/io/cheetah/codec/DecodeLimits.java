package io.cheetah.codec;

/**
 * Bounds that keep a decoder's memory and work proportional to a sane tree, whatever a length field claims.
 * Created once from configuration and shared by every decoder.
 *
 * @param maxFrameBytes payload bytes a single frame may declare (the prefix excluded); above it the frame is
 *                      rejected before any allocation.
 * @param maxDepth      nesting depth of transactions a tree may have.
 * @param maxMessages   messages a tree may hold.
 */
public record DecodeLimits(int maxFrameBytes, int maxDepth, int maxMessages)
{
    /** 32 MB frames, depth 1,000 and 100,000 messages: far beyond what CAT clients send (they cut at 2,000). */
    public static final DecodeLimits DEFAULT = new DecodeLimits(32 << 20, 1000, 100_000);

    /**
     * Validates the bounds.
     */
    public DecodeLimits
    {
        if (maxFrameBytes < 16 || maxDepth < 1 || maxMessages < 1)
        {
            throw new IllegalArgumentException("decode limits must be positive (maxFrameBytes >= 16): " +
                maxFrameBytes + "/" + maxDepth + "/" + maxMessages);
        }
    }
}
