package io.cheetah.catimport.nativeformat;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The field numbers of one CAT report model, as the unidal code generator numbered them for CAT 3.1.0's
 * {@code DefaultNativeBuilder}: per entity, the attributes and single or repeated text elements count from 1 in the
 * order of the merged model files ({@code *-codegen.xml} first, then what {@code *-model.xml} adds), the entity
 * references from 33 in the same order; parts marked {@code render="false"} get no number; field 63 is special (kind 0
 * opens the root, kind 2 holds dynamic attributes, kind 3 ends an entity).
 * <p>
 * Built from compact specifications, one string per field: {@code "<number> <name> <code>"}, the code being a
 * {@link FieldType#code()} followed, for {@link FieldType#CHILD} and {@link FieldType#CHILDREN}, by the child
 * entity's name: {@code "33 machine *machine"}. Immutable once built.
 */
public final class NativeSchema
{
    private final String root;
    private final Map<String, Entity> entities;

    private NativeSchema(final String root, final Map<String, Entity> entities)
    {
        this.root = root;
        this.entities = Collections.unmodifiableMap(new LinkedHashMap<>(entities));
    }

    /**
     * @param root the root entity's (and element's) name, e.g. {@code transaction-report}.
     * @return a builder; the root entity must be added like any other.
     */
    public static Builder builder(final String root)
    {
        return new Builder(root);
    }

    /**
     * @return the root entity.
     */
    public Entity root()
    {
        return entity(root);
    }

    /**
     * @param name an entity name.
     * @return the entity.
     * @throws IllegalArgumentException when the schema has no such entity.
     */
    public Entity entity(final String name)
    {
        final Entity entity = entities.get(name);
        if (entity == null)
        {
            throw new IllegalArgumentException("no entity " + name + " in the schema of " + root);
        }
        return entity;
    }

    /**
     * One numbered field of an entity.
     *
     * @param number the field number (1..62).
     * @param name   the XML attribute or element name.
     * @param type   what it holds.
     * @param entity for {@link FieldType#CHILD} and {@link FieldType#CHILDREN}, the child entity's name; else null.
     */
    public record Field(int number, String name, FieldType type, String entity)
    {
    }

    /**
     * One entity of the model: its fields by number, and whether it carries dynamic attributes.
     */
    public static final class Entity
    {
        private final String name;
        private final Field[] fields = new Field[63];
        private boolean dynamic;

        Entity(final String name)
        {
            this.name = name;
        }

        /**
         * @return the entity's XML element name.
         */
        public String name()
        {
            return name;
        }

        /**
         * @param number a field number from a tag.
         * @return the field, or null when the entity has none of that number.
         */
        public Field field(final int number)
        {
            return number > 0 && number < fields.length ? fields[number] : null;
        }

        /**
         * @param name    an XML attribute name, or a child element's name.
         * @param element true for a child element (text, child entity), false for an attribute (a value).
         * @return the field CAT's XML writes under that name, or null.
         */
        Field named(final String name, final boolean element)
        {
            for (final Field f : fields)
            {
                if (f == null)
                {
                    continue;
                }
                final boolean child = f.type() == FieldType.CHILD || f.type() == FieldType.CHILDREN;
                final boolean text = f.type() == FieldType.TEXT || f.type() == FieldType.TEXTS;
                if (element && (child ? f.entity().equals(name) : text && f.name().equals(name)))
                {
                    return f;
                }
                if (!element && !child && !text && f.name().equals(name))
                {
                    return f;
                }
            }
            return null;
        }

        /**
         * @return whether the entity may hold dynamic attributes (tag 63, kind 2).
         */
        public boolean dynamic()
        {
            return dynamic;
        }
    }

    /**
     * Collects the entities of one model.
     */
    public static final class Builder
    {
        private final String root;
        private final Map<String, Entity> entities = new HashMap<>();

        Builder(final String root)
        {
            this.root = root;
        }

        /**
         * @param name  the entity's XML element name.
         * @param specs one {@code "<number> <name> <code>"} per field.
         * @return this.
         */
        public Builder entity(final String name, final String... specs)
        {
            entities.put(name, parse(name, specs));
            return this;
        }

        /**
         * Like {@link #entity}, for an entity declared {@code dynamic-attributes="true"}.
         *
         * @param name  the entity's XML element name.
         * @param specs one {@code "<number> <name> <code>"} per field.
         * @return this.
         */
        public Builder dynamicEntity(final String name, final String... specs)
        {
            final Entity entity = parse(name, specs);
            entity.dynamic = true;
            entities.put(name, entity);
            return this;
        }

        /**
         * @return the schema.
         * @throws IllegalArgumentException when the root or a referenced child entity is missing.
         */
        public NativeSchema build()
        {
            if (!entities.containsKey(root))
            {
                throw new IllegalArgumentException("root entity " + root + " missing");
            }
            for (final Entity entity : entities.values())
            {
                for (final Field field : entity.fields)
                {
                    if (field != null && field.entity() != null && !entities.containsKey(field.entity()))
                    {
                        throw new IllegalArgumentException(entity.name + "." + field.name() + " refers to entity "
                            + field.entity() + ", not in the schema of " + root);
                    }
                }
            }
            return new NativeSchema(root, entities);
        }

        private static Entity parse(final String name, final String... specs)
        {
            final Entity entity = new Entity(name);
            for (final String spec : specs)
            {
                final String[] parts = spec.trim().split("\\s+");
                if (parts.length != 3)
                {
                    throw new IllegalArgumentException("field spec '" + spec + "' of " + name
                        + " is not '<number> <name> <code>'");
                }
                final int number = Integer.parseInt(parts[0]);
                if (number < 1 || number > 62 || entity.fields[number] != null)
                {
                    throw new IllegalArgumentException("field number " + number + " of " + name
                        + " is out of 1..62 or given twice");
                }
                final FieldType type = FieldType.ofCode(parts[2].substring(0, 1));
                final boolean child = type == FieldType.CHILD || type == FieldType.CHILDREN;
                final String childEntity = child ? parts[2].substring(1) : null;
                if (child == (number < 33) || (child && childEntity.isEmpty()))
                {
                    throw new IllegalArgumentException("field spec '" + spec + "' of " + name
                        + ": entities take numbers from 33 and name their entity, values numbers below 33");
                }
                if (!child && parts[2].length() != 1)
                {
                    throw new IllegalArgumentException("field spec '" + spec + "' of " + name + ": bad code");
                }
                entity.fields[number] = new Field(number, parts[1], type, childEntity);
            }
            return entity;
        }
    }
}
