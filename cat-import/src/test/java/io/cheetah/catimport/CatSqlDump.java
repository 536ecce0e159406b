package io.cheetah.catimport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * The hourly report rows of the test vector {@code cat-mysql/cat.sql.gz} (a {@code mariadb-dump --hex-blob}), read
 * straight from the dump's {@code INSERT} statements: no database needed.
 */
final class CatSqlDump
{
    private static final Pattern REPORT = Pattern.compile(
        "\\((\\d+),(\\d+),'([^']*)','([^']*)','([^']*)','([^']*)','[^']*'\\)");
    private static final Pattern CONTENT = Pattern.compile("\\((\\d+),0x([0-9A-F]*),'[^']*','[^']*'\\)");
    private static final DateTimeFormatter SQL_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private static List<HourlyReportRow> rows;

    private CatSqlDump()
    {
    }

    /**
     * @return every row of {@code hourlyreport} with its content, in the dump's order.
     */
    static synchronized List<HourlyReportRow> rows()
    {
        if (rows == null)
        {
            rows = List.copyOf(load());
        }
        return rows;
    }

    /**
     * @param kind   a report name.
     * @param domain a domain.
     * @return that kind's rows of that domain, in the dump's order.
     */
    static List<HourlyReportRow> rows(final String kind, final String domain)
    {
        final List<HourlyReportRow> found = new ArrayList<>();
        for (final HourlyReportRow row : rows())
        {
            if (row.name().equals(kind) && row.domain().equals(domain))
            {
                found.add(row);
            }
        }
        return found;
    }

    private static List<HourlyReportRow> load()
    {
        final String sql;
        try (InputStream in = new GZIPInputStream(resource("cat-mysql/cat.sql.gz")))
        {
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        final Map<Integer, byte[]> contents = new HashMap<>();
        final Matcher content = CONTENT.matcher(statement(sql, "hourly_report_content"));
        while (content.find())
        {
            contents.put(Integer.valueOf(content.group(1)), HexFormat.of().parseHex(content.group(2)));
        }
        final List<HourlyReportRow> found = new ArrayList<>();
        final Matcher report = REPORT.matcher(statement(sql, "hourlyreport"));
        while (report.find())
        {
            final int id = Integer.parseInt(report.group(1));
            final byte[] blob = contents.get(id);
            if (blob == null)
            {
                throw new IllegalStateException("hourlyreport " + id + " has no content in the dump");
            }
            found.add(new HourlyReportRow(id, Integer.parseInt(report.group(2)), report.group(3), report.group(4),
                report.group(5), LocalDateTime.parse(report.group(6), SQL_TIME), blob));
        }
        if (found.isEmpty() || found.size() != contents.size())
        {
            throw new IllegalStateException("dump holds " + found.size() + " reports and " + contents.size()
                + " contents");
        }
        return found;
    }

    private static String statement(final String sql, final String table)
    {
        final String head = "INSERT INTO `" + table + "` VALUES";
        final int start = sql.indexOf(head);
        if (start < 0)
        {
            throw new IllegalStateException("no INSERT INTO " + table + " in the dump");
        }
        final int end = sql.indexOf(");\n", start);
        return sql.substring(start + head.length(), end + 2);
    }

    static InputStream resource(final String path)
    {
        final InputStream in = CatSqlDump.class.getClassLoader().getResourceAsStream(path);
        if (in == null)
        {
            throw new IllegalStateException("test resource " + path + " missing");
        }
        return in;
    }
}
