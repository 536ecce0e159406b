package io.cheetah.analysis;

/**
 * Which part of a report a reader wants, as CAT's {@code ip}, {@code type} and {@code name} parameters say
 * (docs/protocol.md §6.3): machine {@code All} (or null) merges every machine; no type gives the type level only;
 * a type gives its names; a type and a name give that name's ranges and distribution too.
 *
 * @param ip          a machine, or {@link #ALL}.
 * @param type        a type, or null for all types without their names.
 * @param name        a name within the type, or null.
 * @param nowMillis   the reader's clock, for rates over the elapsed part of the current hour.
 */
public record ReportQuery(String ip, String type, String name, long nowMillis)
{
    /** The machine id of the merge over every machine. */
    public static final String ALL = "All";

    /**
     * @param nowMillis the reader's clock.
     * @return the whole report merged over machines, type level only.
     */
    public static ReportQuery all(final long nowMillis)
    {
        return new ReportQuery(ALL, null, null, nowMillis);
    }

    /**
     * @return true when every machine is merged into one {@code All} machine.
     */
    public boolean allMachines()
    {
        return ip == null || ip.isEmpty() || ALL.equals(ip);
    }
}
