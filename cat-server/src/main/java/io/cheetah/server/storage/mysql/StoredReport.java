package io.cheetah.server.storage.mysql;

/**
 * One report row as read from MySQL, content still enveloped; decoded by the caller with the report formats.
 *
 * @param domain    domain.
 * @param analyzer  analyzer name.
 * @param server    the server that wrote it.
 * @param periodMs  epoch ms of the period's start.
 * @param content   {@link io.cheetah.server.storage.ReportEnvelope} bytes.
 */
public record StoredReport(String domain, String analyzer, String server, long periodMs, byte[] content)
{
}
