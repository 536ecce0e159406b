package io.cheetah.server.alert;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * CAT's alert configuration as exported from its {@code config} table, one file per row named after it, read and
 * checked once at start-up from {@code alerting.catConfigDir} by the configuration loader: the rules
 * ({@code transactionRule.xml}, {@code eventRule.xml}), the exception limits ({@code exceptionRuleConfig.xml}), the
 * policy ({@code alertPolicy.xml}), the receivers ({@code alertConfig.xml}, with CAT's {@code project} table as
 * {@code project.tsv}) and the gateways ({@code senderConfig.xml}); heartbeat rules ({@code heartbeatRuleConfig.xml})
 * read with the display policy ({@code heartbeat-display-policy.xml}, else CAT's defaults). A missing file means none
 * of that kind.
 *
 * @param rules      Transaction, Event and Heartbeat rules by kind.
 * @param exceptions the exception limits, or null for none.
 * @param policy     the alert policy ({@link AlertPolicy#NONE} when absent).
 * @param receivers  who hears of alerts ({@link AlertReceivers#NONE} when absent).
 * @param senders    CAT's gateways ({@link CatSenders#NONE} when absent).
 * @param display    how heartbeat metrics are read ({@link HeartbeatDisplay#DEFAULT} when absent).
 * @param business   Business rules per domain, from {@code business/<domain>.xml}.
 */
public record CatAlertConfig(Map<String, MonitorRules> rules, ExceptionRules exceptions, AlertPolicy policy,
                             AlertReceivers receivers, CatSenders senders, HeartbeatDisplay display,
                             BusinessRules business)
{
    /** No configuration: nothing to evaluate, nowhere to send. */
    public static final CatAlertConfig NONE = new CatAlertConfig(Map.of(), null, AlertPolicy.NONE,
        AlertReceivers.NONE, CatSenders.NONE, HeartbeatDisplay.DEFAULT, BusinessRules.of(Map.of()));

    /** The directory of Business rules, one {@code <domain>.xml} per row of CAT's {@code business_config}. */
    public static final String BUSINESS_DIR = "business";

    /** The rule files, by the kind of alert they hold. */
    public static final Map<String, String> RULE_FILES = Map.of("transaction", "transactionRule.xml", "event",
        "eventRule.xml", Alert.HEARTBEAT, "heartbeatRuleConfig.xml");

    /** Every file name read at the directory's top. */
    public static final List<String> FILES = List.of("transactionRule.xml", "eventRule.xml", "heartbeatRuleConfig.xml",
        "heartbeat-display-policy.xml", "exceptionRuleConfig.xml", "alertPolicy.xml", "alertConfig.xml", "project.tsv",
        "senderConfig.xml");

    /**
     * @param dir the directory of exported files.
     * @return what it holds.
     * @throws IllegalArgumentException naming the file, and in it the rule or entry, that cannot be used.
     */
    public static CatAlertConfig read(final Path dir)
    {
        return parse(files(dir));
    }

    /**
     * @param dir the directory of exported files.
     * @return the text of each file the configuration is read from, by its path in the directory
     * ({@code business/shop.xml}), in name order.
     * @throws IllegalArgumentException when the directory or a file cannot be read.
     */
    public static Map<String, String> files(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            throw new IllegalArgumentException("no such directory: " + dir);
        }
        final Map<String, String> out = new TreeMap<>();
        for (final String f : FILES)
        {
            final String text = text(dir.resolve(f), f);
            if (text != null)
            {
                out.put(f, text);
            }
        }
        final Path business = dir.resolve(BUSINESS_DIR);
        if (Files.isDirectory(business))
        {
            try (java.util.stream.Stream<Path> files = Files.list(business))
            {
                for (final Path f : (Iterable<Path>)files.sorted()::iterator)
                {
                    final String name = BUSINESS_DIR + "/" + f.getFileName();
                    if (name.endsWith(".xml"))
                    {
                        out.put(name, text(f, name));
                    }
                }
            }
            catch (final IOException e)
            {
                throw new IllegalArgumentException(BUSINESS_DIR + ": cannot be read: " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * @param files the text of each file by its path in the directory, as {@link #files} reads them.
     * @return the configuration they hold.
     * @throws IllegalArgumentException naming the file, and in it the rule or entry, that cannot be used.
     */
    public static CatAlertConfig parse(final Map<String, String> files)
    {
        final Map<String, MonitorRules> rules = new TreeMap<>();
        RULE_FILES.forEach((kind, file) ->
        {
            final MonitorRules r = parse(files, file, MonitorRules::parse);
            if (r != null)
            {
                try
                {
                    AlertEvaluator.check(kind, r);
                }
                catch (final IllegalArgumentException e)
                {
                    throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
                }
                rules.put(kind, r);
            }
        });
        final AlertPolicy policy = parse(files, "alertPolicy.xml", AlertPolicy::parse);
        final AlertReceivers receivers;
        try
        {
            receivers = AlertReceivers.parse(files.get("alertConfig.xml"), files.get("project.tsv"));
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("alertConfig.xml / project.tsv: " + e.getMessage(), e);
        }
        final CatSenders senders = parse(files, "senderConfig.xml", CatSenders::parse);
        final HeartbeatDisplay display = parse(files, "heartbeat-display-policy.xml", HeartbeatDisplay::parse);
        final Map<String, MonitorRules> business = new TreeMap<>();
        for (final Map.Entry<String, String> f : files.entrySet())
        {
            if (f.getKey().startsWith(BUSINESS_DIR + "/"))
            {
                business.put(f.getKey().substring(BUSINESS_DIR.length() + 1, f.getKey().length() - 4),
                    parse(files, f.getKey(), MonitorRules::parse));
            }
        }
        final BusinessRules businessRules;
        try
        {
            businessRules = BusinessRules.of(business);
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException(BUSINESS_DIR + "/" + e.getMessage(), e);
        }
        return new CatAlertConfig(Map.copyOf(rules), parse(files, "exceptionRuleConfig.xml", ExceptionRules::parse),
            policy == null ? AlertPolicy.NONE : policy, receivers, senders == null ? CatSenders.NONE : senders,
            display == null ? HeartbeatDisplay.DEFAULT : display, businessRules);
    }

    private static <T> T parse(final Map<String, String> files, final String file, final Function<String, T> parser)
    {
        final String text = files.get(file);
        if (text == null)
        {
            return null;
        }
        try
        {
            return parser.apply(text);
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private static String text(final Path p, final String file)
    {
        if (!Files.exists(p))
        {
            return null;
        }
        try
        {
            return Files.readString(p);
        }
        catch (final IOException e)
        {
            throw new IllegalArgumentException(file + ": cannot be read: " + e.getMessage(), e);
        }
    }
}
