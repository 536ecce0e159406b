package io.cheetah.analysis.heartbeat;

import io.cheetah.analysis.ReasonCounters;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParser;
import javax.xml.parsers.SAXParserFactory;

/**
 * Reads the status XML a client puts in its heartbeat (docs/protocol.md §4.5; Java 3.x/4.x {@code status-model},
 * ccat/Python and Go variants) into extensions of numeric details, the way CAT 3.1.0's heartbeat analyzer does:
 * {@code extension/extensionDetail(id, value)}, numeric extra attributes of {@code extension} as details, the
 * runtime's {@code java-classpath}, and, for old Java clients that report {@code message produced/bytes}, the
 * derived {@code CatUsage}, {@code System}, {@code GC}, {@code FrameworkThread} and {@code Disk} extensions.
 * <p>
 * The data is untrusted: the parser refuses any DOCTYPE (so no external entity, no entity expansion bomb), runs
 * with secure processing, bounds input size, nesting depth, extensions, details and string lengths, and never
 * throws: a bad status yields null and is counted. One instance per analyzer thread (it reuses its SAX parser).
 */
public final class StatusXmlParser
{
    /** Status XML larger than this is refused (a Java 3.x status is about 3.3 KB). */
    public static final int MAX_BYTES = 256 * 1024;
    /** Extensions kept per status. */
    public static final int MAX_EXTENSIONS = 128;
    /** Details kept per status, over all its extensions. */
    public static final int MAX_DETAILS = 1024;
    /** Characters of classpath kept. */
    public static final int MAX_CLASSPATH = 8192;
    private static final int MAX_DEPTH = 16;

    private final ReasonCounters<HeartbeatLoss> counters;
    private final int maxIdLength;
    private final SAXParser parser;
    private final Handler handler = new Handler();

    /**
     * @param counters    where refusals are counted.
     * @param maxIdLength characters kept of an extension or detail id.
     */
    public StatusXmlParser(final ReasonCounters<HeartbeatLoss> counters, final int maxIdLength)
    {
        this.counters = counters;
        this.maxIdLength = maxIdLength;
        try
        {
            final SAXParserFactory factory = SAXParserFactory.newInstance();
            factory.setNamespaceAware(false);
            factory.setValidating(false);
            factory.setXIncludeAware(false);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            parser = factory.newSAXParser();
        }
        catch (final ParserConfigurationException | SAXException e)
        {
            throw new IllegalStateException("the JDK's SAX parser cannot be hardened", e);
        }
    }

    /**
     * A parsed status: what a period and the machine's classpath are made from.
     *
     * @param hasRuntime  whether a {@code runtime} section was present.
     * @param classpath   its {@code java-classpath}, or null.
     * @param extensions  the extensions in document order.
     */
    public record Status(boolean hasRuntime, String classpath, List<HeartbeatReport.Extension> extensions)
    {
    }

    /**
     * @param bytes  buffer holding the UTF-8 data.
     * @param offset first byte.
     * @param length byte count.
     * @return the status, or null when it is refused (counted).
     */
    public Status parse(final byte[] bytes, final int offset, final int length)
    {
        if (length > MAX_BYTES)
        {
            counters.increment(HeartbeatLoss.OVERSIZED);
            return null;
        }
        handler.reset();
        try
        {
            parser.reset();
            parser.parse(new InputSource(new ByteArrayInputStream(bytes, offset, length)), handler);
        }
        catch (final SAXException | IOException | RuntimeException e)
        {
            counters.increment(HeartbeatLoss.UNPARSABLE);
            return null;
        }
        if (!handler.sawStatus)
        {
            counters.increment(HeartbeatLoss.UNPARSABLE);
            return null;
        }
        return handler.result();
    }

