package io.cheetah.catimport.nativeformat;

/**
 * What one numbered field of a CAT model entity holds, and so how its bytes are read ({@link NativeInput}) and where
 * it lands in a {@link CatNode}.
 */
public enum FieldType
{
    /** An XML attribute, a varint read as a 32-bit int ({@link Integer}). */
    INT("I"),
    /** An XML attribute, a varint ({@link Long}). */
    LONG("L"),
    /** An XML attribute, the varint of the IEEE 754 bits ({@link Double}). */
    DOUBLE("D"),
    /** An XML attribute, a string. */
    STRING("S"),
    /** An XML attribute, epoch milliseconds as a varint ({@link java.time.Instant}). */
    DATE("T"),
    /** An XML attribute, one byte ({@link Boolean}). */
    BOOLEAN("B"),
    /** A child element holding one string ({@code <successMessageUrl>…</successMessageUrl>}). */
    TEXT("="),
    /** Repeated child elements holding strings ({@code <ip>…</ip>}): a count, then the strings. */
    TEXTS("+"),
    /** One child entity, read up to its end tag. */
    CHILD("^"),
    /** A list or map of child entities: a count, then each entity up to its end tag. */
    CHILDREN("*");

    private final String code;

    FieldType(final String code)
    {
        this.code = code;
    }

    /**
     * @return the one-character code {@link NativeSchema}'s field specifications use.
     */
    public String code()
    {
        return code;
    }

    /**
     * @param code a code of {@link #code()}.
     * @return its type.
     * @throws IllegalArgumentException for an unknown code.
     */
    public static FieldType ofCode(final String code)
    {
        for (final FieldType type : values())
        {
            if (type.code.equals(code))
            {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown field type code " + code);
    }
}
