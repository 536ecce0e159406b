package io.cheetah.analysis.storage;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JdbcTargetTest
{
    @Test
    void readsMysqlAndOracleUrlsAsCatDoes()
    {
        // CAT 3.1.0's own DatabaseParserTest cases
        assertThat(JdbcTarget.parse("jdbc:oracle:thin:@ 172.20.70.36:1521:gbst"))
            .isEqualTo(new JdbcTarget("gbst", "172.20.70.36"));
        assertThat(JdbcTarget.parse("jdbc:mysql://localhost:3306/mydb")).isEqualTo(new JdbcTarget("mydb", "localhost"));
        // options are cut at '?'; without a port the host ends at '/'; the name is everything after the first '/'
        assertThat(JdbcTarget.parse("jdbc:mysql://db-3:3306/orders?useSSL=false&x=1"))
            .isEqualTo(new JdbcTarget("orders", "db-3"));
        assertThat(JdbcTarget.parse("jdbc:mysql://db-3/orders")).isEqualTo(new JdbcTarget("orders", "db-3"));
        assertThat(JdbcTarget.parse("jdbc:mysql://db-3:3306/a/b")).isEqualTo(new JdbcTarget("a/b", "db-3"));
        assertThat(JdbcTarget.parse("jdbc:oracle:thin:@db:1521:")).isEqualTo(new JdbcTarget("1521", "db"));
        assertThat(JdbcTarget.parse("jdbc:oracle:thin:db:1521:x")).isEqualTo(new JdbcTarget("x", "Default"));
    }

    @Test
    void urlsThatNameNoDatabaseGiveNone()
    {
        assertThat(JdbcTarget.parse(null)).isNull();
        assertThat(JdbcTarget.parse("")).isNull();
        assertThat(JdbcTarget.parse("jdbc:postgresql://pg:5432/app")).isNull();
        assertThat(JdbcTarget.parse("jdbc:mysql://")).isNull();
        assertThat(JdbcTarget.parse("jdbc:mysql://?x=1")).isNull();
        assertThat(JdbcTarget.parse("jdbc:mysql:///")).isNull();
        assertThat(JdbcTarget.parse("jdbc:mysql://db:3306/")).isNull();
    }
}