    private final class Handler extends DefaultHandler
    {
        private final Map<String, Map<String, Double>> extensions = new LinkedHashMap<>();
        private final StringBuilder text = new StringBuilder();
        private final List<String[]> disks = new ArrayList<>();
        private final List<double[]> gcs = new ArrayList<>();
        private final String[] path = new String[MAX_DEPTH];
        private int depth;
        private int details;
        private boolean sawStatus;
        private boolean hasRuntime;
        private String classpath;
        private Map<String, Double> current;
        private Attributes os;
        private double[] thread;
        private double produced;
        private double overflowed;
        private double messageBytes;
        private double loadAverage;
        private double freePhysical;
        private double freeSwap;

        void reset()
        {
            extensions.clear();
            text.setLength(0);
            disks.clear();
            gcs.clear();
            depth = 0;
            details = 0;
            sawStatus = hasRuntime = false;
            classpath = null;
            current = null;
            os = null;
            thread = null;
            produced = overflowed = messageBytes = loadAverage = freePhysical = freeSwap = 0;
        }

        @Override
        public void startElement(final String uri, final String localName, final String qName,
            final Attributes attributes) throws SAXException
        {
            if (depth == MAX_DEPTH)
            {
                throw new SAXException("status nested deeper than " + MAX_DEPTH);
            }
            final String parent = depth == 0 ? null : path[depth - 1];
            path[depth++] = qName;
            text.setLength(0);
            if (parent == null)
            {
                if (!"status".equals(qName))
                {
                    throw new SAXException("root is not <status>");
                }
                sawStatus = true;
                return;
            }
            switch (qName)
            {
                case "runtime" -> hasRuntime = true;
                case "os" ->
                {
                    loadAverage = number(attributes.getValue("system-load-average"));
                    freePhysical = number(attributes.getValue("free-physical-memory"));
                    freeSwap = number(attributes.getValue("free-swap-space"));
                }
                case "disk-volume" -> disks.add(new String[] {attributes.getValue("id"), attributes.getValue("free")});
                case "gc" -> gcs.add(new double[] {number(attributes.getValue("count")),
                    number(attributes.getValue("time"))});
                case "thread" -> thread = new double[] {number(attributes.getValue("count")),
                    number(attributes.getValue("total-started-count")), number(attributes.getValue("cat-thread-count")),
                    number(attributes.getValue("pigeon-thread-count")),
                    number(attributes.getValue("http-thread-count"))};
                case "message" ->
                {
                    if ("status".equals(parent))
                    {
                        produced = number(attributes.getValue("produced"));
                        overflowed = number(attributes.getValue("overflowed"));
                        messageBytes = number(attributes.getValue("bytes"));
                    }
                }
                case "extension" -> startExtension(attributes);
                case "extensionDetail" ->
                {
                    if (current != null && "extension".equals(parent))
                    {
                        final String value = attributes.getValue("value");
                        detail(current, attributes.getValue("id"), value == null ? "0" : value);
                    }
                }
                default ->
                {
                }
            }
        }

        private void startExtension(final Attributes attributes)
        {
            final String id = attributes.getValue("id");
            if (id == null)
            {
                current = null;
                return;
            }
            current = extension(id);
            if (current == null)
            {
                return;
            }
            for (int i = 0; i < attributes.getLength(); i++)
            {
                final String name = attributes.getQName(i);
                if (!"id".equals(name))
                {
                    detail(current, name, attributes.getValue(i));
                }
            }
        }

        private Map<String, Double> extension(final String rawId)
        {
            final String id = cut(rawId, maxIdLength);
            Map<String, Double> e = extensions.get(id);
            if (e == null)
            {
                if (extensions.size() >= MAX_EXTENSIONS)
                {
                    counters.increment(HeartbeatLoss.DETAIL_DROPPED);
                    return null;
                }
                e = new LinkedHashMap<>();
                extensions.put(id, e);
            }
            return e;
        }

        private void detail(final Map<String, Double> extension, final String rawId, final String value)
        {
            if (rawId == null)
            {
                return;
            }
            final double v;
            try
            {
                v = Double.parseDouble(value.trim());
            }
            catch (final NumberFormatException e)
            {
                counters.increment(HeartbeatLoss.BAD_VALUE);
                return;
            }
            if (!Double.isFinite(v))
            {
                counters.increment(HeartbeatLoss.BAD_VALUE);
                return;
            }
            put(extension, rawId, v);
        }

