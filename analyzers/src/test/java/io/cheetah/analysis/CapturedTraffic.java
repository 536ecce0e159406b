package io.cheetah.analysis;

import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;

/**
 * Feeds a real client's captured traffic (the vectors) through one analyzer: every NT1 tree, behind the analyzer
 * type's prefilter, in the hour of its root timestamp. The analyzer tests' shared way to read captures.
 */
public final class CapturedTraffic
{
    private CapturedTraffic()
    {
    }

    /**
     * @param capture  capture name, e.g. {@code cat-go/basic}.
     * @param type     the analyzer's type (its prefilter).
     * @param analyzer the analyzer.
     * @return the hour of the last tree fed.
     * @throws MalformedFrameException when an NT1 frame of the capture does not decode.
     */
    public static long feed(final String capture, final AnalyzerType type, final Analyzer analyzer)
        throws MalformedFrameException
    {
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree tree = new FlatTree();
        long hour = 0;
        for (final byte[] frame : Vectors.frames(Vectors.bytes(capture + ".frames")))
        {
            if (frame[4] != 'N' || frame[5] != 'T' || frame[6] != '1')
            {
                continue;
            }
            decoder.decodeFrame(frame, 0, frame.length, tree);
            hour = tree.rootTimestamp() - tree.rootTimestamp() % 3_600_000L;
            if (type.accepts(tree))
            {
                analyzer.process(tree, hour);
            }
        }
        return hour;
    }
}
