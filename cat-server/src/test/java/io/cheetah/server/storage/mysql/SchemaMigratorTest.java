package io.cheetah.server.storage.mysql;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(EmbeddedDatabase.class)
class SchemaMigratorTest
{
    @Test
    void migrationsAppliedTwiceChangeNothing() throws Exception
    {
        final DataSource ds = EmbeddedDatabase.database().dataSource();
        final SchemaMigrator migrator = SchemaMigrator.fromClasspath();
        final String before = schema(ds);

        assertThat(migrator.migrate(ds)).isZero();
        assertThat(migrator.migrate(ds)).isZero();

        assertThat(schema(ds)).isEqualTo(before).contains("hourly_report", "rollup_task", "uk_hourly_report");
        assertThat(SchemaMigrator.currentVersion(ds)).isEqualTo(migrator.latestVersion()).isPositive();
    }

    @Test
    void everyStatementOfEveryMigrationCanRunAgain() throws Exception
    {
        final DataSource ds = EmbeddedDatabase.database().dataSource();
        final String before = schema(ds);
        final List<SchemaMigrator.Migration> again = new ArrayList<>();
        for (final String sql : new String[]{migrationSql()})
        {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement())
            {
                for (final String statement : SchemaMigrator.statements(sql))
                {
                    s.execute(statement);
                }
            }
        }
        assertThat(again).isEmpty();
        assertThat(schema(ds)).isEqualTo(before);
    }

    @Test
    void schemaFromTheFutureIsRefusedClearly() throws Exception
    {
        final DataSource ds = EmbeddedDatabase.database().dataSource();
        final SchemaMigrator migrator = SchemaMigrator.fromClasspath();
        final int future = migrator.latestVersion() + 5;
        try (Connection c = ds.getConnection(); Statement s = c.createStatement())
        {
            s.execute("INSERT INTO schema_version (version, description, applied_ms) VALUES (" + future +
                ", 'from_the_future', 0)");
        }
        try
        {
            assertThatThrownBy(() -> migrator.migrate(ds))
                .isInstanceOf(SchemaTooNewException.class)
                .hasMessageContaining("schema version " + future)
                .hasMessageContaining("(" + migrator.latestVersion() + ")")
                .hasMessageContaining("upgrade Cheetah");
        }
        finally
        {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement())
            {
                s.execute("DELETE FROM schema_version WHERE version = " + future);
            }
        }
    }

    private static String migrationSql() throws Exception
    {
        try (var in = SchemaMigrator.class.getResourceAsStream("/sql/migrations/V1__base.sql"))
        {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private static String schema(final DataSource ds) throws SQLException
    {
        final StringBuilder out = new StringBuilder();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement())
        {
            final List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SHOW TABLES"))
            {
                while (rs.next())
                {
                    tables.add(rs.getString(1));
                }
            }
            tables.sort(String::compareTo);
            for (final String table : tables)
            {
                try (ResultSet rs = s.executeQuery("SHOW CREATE TABLE " + table))
                {
                    rs.next();
                    // AUTO_INCREMENT counters move with data; the shape is what matters.
                    out.append(rs.getString(2).replaceAll("AUTO_INCREMENT=\\d+ ", "")).append('\n');
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT version, description FROM schema_version ORDER BY version"))
            {
                while (rs.next())
                {
                    out.append(rs.getInt(1)).append(' ').append(rs.getString(2)).append('\n');
                }
            }
        }
        return out.toString();
    }
}
