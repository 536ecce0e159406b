package io.cheetah.catimport;

import io.cheetah.server.storage.mysql.EmbeddedMariaDb;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.zip.GZIPInputStream;

/**
 * The test vector's CAT database ({@code cat-mysql/cat.sql.gz}) loaded into a schema of an embedded MariaDB, as the
 * CAT server's own database would be: the import's source in the system tests.
 */
final class CatDatabase
{
    private CatDatabase()
    {
    }

    /**
     * @param db     the running MariaDB.
     * @param schema the schema to create and fill.
     * @return its JDBC URL.
     * @throws SQLException from the database.
     * @throws IOException when the dump cannot be read.
     */
    static String load(final EmbeddedMariaDb db, final String schema) throws SQLException, IOException
    {
        final String root = "jdbc:mysql://127.0.0.1:" + db.port() + "/";
        try (Connection c = DriverManager.getConnection(root, "root", ""); Statement s = c.createStatement())
        {
            s.execute("CREATE DATABASE IF NOT EXISTS " + schema + " CHARACTER SET utf8mb4");
        }
        final String url = root + schema;
        try (Connection c = DriverManager.getConnection(url, "root", ""); Statement s = c.createStatement();
             BufferedReader in = new BufferedReader(new InputStreamReader(new GZIPInputStream(
                 CatSqlDump.resource("cat-mysql/cat.sql.gz")), StandardCharsets.UTF_8)))
        {
            final StringBuilder statement = new StringBuilder();
            for (String line = in.readLine(); line != null; line = in.readLine())
            {
                // mariadb-dump's sandbox marker is for its own client, not a statement
                if (line.startsWith("/*M!999999") || line.startsWith("--") || (statement.length() == 0 &&
                    line.isBlank()))
                {
                    continue;
                }
                statement.append(line).append('\n');
                if (line.endsWith(";"))
                {
                    s.execute(statement.toString());
                    statement.setLength(0);
                }
            }
        }
        return url;
    }

    /**
     * @param db     the running MariaDB.
     * @param schema an empty schema to create (a Cheetah database).
     * @return its JDBC URL.
     * @throws SQLException from the database.
     */
    static String empty(final EmbeddedMariaDb db, final String schema) throws SQLException
    {
        final String root = "jdbc:mysql://127.0.0.1:" + db.port() + "/";
        try (Connection c = DriverManager.getConnection(root, "root", ""); Statement s = c.createStatement())
        {
            s.execute("CREATE DATABASE IF NOT EXISTS " + schema + " CHARACTER SET utf8mb4");
        }
        return root + schema;
    }
}
