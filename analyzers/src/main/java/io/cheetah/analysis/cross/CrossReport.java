package io.cheetah.analysis.cross;

import io.cheetah.analysis.Report;

import java.util.List;

/**
 * An immutable hourly Cross report of one domain, in CAT 3.1.0's shape ({@code cross-report}, docs/protocol.md §4.6):
 * the domain's machines ({@code ip}), and per local machine the remote ends it talked to, each with its role
 * ({@code Pigeon.Server}: a server this domain called; {@code Pigeon.Client}: a client that called this domain's
 * service; {@code Pigeon.Caller}: a caller as the callee sees it, mirrored from the caller's trees), its domain
 * ({@code app}), and the calls by transaction name. Made by {@link CrossAnalyzer}, {@link CrossReportFormat#decode}
 * and {@link CrossReportFormat#merge}; every list in id order.
 *
 * @param domain    the client domain.
 * @param hourStart epoch ms of the hour.
 * @param ips       the domain's machines.
 * @param locals    per local machine, its remote ends.
 */
public record CrossReport(String domain, long hourStart, List<String> ips, List<Local> locals) implements Report
{
    /** The analyzer name, also the report's name in storage and in {@code /cat/r/model/cross/...}. */
    public static final String NAME = "cross";

    /**
     * Copies the lists.
     */
    public CrossReport
    {
        ips = List.copyOf(ips);
        locals = List.copyOf(locals);
    }

    @Override
    public String analyzer()
    {
        return NAME;
    }

    /**
     * @param id a local machine.
     * @return its entry, or null.
     */
    public Local local(final String id)
    {
        for (final Local l : locals)
        {
            if (l.id().equals(id))
            {
                return l;
            }
        }
        return null;
    }

    /**
     * One local machine.
     *
     * @param id      its address.
     * @param remotes the remote ends it talked to, by id.
     */
    public record Local(String id, List<Remote> remotes)
    {
        /**
         * Copies the list.
         */
        public Local
        {
            remotes = List.copyOf(remotes);
        }

        /**
         * @param id {@code <ip>:<role>}.
         * @return the remote end, or null.
         */
        public Remote remote(final String id)
        {
            for (final Remote r : remotes)
            {
                if (r.id().equals(id))
                {
                    return r;
                }
            }
            return null;
        }
    }

    /**
     * One remote end.
     *
     * @param id   {@code <ip>:<role>}.
     * @param role {@code Pigeon.Server}, {@code Pigeon.Client} or {@code Pigeon.Caller}.
     * @param app  its domain as the call named it ({@code unknown} when it did not).
     * @param ip   its address as the call named it.
     * @param type the calls: {@code PigeonCall} (this domain called) or {@code PigeonService} (it was called).
     */
    public record Remote(String id, String role, String app, String ip, Type type)
    {
    }

    /**
     * The calls with one remote end.
     *
     * @param id         {@code PigeonCall} or {@code PigeonService}.
     * @param totalCount calls.
     * @param failCount  calls whose status was not {@code 0}.
     * @param sumMicros  their total duration, µs (CAT's {@code sum} is in ms).
     * @param names      by transaction name.
     */
    public record Type(String id, long totalCount, long failCount, long sumMicros, List<Name> names)
    {
        /**
         * Copies the list.
         */
        public Type
        {
            names = List.copyOf(names);
        }
    }

    /**
     * The calls of one transaction name with one remote end.
     *
     * @param id         the transaction name (the method).
     * @param totalCount calls.
     * @param failCount  failed calls.
     * @param sumMicros  total duration, µs.
     */
    public record Name(String id, long totalCount, long failCount, long sumMicros)
    {
    }
}
