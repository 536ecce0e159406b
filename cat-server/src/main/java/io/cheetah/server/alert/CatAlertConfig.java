package io.cheetah.server.alert;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    /**
     * @param dir the directory of exported files.
     * @return what it holds.
     * @throws IllegalArgumentException naming the file, and in it the rule or entry, that cannot be used.
     */
    public static CatAlertConfig read(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            throw new IllegalArgumentException("no such directory: " + dir);
        }
        final Map<String, MonitorRules> rules = new TreeMap<>();
        RULE_FILES.forEach((kind, file) ->
        {
            final MonitorRules r = parse(dir, file, MonitorRules::parse);
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
        final AlertPolicy policy = parse(dir, "alertPolicy.xml", AlertPolicy::parse);
        final String alertConfig = text(dir, "alertConfig.xml");
        final String projects = text(dir, "project.tsv");
        final AlertReceivers receivers;
        try
        {
            receivers = AlertReceivers.parse(alertConfig, projects);
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("alertConfig.xml / project.tsv: " + e.getMessage(), e);
        }
        final CatSenders senders = parse(dir, "senderConfig.xml", CatSenders::parse);
        final HeartbeatDisplay display = parse(dir, "heartbeat-display-policy.xml", HeartbeatDisplay::parse);
        return new CatAlertConfig(Map.copyOf(rules), parse(dir, "exceptionRuleConfig.xml", ExceptionRules::parse),
            policy == null ? AlertPolicy.NONE : policy, receivers, senders == null ? CatSenders.NONE : senders,
            display == null ? HeartbeatDisplay.DEFAULT : display, business(dir.resolve(BUSINESS_DIR)));
    }

    private static BusinessRules business(final Path dir)
    {
        final Map<String, MonitorRules> byDomain = new TreeMap<>();
        if (!Files.isDirectory(dir))
        {
            return BusinessRules.of(byDomain);
        }
        try (java.util.stream.Stream<Path> files = Files.list(dir))
        {
            for (final Path f : (Iterable<Path>)files.sorted()::iterator)
            {
                final String file = f.getFileName().toString();
                if (file.endsWith(".xml"))
                {
                    byDomain.put(file.substring(0, file.length() - 4), parse(dir, file, MonitorRules::parse));
                }
            }
            return BusinessRules.of(byDomain);
        }
        catch (final IOException e)
        {
            throw new IllegalArgumentException(BUSINESS_DIR + ": cannot be read: " + e.getMessage(), e);
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException(BUSINESS_DIR + "/" + e.getMessage(), e);
        }
    }

    private static <T> T parse(final Path dir, final String file, final Function<String, T> parser)
    {
        final String text = text(dir, file);
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

    private static String text(final Path dir, final String file)
    {
        final Path p = dir.resolve(file);
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
