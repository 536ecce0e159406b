package io.cheetah.logview.search;

import io.cheetah.core.disk.Disk;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The index file on its own: what a summary admits and rejects, the overflow terms past the dictionary's cap, and
 * reopening a file (term ids kept, a torn tail cut off and counted).
 */
class SearchIndexTest
{
    @TempDir
    Path dir;

    private final SearchCounters counters = new SearchCounters();

    private static FlatTree tree(final String url, final String status, final long micros, final String ip)
    {
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NT1, "shop", "host-1", ip, "", "", "", "", "", "");
        t.setMessageId("shop-0a000001-1-1");
        final int root = t.add(MessageKind.TRANSACTION, FlatTree.NONE, "URL", url, 1_000);
        t.setStatus(root, status);
        t.setDurationMicros(root, micros);
        final int e = t.add(MessageKind.EVENT, root, "URL.Method", "GET", 1_000);
        t.setStatus(e, "0");
        return t;
    }

    private static SearchQuery query(final String type, final String name, final String status, final Long minMs,
        final String ip)
    {
        return new SearchQuery("shop", 0, Long.MAX_VALUE, type, name, status, minMs, null, ip, null, 50, null);
    }

    /** The block offsets admitted for a query. */
    private List<Long> admitted(final Path file, final SearchQuery q) throws Exception
    {
        final List<Long> blocks = new ArrayList<>();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ))
        {
            new IndexReader().scan((pos, dst) -> SearchIndex.readFully(ch, dst, pos), ch.size(),
                new TermFilter(q, 0, Long.MAX_VALUE), (idDomain, offset, min, max) -> blocks.add(offset));
        }
        return blocks;
    }

    @Test
    void summariesAdmitExactlyTheBlocksThatCanMatch() throws Exception
    {
        final Path file = dir.resolve("shop-p0.six");
        try (SearchIndex index = SearchIndex.open(file, 1_000, counters, Disk.SYSTEM))
        {
            final BlockSummary s = index.newSummary();
            index.add(s, tree("/pay", "0", 5_000, "10.0.0.1"));
            index.add(s, tree("/cart", "0", 300_000, "10.0.0.1"));
            index.write(s, "shop", 100);
            index.add(s, tree("/pay", "java.io.IOException", 2_000, "10.0.0.2"));
            index.write(s, "shop", 200);
        }
        assertThat(admitted(file, query(null, null, null, null, null))).containsExactly(100L, 200L);
        assertThat(admitted(file, query("URL", "/pay", null, null, null))).containsExactly(100L, 200L);
        assertThat(admitted(file, query(null, "/cart", null, null, null))).containsExactly(100L);
        assertThat(admitted(file, query("URL", null, "fail", null, null))).containsExactly(200L);
        assertThat(admitted(file, query(null, null, "java.io.IOException", null, null))).containsExactly(200L);
        assertThat(admitted(file, query(null, null, "ok", null, null))).containsExactly(100L, 200L);
        assertThat(admitted(file, query("URL", null, null, 100L, null))).containsExactly(100L);
        assertThat(admitted(file, query("URL", "/pay", null, 100L, null))).isEmpty();
        assertThat(admitted(file, query("URL.Method", "GET", null, 1L, null))).as("events have no duration").isEmpty();
        assertThat(admitted(file, query(null, null, null, null, "10.0.0.2"))).containsExactly(200L);
        assertThat(admitted(file, query("SQL", null, null, null, null))).isEmpty();
        assertThat(counters.summaries()).isEqualTo(2);
    }

    @Test
    void termsPastTheCapAreTheirKindsOverflowAndStillFound() throws Exception
    {
        final Path file = dir.resolve("shop-p0.six");
        try (SearchIndex index = SearchIndex.open(file, 12, counters, Disk.SYSTEM))
        {
            final BlockSummary s = index.newSummary();
            for (int i = 0; i < 40; i++)
            {
                index.add(s, tree("/u" + i, "0", 1_000, "10.0.0.1"));
                index.write(s, "shop", 1_000 + i);
            }
        }
        final List<Long> late = admitted(file, query("URL", "/u39", null, null, null));
        assertThat(late).as("an overflowed name admits every block with overflowed names").contains(1_039L)
            .doesNotContain(1_000L);
        assertThat(admitted(file, query("URL", "/u0", null, null, null))).containsExactly(1_000L);
    }

    @Test
    void reopeningKeepsTermIdsAndCutsATornTail() throws Exception
    {
        final Path file = dir.resolve("shop-p0.six");
        try (SearchIndex index = SearchIndex.open(file, 1_000, counters, Disk.SYSTEM))
        {
            final BlockSummary s = index.newSummary();
            index.add(s, tree("/pay", "0", 5_000, "10.0.0.1"));
            index.write(s, "shop", 100);
        }
        final long whole = Files.size(file);
        Files.write(file, new byte[] {0, 0, 0, 40, 2, 9}, StandardOpenOption.APPEND); // a record cut short
        try (SearchIndex index = SearchIndex.open(file, 1_000, counters, Disk.SYSTEM))
        {
            assertThat(index.length()).isEqualTo(whole);
            final BlockSummary s = index.newSummary();
            index.add(s, tree("/pay", "0", 7_000, "10.0.0.1")); // known terms: no new TERM records
            index.write(s, "shop", 200);
        }
        assertThat(counters.damage()).isEqualTo(1);
        assertThat(admitted(file, query("URL", "/pay", null, null, null))).containsExactly(100L, 200L);
        assertThat(admitted(file, query("URL", "/pay", null, 6L, null))).containsExactly(200L);
    }
}
