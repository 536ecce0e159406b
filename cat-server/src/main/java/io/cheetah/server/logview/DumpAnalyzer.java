package io.cheetah.server.logview;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.Report;
import io.cheetah.message.FlatTree;

import java.util.List;
import java.util.Set;

/**
 * The dump analyzer of one partition: hands every tree to its {@link LogviewWriter}. It keeps no report, so
 * {@link #domains}, {@link #snapshot} and {@link #restore} have nothing to do; {@link #closeHour} seals and closes
 * the hour's files. Created by {@link DumpAnalyzerType}; driven by one ring consumer thread.
 */
public final class DumpAnalyzer implements Analyzer
{
    private final LogviewWriter writer;

    DumpAnalyzer(final LogviewWriter writer)
    {
        this.writer = writer;
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        writer.append(tree, hourStart);
    }

    @Override
    public Set<String> domains(final long hourStart)
    {
        return Set.of();
    }

    @Override
    public Report snapshot(final long hourStart, final String domain)
    {
        return null;
    }

    @Override
    public List<Report> closeHour(final long hourStart)
    {
        writer.closeHour(hourStart);
        return List.of();
    }

    @Override
    public void restore(final Report report)
    {
        // no report to restore: the trees themselves are on disk and reopened with their files
    }

    /**
     * @return the writer this analyzer drives (the pipeline may call {@link LogviewWriter#sealAll()} on checkpoints,
     * from the same thread).
     */
    public LogviewWriter writer()
    {
        return writer;
    }
}
