package io.cheetah.catimport.nativeformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Field specifications are checked when a schema is built, so a slip in a field table fails at class load, not in
 * the middle of an import.
 */
class NativeSchemaTest
{
    @Test
    void aSchemaAndItsEntities()
    {
        final NativeSchema schema = NativeSchema.builder("r")
            .entity("r", "1 domain S", "4 ip +", "33 child *c")
            .dynamicEntity("c", "1 id I", "2 note =", "34 one ^c")
            .build();
        assertThat(schema.root().field(1)).isEqualTo(new NativeSchema.Field(1, "domain", FieldType.STRING, null));
        assertThat(schema.root().field(33).entity()).isEqualTo("c");
        assertThat(schema.root().field(2)).isNull();
        assertThat(schema.root().field(63)).isNull();
        assertThat(schema.entity("c").dynamic()).isTrue();
        assertThat(schema.root().dynamic()).isFalse();
    }

    @Test
    void badSpecificationsAreRefused()
    {
        assertThatThrownBy(() -> NativeSchema.builder("r").entity("r", "1 domain").build())
            .hasMessageContaining("is not '<number> <name> <code>'");
        assertThatThrownBy(() -> NativeSchema.builder("r").entity("r", "1 a S", "1 b S").build())
            .hasMessageContaining("given twice");
        assertThatThrownBy(() -> NativeSchema.builder("r").entity("r", "33 a S").build())
            .hasMessageContaining("entities take numbers from 33");
        assertThatThrownBy(() -> NativeSchema.builder("r").entity("r", "3 a *x").build())
            .hasMessageContaining("entities take numbers from 33");
        assertThatThrownBy(() -> NativeSchema.builder("r").entity("r", "33 a *x").build())
            .hasMessageContaining("refers to entity x");
        assertThatThrownBy(() -> NativeSchema.builder("r").entity("q", "1 a S").build())
            .hasMessageContaining("root entity r missing");
        assertThatThrownBy(() -> NativeSchema.builder("r").entity("r", "1 a Q").build())
            .hasMessageContaining("unknown field type code Q");
    }

    @Test
    void entitiesPastTheCapAreRefused() throws NativeFormatException
    {
        final NativeSchema schema = NativeSchema.builder("r").entity("r", "33 c *c").entity("c", "1 id I").build();
        final byte[] blob = {(byte) 0xFC, (byte) 0x86, 3, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
        assertThat(new NativeDecoder(schema, 4).decode(blob).children()).hasSize(3);
        assertThatThrownBy(() -> new NativeDecoder(schema, 3).decode(blob))
            .isInstanceOf(NativeFormatException.class)
            .hasMessage("more than 3 entities at offset 5");
    }
}
