package io.cheetah.analysis.storage;

/**
 * The database a JDBC URL names, read as CAT 3.1.0's {@code DatabaseParser} reads the {@code SQL.Database} event:
 * MySQL URLs ({@code jdbc:mysql://host:port/name?options}: the host, and what follows the first {@code /}) and
 * Oracle URLs ({@code jdbc:oracle:thin:@host:port:name}: the part after {@code @}, and the last field); any other
 * URL names no database. Called by {@link StorageAnalyzer} once per distinct URL (it keeps what it read).
 *
 * @param name the database (the Storage report's id).
 * @param ip   its host (the report's machine).
 */
public record JdbcTarget(String name, String ip)
{
    private static final String MYSQL = "jdbc:mysql://";
    private static final String ORACLE = "jdbc:oracle";

    /**
     * @param url an {@code SQL.Database} event's name.
     * @return the database it names, or null when CAT would not recognise it (or it names none: an empty name).
     */
    public static JdbcTarget parse(final String url)
    {
        if (url == null || url.isEmpty())
        {
            return null;
        }
        final int mysql = url.indexOf(MYSQL);
        if (mysql >= 0)
        {
            return mysql(url, mysql + MYSQL.length());
        }
        if (url.contains(ORACLE))
        {
            return oracle(url);
        }
        return null;
    }

    private static JdbcTarget mysql(final String url, final int from)
    {
        // CAT splits on the prefix and takes the second piece: the text up to a second occurrence, if any.
        final int next = url.indexOf(MYSQL, from);
        String con = url.substring(from, next < 0 ? url.length() : next);
        if (con.isEmpty())
        {
            return null;
        }
        final int question = con.indexOf('?');
        con = question < 0 ? con : con.substring(0, question);
        final int colon = con.indexOf(':');
        final int slash = con.indexOf('/');
        final String ip;
        if (colon >= 0)
        {
            ip = con.substring(0, colon);
        }
        else
        {
            if (!con.isEmpty() && con.chars().allMatch(c -> c == '/'))
            {
                return null; // CAT's split("/") yields no piece and throws
            }
            ip = slash < 0 ? con : con.substring(0, slash);
        }
        final String name = con.substring(slash + 1);
        return name.isEmpty() ? null : new JdbcTarget(name, ip);
    }

    private static JdbcTarget oracle(final String url)
    {
        final String[] fields = url.split(":");
        if (fields.length == 0)
        {
            return null;
        }
        String ip = "Default";
        for (final String field : fields)
        {
            if (field.startsWith("@"))
            {
                ip = field.substring(1).trim();
            }
        }
        final String name = fields[fields.length - 1];
        return name.isEmpty() ? null : new JdbcTarget(name, ip);
    }
}
