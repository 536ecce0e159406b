package io.cheetah.catimport;

import io.cheetah.server.alert.CatAlertConfig;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Takes CAT's configuration from its tables into the directory Cheetah's alerting reads
 * ({@code alerting.catConfigDir}, the exported files of issue 24, README "Alerting"): the alert rules, exception
 * limits, policy, receivers, senders and heartbeat display policy from {@code config} (one file per row, named after
 * it), the Business alert rules from {@code business_config} (name {@code alert}, one {@code business/<domain>.xml}
 * per domain) and the domains' owners and contacts from {@code project} ({@code project.tsv}). Each document is
 * checked by the reader the server itself uses ({@link CatAlertConfig#parse}); one CAT would refuse is reported with
 * its table, row and reason and not written, the rest are. A file is written only when its text changes, so a
 * re-run changes nothing, and a running server picks up the change within a minute. Run by {@link ImportCommand}.
 * <p>
 * The Business metric definitions ({@code business_config} name {@code base}: titles, which of count, sum and
 * average to show) are counted but not taken: Cheetah charts every metric a client logs, by its key.
 */
public final class ConfigImport
{
    /** A domain usable as a file name: CAT's own domains are of this shape. */
    private static final Pattern DOMAIN_FILE = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,199}");
    /** Longest document taken (CAT's largest are tens of KB). */
    private static final int MAX_DOCUMENT = 16 * 1024 * 1024;
    private static final String PROJECT = "project.tsv";
    private static final String RECEIVERS = "alertConfig.xml";

    private final DataSource cat;
    private final Path dir;
    private final List<ImportProblem> problems = new ArrayList<>();
    private final List<String> written = new ArrayList<>();
    private final List<String> unchanged = new ArrayList<>();
    private int definitions;

    /**
     * @param cat CAT's database (read only).
     * @param dir the directory to write ({@code alerting.catConfigDir}); created when missing.
     */
    public ConfigImport(final DataSource cat, final Path dir)
    {
        this.cat = cat;
        this.dir = dir;
    }

    /**
     * Reads, checks and writes.
     *
     * @return the documents that could not be taken (the rest were).
     * @throws SQLException when CAT's database cannot be read.
     * @throws IOException when the directory cannot be written.
     */
    public List<ImportProblem> run() throws SQLException, IOException
    {
        final Map<String, String> files = new TreeMap<>();
        final Map<String, String> rows = new TreeMap<>();
        try (Connection c = cat.getConnection())
        {
            readConfig(c, files, rows);
            readBusiness(c, files, rows);
            final String projects = projects(c);
            if (projects != null)
            {
                files.put(PROJECT, projects);
                rows.put(PROJECT, "project");
            }
        }
        final Map<String, String> taken = new TreeMap<>();
        for (final Map.Entry<String, String> f : files.entrySet())
        {
            if (RECEIVERS.equals(f.getKey()) || PROJECT.equals(f.getKey()))
            {
                continue;
            }
            if (check(Map.of(f.getKey(), f.getValue()), f.getKey(), rows))
            {
                taken.put(f.getKey(), f.getValue());
            }
        }
        // the receivers are read together with the project table, as the server reads them
        final Map<String, String> receivers = new TreeMap<>();
        for (final String f : List.of(RECEIVERS, PROJECT))
        {
            if (files.containsKey(f) && check(Map.of(f, files.get(f)), f, rows))
            {
                receivers.put(f, files.get(f));
            }
        }
        if (receivers.size() == 2 && !check(receivers, RECEIVERS, rows))
        {
            receivers.remove(RECEIVERS);
        }
        taken.putAll(receivers);
        // what is written must still be read as a whole by the server at its start
        CatAlertConfig.parse(taken);
        for (final Map.Entry<String, String> f : taken.entrySet())
        {
            write(f.getKey(), f.getValue());
        }
        return List.copyOf(problems);
    }

    /** @return the files written (changed) by the last run. */
    public List<String> written()
    {
        return List.copyOf(written);
    }

    /** @return the files that already held CAT's text. */
    public List<String> unchanged()
    {
        return List.copyOf(unchanged);
    }

    /** @return the Business metric definitions seen and not taken. */
    public int definitions()
    {
        return definitions;
    }

    private void readConfig(final Connection c, final Map<String, String> files, final Map<String, String> rows)
        throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement("SELECT id, name, content FROM config ORDER BY id");
             ResultSet rs = ps.executeQuery())
        {
            while (rs.next())
            {
                final String file = rs.getString(2) + ".xml";
                if (!CatAlertConfig.FILES.contains(file))
                {
                    continue;
                }
                final String row = rs.getInt(1) + " (" + rs.getString(2) + ")";
                final String content = document("config", row, rs.getString(3));
                if (content != null)
                {
                    files.put(file, content);
                    rows.put(file, "config " + row);
                }
            }
        }
    }

    private void readBusiness(final Connection c, final Map<String, String> files, final Map<String, String> rows)
        throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement(
            "SELECT id, name, domain, content FROM business_config ORDER BY id"); ResultSet rs = ps.executeQuery())
        {
            while (rs.next())
            {
                final String name = rs.getString(2);
                final String domain = rs.getString(3);
                final String row = rs.getInt(1) + " (" + name + ", " + domain + ")";
                if ("base".equals(name))
                {
                    definitions++;
                    continue;
                }
                if (!"alert".equals(name))
                {
                    continue;
                }
                if (domain == null || !DOMAIN_FILE.matcher(domain).matches())
                {
                    problems.add(new ImportProblem("business_config", row, "domain cannot name a file"));
                    continue;
                }
                final String content = document("business_config", row, rs.getString(4));
                if (content != null)
                {
                    final String file = CatAlertConfig.BUSINESS_DIR + "/" + domain + ".xml";
                    files.put(file, content);
                    rows.put(file, "business_config " + row);
                }
            }
        }
    }

    /** CAT's project table in the form {@code project.tsv} has (README "Alerting"), or null when it is empty. */
    private static String projects(final Connection c) throws SQLException
    {
        final StringBuilder out = new StringBuilder("domain\towner\temail\tphone\n");
        int n = 0;
        try (PreparedStatement ps = c.prepareStatement("SELECT domain, owner, email, phone FROM project ORDER BY id");
             ResultSet rs = ps.executeQuery())
        {
            while (rs.next())
            {
                for (int i = 1; i <= 4; i++)
                {
                    out.append(i == 1 ? "" : "\t").append(cell(rs.getString(i)));
                }
                out.append('\n');
                n++;
            }
        }
        return n == 0 ? null : out.toString();
    }

    private static String cell(final String value)
    {
        if (value == null)
        {
            return "NULL";
        }
        // a tab or line break inside a cell would shift the columns of the text form
        final String flat = value.replace('\t', ' ').replace('\r', ' ').replace('\n', ' ');
        return flat.length() > 4096 ? flat.substring(0, 4096) : flat;
    }

    private String document(final String table, final String row, final String content)
    {
        if (content == null || content.isBlank())
        {
            return null;
        }
        if (content.length() > MAX_DOCUMENT)
        {
            problems.add(new ImportProblem(table, row, "document of " + content.length() + " characters is over " +
                "the " + MAX_DOCUMENT + " read"));
            return null;
        }
        return content;
    }

    private boolean check(final Map<String, String> files, final String file, final Map<String, String> rows)
    {
        try
        {
            CatAlertConfig.parse(files);
            return true;
        }
        catch (final IllegalArgumentException | IllegalStateException e)
        {
            final String row = rows.get(file);
            final int space = row.indexOf(' ');
            problems.add(new ImportProblem(space < 0 ? row : row.substring(0, space),
                space < 0 ? file : row.substring(space + 1), e.getMessage()));
            return false;
        }
    }

    private void write(final String file, final String text) throws IOException
    {
        final Path target = dir.resolve(file);
        if (Files.exists(target) && Files.readString(target).equals(text))
        {
            unchanged.add(file);
            return;
        }
        Files.createDirectories(target.getParent());
        final Path temp = target.resolveSibling(target.getFileName() + ".cat-import.tmp");
        Files.writeString(temp, text, StandardCharsets.UTF_8);
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        written.add(file);
    }
}
