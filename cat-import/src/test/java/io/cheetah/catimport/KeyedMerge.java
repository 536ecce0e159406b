package io.cheetah.catimport;

import io.cheetah.catimport.nativeformat.CatNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Merges the several rows CAT stores for one domain, kind and hour the way its mergers do for the simple kinds:
 * entities matched by their key attribute (first seen first), numbers added, except those taken at their maximum,
 * strings and dates kept from the first row, text elements as a set.
 */
final class KeyedMerge
{
    private final Map<String, String> keys;
    private final Set<String> maxima;

    /**
     * @param keys   element name to its key attribute.
     * @param maxima attributes merged by taking the larger value.
     */
    KeyedMerge(final Map<String, String> keys, final Set<String> maxima)
    {
        this.keys = keys;
        this.maxima = maxima;
    }

    CatNode merge(final List<CatNode> nodes)
    {
        final CatNode first = nodes.get(0);
        final String key = keys.get(first.name());
        final Map<String, Object> attributes = new LinkedHashMap<>();
        final Map<String, Set<String>> texts = new LinkedHashMap<>();
        final Map<String, List<CatNode>> groups = new LinkedHashMap<>();
        for (final CatNode node : nodes)
        {
            node.attributes().forEach((name, value) -> attributes.merge(name, value,
                (a, b) -> name.equals(key) ? a : combine(name, a, b)));
            node.texts().forEach((name, values) -> texts.computeIfAbsent(name, k -> new LinkedHashSet<>())
                .addAll(values));
            for (final CatNode child : node.children())
            {
                final String childKey = keys.get(child.name());
                groups.computeIfAbsent(child.name() + "|" + (childKey == null ? "" : child.attribute(childKey)),
                    k -> new ArrayList<>()).add(child);
            }
        }
        final CatNode.Builder merged = CatNode.builder(first.name());
        attributes.forEach(merged::attribute);
        texts.forEach((name, values) -> values.forEach(value -> merged.text(name, value)));
        groups.values().forEach(group -> merged.child(merge(group)));
        return merged.build();
    }

    private Object combine(final String name, final Object a, final Object b)
    {
        if (a instanceof Long x && b instanceof Long y)
        {
            return maxima.contains(name) ? Math.max(x, y) : x + y;
        }
        if (a instanceof Integer x && b instanceof Integer y)
        {
            return maxima.contains(name) ? Math.max(x, y) : x + y;
        }
        if (a instanceof Double x && b instanceof Double y)
        {
            return maxima.contains(name) ? Math.max(x, y) : x + y;
        }
        return a;
    }
}
