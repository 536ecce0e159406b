package io.cheetah.server.query;

/**
 * The span of hours a report request covers: one hour for the hourly pages, or a day / week / month / custom
 * range for history. Made by {@code http.api.ReportParameters}.
 *
 * @param kind  {@code hour}, {@code day}, {@code week}, {@code month} or {@code range}.
 * @param start epoch ms of the first hour, inclusive.
 * @param end   epoch ms after the last hour, exclusive.
 */
public record ReportPeriod(String kind, long start, long end)
{
    /**
     * @return true for a single hour (served from the live analyzers or the hour's stored report).
     */
    public boolean hourly()
    {
        return "hour".equals(kind);
    }
}
