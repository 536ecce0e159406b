package io.cheetah.codec;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class Utf8InternerTest
{
    @Property(tries = 200)
    void everyStringDecodesAsStringWouldAndRepeatsShareOneInstance(
        @ForAll @Size(max = 40) final List<@Size(max = 300) byte[]> keys, @ForAll final long seed)
    {
        final Utf8Interner interner = new Utf8Interner(64);
        final Random random = new Random(seed);
        for (final byte[] key : keys)
        {
            // the key sits at a random offset inside a larger buffer, as in a frame
            final int at = random.nextInt(8);
            final byte[] buf = new byte[at + key.length + random.nextInt(3)];
            random.nextBytes(buf);
            System.arraycopy(key, 0, buf, at, key.length);
            final String first = interner.intern(buf, at, key.length);
            assertThat(first).isEqualTo(new String(key, StandardCharsets.UTF_8));
            final String again = interner.intern(buf, at, key.length);
            assertThat(again).isEqualTo(first);
            if (key.length > 0 && key.length <= Utf8Interner.MAX_CACHED_BYTES)
            {
                assertThat(again).isSameAs(first);
            }
        }
    }

    /** With shared symbols a hit returns the symbol's canonical string; past the table's capacity, the cached one. */
    @Property(tries = 100)
    void withSharedSymbolsAHitReturnsTheSymbolsStringOrTheCachedOneWhenTheTableIsFull(
        @ForAll @Size(max = 40) final List<@Size(min = 1, max = 60) byte[]> keys)
    {
        final SharedSymbols symbols = new SharedSymbols(8);
        final Utf8Interner interner = new Utf8Interner(4096, symbols);
        for (int round = 0; round < 2; round++)
        {
            for (final byte[] key : keys)
            {
                final String s = interner.intern(key, 0, key.length);
                final int symbol = interner.lastSymbol();
                assertThat(s).isEqualTo(new String(key, StandardCharsets.UTF_8));
                if (symbol != SharedSymbols.NONE)
                {
                    assertThat(s).isSameAs(symbols.string(symbol));
                }
                final String again = interner.intern(key, 0, key.length);
                assertThat(again).isSameAs(s);
                assertThat(interner.lastSymbol()).isEqualTo(symbol);
            }
        }
    }

    @Test
    void twoShortKeysOfTheSameHashAndLengthStayApart()
    {
        // a birthday search over eight-byte keys: two with one 32-bit hash, which only the key bytes tell apart
        final Map<Integer, String> byHash = new HashMap<>();
        String a = null;
        String b = null;
        for (int i = 0; a == null; i++)
        {
            final String key = String.format("k%07d", i);
            final byte[] bytes = key.getBytes(StandardCharsets.US_ASCII);
            final long word = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
            final String other = byHash.putIfAbsent(Utf8Interner.shortHash(word, 8), key);
            if (other != null)
            {
                a = other;
                b = key;
            }
        }
        final Utf8Interner interner = new Utf8Interner(1 << 16);
        for (int round = 0; round < 2; round++)
        {
            for (final String s : new String[] {a, b})
            {
                final byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
                assertThat(interner.intern(bytes, 0, bytes.length)).isEqualTo(s);
            }
        }
        assertThat(interner.misses()).as("each stored once, neither mistaken for the other").isEqualTo(2);
    }

    @Test
    void keysThatDifferOnlyPastTheInlineBytesOrInTheLastByteStayApart()
    {
        final Utf8Interner interner = new Utf8Interner(1024);
        final String base = "SELECT id, name, total FROM orders WHERE customer = ? AND state = ?";
        final String[] near = {base, base.replace('?', '!'), base + " ", base.substring(0, 48),
            base.substring(0, 49), base.substring(0, 47), base.substring(0, 16), base.substring(0, 17),
            base.substring(0, 15), "a", "b", "ab", "abcdefgh", "abcdefgi", "abcdefghi"};
        for (int round = 0; round < 3; round++)
        {
            for (final String s : near)
            {
                final byte[] b = s.getBytes(StandardCharsets.UTF_8);
                // at the very end of the buffer: the tail word must not read past it
                assertThat(interner.intern(b, 0, b.length)).isEqualTo(s);
            }
        }
        final byte[] utf8 = "naïve café ✓".getBytes(StandardCharsets.UTF_8);
        assertThat(interner.intern(utf8, 0, utf8.length)).isEqualTo("naïve café ✓");
    }
}
