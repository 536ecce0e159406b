package io.cheetah.report;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link ReportFormat} of the reports built from {@link DomainReport}s (Transaction, Event): binary through
 * {@link TallyCodec}, exact merge through {@link DomainReport#addAll}, XML through {@link TallyXml}, JSON through
 * {@link TallyJson}. Stateless and thread-safe; one instance per analyzer type.
 */
public class TallyFormat implements ReportFormat
{
    private final String analyzer;
    private final TallyXml xml;
    private final TallyJson json;

    /**
     * @param analyzer  analyzer name the reports carry.
     * @param xmlRoot   root element of the XML form.
     * @param durations true when the reports carry duration statistics.
     */
    public TallyFormat(final String analyzer, final String xmlRoot, final boolean durations)
    {
        this.analyzer = analyzer;
        this.xml = new TallyXml(xmlRoot, durations);
        this.json = new TallyJson(analyzer, durations);
    }

    @Override
    public int version()
    {
        return TallyCodec.VERSION;
    }

    @Override
    public byte[] encode(final Report report)
    {
        return TallyCodec.encode(cast(report));
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        return TallyCodec.decode(bytes, analyzer);
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final DomainReport x = cast(a);
        final DomainReport y = cast(b);
        if (!x.domain().equals(y.domain()))
        {
            throw new IllegalArgumentException("cannot merge reports of domains " + x.domain() + " and " + y.domain());
        }
        // Always add the later-starting into a copy of the earlier, so the result is the same whichever is a.
        final DomainReport first = x.hourStart() <= y.hourStart() ? x : y;
        final DomainReport second = first == x ? y : x;
        final DomainReport out = first.copy();
        out.addAll(second);
        return out;
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        xml.write(new ReportView(cast(report), query), out);
    }

    @Override
    public void writeHistoryXml(final Report report, final ReportQuery query, final List<Report> slots,
        final int slotMinutes, final Appendable out) throws IOException
    {
        final List<DomainReport> slotReports = new ArrayList<>(slots.size());
        for (final Report slot : slots)
        {
            slotReports.add(slot == null ? null : cast(slot));
        }
        xml.write(new ReportView(cast(report), query), new GraphTrends(slotReports, slotMinutes, query), out);
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        json.write(new ReportView(cast(report), query), out);
    }

    private DomainReport cast(final Report report)
    {
        if (report instanceof DomainReport r && analyzer.equals(r.analyzer()))
        {
            return r;
        }
        throw new IllegalArgumentException("not a " + analyzer + " report: " + report);
    }
}
