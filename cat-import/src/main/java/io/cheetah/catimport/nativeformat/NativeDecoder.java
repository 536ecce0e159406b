package io.cheetah.catimport.nativeformat;

import java.time.Instant;

/**
 * Decodes one blob of CAT's native report format (what {@code DefaultNativeBuilder} wrote into
 * {@code hourly_report_content.content}) into a {@link CatNode} tree, driven by the report kind's
 * {@link NativeSchema}. Strict: the first byte must be the root marker {@code 0xFC} (tag 63, kind 0), every tag must
 * name a field of its entity with the kind that field is written with, the root must end with {@code 0xFF} exactly
 * at the end of the blob. Anything else is a {@link NativeFormatException} with the offset and the reason. Stateless
 * and thread-safe.
 * <pre>
 *   0xFC │ tag value │ tag value │ … │ tag count child… │ … │ 0xFF          (root)
 *          tag = (field &lt;&lt; 2) | kind    kind 0/1 value, 1 one child, 2 list (varint count), 3 end
 *          child = tag value … 0xFF
 * </pre>
 */
public final class NativeDecoder
{
    /** The first byte of every blob: tag (63, 0). */
    public static final int ROOT_MARKER = 0xFC;
    /** The end of every entity: tag (63, 3). */
    public static final int END = 0xFF;
    /** The dynamic attributes of an entity: tag (63, 2), a count, then name and value strings. */
    public static final int DYNAMIC = 0xFE;
    /** Deeper nesting than any CAT model has is taken as damage. */
    public static final int MAX_DEPTH = 16;

    /**
     * Entities one blob may hold by default. Every entity takes at least one byte, so a blob can never make more
     * entities than it has bytes; this bounds the memory a large damaged blob can cost (about 150 bytes per decoded
     * entity) well above any real hour (a transaction report of 100 types × 200 names × 80 ranges and durations on
     * one machine is 1.6 million).
     */
    public static final int DEFAULT_MAX_ENTITIES = 10_000_000;

    private final NativeSchema schema;
    private final int maxEntities;

    /**
     * @param schema the report kind's field numbers.
     */
    public NativeDecoder(final NativeSchema schema)
    {
        this(schema, DEFAULT_MAX_ENTITIES);
    }

    /**
     * @param schema      the report kind's field numbers.
     * @param maxEntities the most entities one blob may hold; more is refused as damage.
     */
    public NativeDecoder(final NativeSchema schema, final int maxEntities)
    {
        this.schema = schema;
        this.maxEntities = maxEntities;
    }

    /**
     * @param blob one report's content, whole.
     * @return the report's root entity.
     * @throws NativeFormatException when the blob is not a whole, well-formed report of this schema.
     */
    public CatNode decode(final byte[] blob) throws NativeFormatException
    {
        final NativeInput in = new NativeInput(blob);
        if (blob.length == 0)
        {
            throw new NativeFormatException(0, "empty blob");
        }
        final int marker = in.readUnsignedByte();
        if (marker != ROOT_MARKER)
        {
            throw new NativeFormatException(0, String.format("unknown format marker 0x%02X (CAT's native reports"
                + " start with 0x%02X%s)", marker, ROOT_MARKER, marker == '<' ? "; this looks like XML" : ""));
        }
        final CatNode root = readEntity(in, schema.root(), 0, new int[1]);
        if (in.remaining() > 0)
        {
            throw new NativeFormatException(in.position(), in.remaining() + " trailing bytes after the report's end");
        }
        return root;
    }

    private CatNode readEntity(final NativeInput in, final NativeSchema.Entity entity, final int depth,
        final int[] entities) throws NativeFormatException
    {
        if (depth > MAX_DEPTH)
        {
            throw new NativeFormatException(in.position(), "entities nested deeper than " + MAX_DEPTH);
        }
        if (++entities[0] > maxEntities)
        {
            throw new NativeFormatException(in.position(), "more than " + maxEntities + " entities");
        }
        final CatNode.Builder node = CatNode.builder(entity.name());
        while (true)
        {
            final int at = in.position();
            final int tag = in.readUnsignedByte();
            if (tag == END)
            {
                return node.build();
            }
            if (tag == DYNAMIC && entity.dynamic())
            {
                final int count = in.readCount(4);
                for (int i = 0; i < count; i++)
                {
                    node.dynamicAttribute(in.readUtf(), in.readUtf());
                }
                continue;
            }
            final int number = tag >>> 2;
            final int kind = tag & 3;
            final NativeSchema.Field field = entity.field(number);
            if (field == null)
            {
                throw new NativeFormatException(at, String.format("unknown field %d (tag 0x%02X) in <%s>", number,
                    tag, entity.name()));
            }
            switch (field.type())
            {
                case CHILDREN ->
                {
                    expectKind(at, tag, kind, 2, 2, entity, field);
                    final NativeSchema.Entity child = schema.entity(field.entity());
                    final int count = in.readCount(1);
                    for (int i = 0; i < count; i++)
                    {
                        node.child(readEntity(in, child, depth + 1, entities));
                    }
                }
                case CHILD ->
                {
                    expectKind(at, tag, kind, 1, 1, entity, field);
                    node.child(readEntity(in, schema.entity(field.entity()), depth + 1, entities));
                }
                case TEXTS ->
                {
                    expectKind(at, tag, kind, 2, 2, entity, field);
                    final int count = in.readCount(2);
                    for (int i = 0; i < count; i++)
                    {
                        node.text(field.name(), in.readUtf());
                    }
                }
                case TEXT ->
                {
                    expectKind(at, tag, kind, 0, 1, entity, field);
                    node.text(field.name(), in.readUtf());
                }
                default ->
                {
                    expectKind(at, tag, kind, 0, 1, entity, field);
                    node.attribute(field.name(), readValue(in, field.type()));
                }
            }
        }
    }

    private static Object readValue(final NativeInput in, final FieldType type) throws NativeFormatException
    {
        return switch (type)
        {
            case INT -> in.readInt();
            case LONG -> in.readVarint();
            case DOUBLE -> in.readDouble();
            case STRING -> in.readUtf();
            case DATE -> Instant.ofEpochMilli(in.readVarint());
            case BOOLEAN -> in.readBoolean();
            default -> throw new IllegalStateException("not a value type: " + type);
        };
    }

    private static void expectKind(final int at, final int tag, final int kind, final int low, final int high,
        final NativeSchema.Entity entity, final NativeSchema.Field field) throws NativeFormatException
    {
        if (kind < low || kind > high)
        {
            throw new NativeFormatException(at, String.format("tag 0x%02X gives kind %d to field %d (%s) of <%s>,"
                + " which is written with kind %s", tag, kind, field.number(), field.name(), entity.name(),
                low == high ? Integer.toString(low) : low + " or " + high));
        }
    }
}
