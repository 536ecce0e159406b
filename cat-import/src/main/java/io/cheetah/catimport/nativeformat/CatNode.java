package io.cheetah.catimport.nativeformat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One decoded entity of a CAT report, shaped like the element CAT's XML writes for it: its name, its attributes
 * (values as {@link Integer}, {@link Long}, {@link Double}, {@link String}, {@link Instant} or {@link Boolean}), its
 * text elements ({@code <ip>}, {@code <successMessageUrl>}, {@code <message>}: name to strings in stored order), its
 * dynamic attributes and its child entities in stored order. Immutable; the same class for every report kind, so the
 * decoder needs nothing but a {@link NativeSchema} per kind.
 */
public final class CatNode
{
    private final String name;
    private final Map<String, Object> attributes;
    private final Map<String, List<String>> texts;
    private final Map<String, String> dynamicAttributes;
    private final List<CatNode> children;

    private CatNode(final Builder builder)
    {
        this.name = builder.name;
        this.attributes = freeze(builder.attributes);
        final Map<String, List<String>> frozen = new LinkedHashMap<>();
        builder.texts.forEach((key, values) -> frozen.put(key, List.copyOf(values)));
        this.texts = freeze(frozen);
        this.dynamicAttributes = freeze(builder.dynamicAttributes);
        this.children = List.copyOf(builder.children);
    }

    /** Most entities have no text or dynamic attribute: those share one empty map. */
    private static <V> Map<String, V> freeze(final Map<String, V> map)
    {
        return map.isEmpty() ? Collections.emptyMap() : Collections.unmodifiableMap(new LinkedHashMap<>(map));
    }

    /**
     * @param name the entity's XML element name.
     * @return a builder.
     */
    public static Builder builder(final String name)
    {
        return new Builder(name);
    }

    /**
     * @return the entity's XML element name, e.g. {@code machine}.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return every attribute by name, in stored order.
     */
    public Map<String, Object> attributes()
    {
        return attributes;
    }

    /**
     * @param attribute an attribute name.
     * @return its value, or null when the blob did not hold it.
     */
    public Object attribute(final String attribute)
    {
        return attributes.get(attribute);
    }

    /**
     * @param attribute the name of a string attribute.
     * @return its value, or null when absent.
     */
    public String string(final String attribute)
    {
        final Object value = attributes.get(attribute);
        return value == null ? null : value.toString();
    }

    /**
     * @param attribute the name of an int or long attribute.
     * @param absent    what to answer when the blob did not hold it.
     * @return its value.
     */
    public long longValue(final String attribute, final long absent)
    {
        final Object value = attributes.get(attribute);
        return value instanceof Number number ? number.longValue() : absent;
    }

    /**
     * @param attribute the name of a numeric attribute.
     * @param absent    what to answer when the blob did not hold it.
     * @return its value.
     */
    public double doubleValue(final String attribute, final double absent)
    {
        final Object value = attributes.get(attribute);
        return value instanceof Number number ? number.doubleValue() : absent;
    }

    /**
     * @param attribute the name of a date attribute.
     * @return its value, or null when absent.
     */
    public Instant instant(final String attribute)
    {
        final Object value = attributes.get(attribute);
        return value instanceof Instant instant ? instant : null;
    }

    /**
     * @return every text element by name, each with its strings in stored order.
     */
    public Map<String, List<String>> texts()
    {
        return texts;
    }

    /**
     * @param element a text element's name.
     * @return its strings in stored order, empty when absent.
     */
    public List<String> texts(final String element)
    {
        return texts.getOrDefault(element, List.of());
    }

    /**
     * @param element a single text element's name, e.g. {@code successMessageUrl}.
     * @return its string, or null when absent.
     */
    public String text(final String element)
    {
        final List<String> values = texts.get(element);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * @return the dynamic attributes (entities declared {@code dynamic-attributes="true"}), in stored order.
     */
    public Map<String, String> dynamicAttributes()
    {
        return dynamicAttributes;
    }

    /**
     * @return every child entity, in stored order.
     */
    public List<CatNode> children()
    {
        return children;
    }

    /**
     * @param element a child entity's element name.
     * @return the children of that name, in stored order.
     */
    public List<CatNode> children(final String element)
    {
        final List<CatNode> found = new ArrayList<>();
        for (final CatNode child : children)
        {
            if (child.name.equals(element))
            {
                found.add(child);
            }
        }
        return found;
    }

    @Override
    public String toString()
    {
        return "<" + name + " " + attributes + " " + texts + " " + children.size() + " children>";
    }

    /**
     * Collects one entity while it is decoded; single use.
     */
    public static final class Builder
    {
        private final String name;
        private final Map<String, Object> attributes = new LinkedHashMap<>();
        private final Map<String, List<String>> texts = new LinkedHashMap<>();
        private final Map<String, String> dynamicAttributes = new LinkedHashMap<>();
        private final List<CatNode> children = new ArrayList<>();

        Builder(final String name)
        {
            this.name = name;
        }

        /**
         * @param attribute the attribute name.
         * @param value     its value; a later value of the same name replaces it.
         * @return this.
         */
        public Builder attribute(final String attribute, final Object value)
        {
            attributes.put(attribute, value);
            return this;
        }

        /**
         * @param element the text element's name.
         * @param value   one more string of it.
         * @return this.
         */
        public Builder text(final String element, final String value)
        {
            texts.computeIfAbsent(element, key -> new ArrayList<>()).add(value);
            return this;
        }

        /**
         * @param key   a dynamic attribute's name.
         * @param value its value.
         * @return this.
         */
        public Builder dynamicAttribute(final String key, final String value)
        {
            dynamicAttributes.put(key, value);
            return this;
        }

        /**
         * @param child one more child entity.
         * @return this.
         */
        public Builder child(final CatNode child)
        {
            children.add(child);
            return this;
        }

        /**
         * @return the immutable entity.
         */
        public CatNode build()
        {
            return new CatNode(this);
        }
    }
}