        private void put(final Map<String, Double> extension, final String rawId, final double v)
        {
            final String id = cut(rawId, maxIdLength);
            if (!extension.containsKey(id))
            {
                if (details >= MAX_DETAILS)
                {
                    counters.increment(HeartbeatLoss.DETAIL_DROPPED);
                    return;
                }
                details++;
            }
            extension.put(id, v);
        }

        @Override
        public void characters(final char[] ch, final int start, final int length)
        {
            if (depth > 0 && "java-classpath".equals(path[depth - 1]) && text.length() < MAX_CLASSPATH)
            {
                text.append(ch, start, Math.min(length, MAX_CLASSPATH - text.length()));
            }
        }

        @Override
        public void endElement(final String uri, final String localName, final String qName)
        {
            if ("java-classpath".equals(qName) && depth >= 2 && "runtime".equals(path[depth - 2]))
            {
                classpath = text.toString();
            }
            else if ("extension".equals(qName))
            {
                current = null;
            }
            depth--;
        }

        Status result()
        {
            if (produced > 0 || messageBytes > 0)
            {
                derive();
            }
            final List<HeartbeatReport.Extension> out = new ArrayList<>(extensions.size());
            for (final Map.Entry<String, Map<String, Double>> e : extensions.entrySet())
            {
                final List<HeartbeatReport.Detail> ds = new ArrayList<>(e.getValue().size());
                for (final Map.Entry<String, Double> d : e.getValue().entrySet())
                {
                    ds.add(new HeartbeatReport.Detail(d.getKey(), d.getValue()));
                }
                out.add(new HeartbeatReport.Extension(e.getKey(), ds));
            }
            return new Status(hasRuntime, classpath, out);
        }

        /** What CAT 3.1.0 derives for old Java clients that report {@code <message produced bytes>}. */
        private void derive()
        {
            final Map<String, Double> usage = extension("CatUsage");
            if (usage != null)
            {
                put(usage, "Produced", produced);
                put(usage, "Overflowed", overflowed);
                put(usage, "Bytes", messageBytes);
            }
            final Map<String, Double> system = extension("System");
            if (system != null)
            {
                put(system, "LoadAverage", loadAverage);
                put(system, "FreePhysicalMemory", freePhysical);
                put(system, "FreeSwapSpaceSize", freeSwap);
            }
            final Map<String, Double> gc = extension("GC");
            if (gc != null && gcs.size() >= 2)
            {
                put(gc, "ParNewCount", gcs.get(0)[0]);
                put(gc, "ParNewTime", gcs.get(0)[1]);
                put(gc, "ConcurrentMarkSweepCount", gcs.get(1)[0]);
                put(gc, "ConcurrentMarkSweepTime", gcs.get(1)[1]);
            }
            final Map<String, Double> threads = extension("FrameworkThread");
            if (threads != null && thread != null)
            {
                put(threads, "HttpThread", thread[4]);
                put(threads, "CatThread", thread[2]);
                put(threads, "PigeonThread", thread[3]);
                put(threads, "ActiveThread", thread[0]);
                put(threads, "StartedThread", thread[1]);
            }
            final Map<String, Double> disk = extension("Disk");
            if (disk != null)
            {
                for (final String[] volume : disks)
                {
                    put(disk, volume[0] + " Free", number(volume[1]));
                }
            }
        }

        private double number(final String s)
        {
            if (s == null)
            {
                return 0;
            }
            try
            {
                final double v = Double.parseDouble(s.trim());
                return Double.isFinite(v) ? v : 0;
            }
            catch (final NumberFormatException e)
            {
                return 0;
            }
        }
    }

    private static String cut(final String s, final int max)
    {
        return s.length() <= max ? s : s.substring(0, max);
    }
}
