package io.cheetah.server.query;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;

import java.util.Set;

/**
 * Where the HTTP API and the dashboard get reports: open hours from the live analyzers (a consistent snapshot no
 * older than about a second, taken without stalling them), closed hours from storage. Thread-safe.
 */
public interface ReportSource
{
    /**
     * @param analyzer  analyzer name, e.g. {@code transaction}.
     * @param domain    client domain.
     * @param hourStart epoch ms of the hour.
     * @return the report, or null when there is none.
     */
    Report report(String analyzer, String domain, long hourStart);

    /**
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @return the domains with a report in that hour (sorted, possibly empty).
     */
    Set<String> domains(String analyzer, long hourStart);

    /**
     * @param analyzer analyzer name.
     * @return how that analyzer's reports are rendered and merged, or null for an unknown analyzer.
     */
    ReportFormat format(String analyzer);
}
