package io.cheetah.catimport.nativeformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;

import org.junit.jupiter.api.Test;

/**
 * The primitives as CAT's builder writes them: base-128 varints (ints as their unsigned 32 bits, doubles as their
 * IEEE bits), {@code writeUTF} strings, counts checked against the bytes left.
 */
class NativeInputTest
{
    @Test
    void varintsIntsAndDoubles() throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        varint(bytes, 0);
        varint(bytes, 300);
        varint(bytes, -1L);
        varint(bytes, -5 & 0xFFFFFFFFL);
        varint(bytes, Double.doubleToLongBits(2.5));
        final NativeInput in = new NativeInput(bytes.toByteArray());
        assertThat(in.readVarint()).isZero();
        assertThat(in.readInt()).isEqualTo(300);
        assertThat(in.readVarint()).isEqualTo(-1L);
        assertThat(in.readInt()).isEqualTo(-5);
        assertThat(in.readDouble()).isEqualTo(2.5);
        assertThat(in.remaining()).isZero();
    }

    @Test
    void anIntWiderThan32BitsIsRefused()
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        varint(bytes, 1L << 32);
        assertThatThrownBy(() -> new NativeInput(bytes.toByteArray()).readInt())
            .isInstanceOf(NativeFormatException.class)
            .hasMessage("int field holds a 4294967296 wider than 32 bits at offset 0");
    }

    @Test
    void stringsAsWriteUtfWritesThem() throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes))
        {
            out.writeUTF("/搜索/商品");
            out.writeUTF("");
            out.writeUTF("nul\0");
        }
        final NativeInput in = new NativeInput(bytes.toByteArray());
        assertThat(in.readUtf()).isEqualTo("/搜索/商品");
        assertThat(in.readUtf()).isEmpty();
        assertThat(in.readUtf()).isEqualTo("nul\0");
        assertThat(in.remaining()).isZero();
    }

    @Test
    void malformedModifiedUtf8IsNamed()
    {
        final byte[] bytes = {0, 2, (byte) 0xE4, 'x'};
        assertThatThrownBy(() -> new NativeInput(bytes).readUtf())
            .isInstanceOf(NativeFormatException.class)
            .hasMessageStartingWith("malformed modified UTF-8 string (")
            .hasMessageEndingWith(") at offset 0");
    }

    @Test
    void booleansAreOneByteOfZeroOrOne() throws NativeFormatException
    {
        final NativeInput in = new NativeInput(new byte[] {1, 0, 2});
        assertThat(in.readBoolean()).isTrue();
        assertThat(in.readBoolean()).isFalse();
        assertThatThrownBy(in::readBoolean).hasMessage("boolean byte 2 is neither 0 nor 1 at offset 2");
    }

    @Test
    void countsMustFitInWhatIsLeft() throws NativeFormatException
    {
        assertThat(new NativeInput(new byte[] {2, 0, 0, 0, 0}).readCount(2)).isEqualTo(2);
        assertThatThrownBy(() -> new NativeInput(new byte[] {3, 0, 0, 0, 0}).readCount(2))
            .hasMessage("list count 3 cannot fit in the 4 bytes left at offset 0");
        assertThatThrownBy(() -> new NativeInput(new byte[0]).readUnsignedByte())
            .hasMessage("truncated: the blob ends where a byte was expected at offset 0");
        assertThatThrownBy(() -> new NativeInput(new byte[] {(byte) 0x80}).readVarint())
            .hasMessage("truncated: the blob ends inside a varint at offset 0");
    }

    /** CAT's {@code writeVarint}, restated: low 7 bits first, high bit set on all but the last byte. */
    private static void varint(final ByteArrayOutputStream out, final long value)
    {
        long rest = value;
        while ((rest & ~0x7FL) != 0)
        {
            out.write((int) (rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        out.write((int) rest);
    }
}
