package io.cheetah.analysis;

import io.cheetah.message.FlatTree;

import java.util.List;
import java.util.Set;
import java.util.function.ObjLongConsumer;

/**
 * One writer's share of an analyzer: builds the reports of the open hours for the domains of its partition.
 * Every method is called on the single consumer thread that owns the partition, so implementations take no lock;
 * other threads reach the data only through the immutable copies that {@link #snapshot} and {@link #closeHour}
 * return, which the ring's consumer makes in response to in-band requests.
 * <p>
 * Created by {@link AnalyzerType#create(AnalyzerContext)}; driven by the server's ring consumers.
 */
public interface Analyzer
{
    /**
     * Folds one tree into the report of its hour. Must not keep a reference to the tree (it is reused) and should
     * allocate nothing once warm.
     *
     * @param tree      a decoded tree this analyzer's type accepted.
     * @param hourStart epoch ms of the hour the tree belongs to, decided by its root timestamp.
     */
    void process(FlatTree tree, long hourStart);

    /**
     * @param hourStart epoch ms of an hour.
     * @return the domains this partition holds data for in that hour (a new set).
     */
    Set<String> domains(long hourStart);

    /**
     * Makes an immutable copy of one domain's report, consistent as of the last processed tree.
     *
     * @param hourStart epoch ms of the hour.
     * @param domain    the domain.
     * @return the copy, or null when this partition has no data for it.
     */
    Report snapshot(long hourStart, String domain);

    /**
     * The report of one domain as a checkpoint saves it, consistent as of the last processed tree: by default a
     * {@link #snapshot}; an analyzer whose reports are large answers an {@link EncodedReport} made straight from
     * its live state instead of copying it. Called on the consumer thread by every checkpoint round.
     *
     * @param hourStart epoch ms of the hour.
     * @param domain    the domain.
     * @return the report, or null when this partition has no data for it.
     */
    default Report checkpoint(final long hourStart, final String domain)
    {
        return snapshot(hourStart, domain);
    }

    /**
     * Removes an hour from memory and returns its reports, one per domain, for storage.
     *
     * @param hourStart epoch ms of the closing hour.
     * @return the hour's reports (empty when none).
     */
    List<Report> closeHour(long hourStart);

    /**
     * Merges a report saved earlier (a checkpoint reloaded after a restart within the hour) into the live state,
     * so counting continues from it.
     *
     * @param report a report of this analyzer for a domain of this partition.
     */
    void restore(Report report);

    /**
     * Whether this partition's reports can change only through {@link #process} and {@link #restore}. A checkpoint
     * skips an analyzer that answers true and took no tree since the last committed round: its files still hold
     * exactly what it would write again (under overload the shed MID and LOW analyzers cost the ring nothing then).
     * Analyzers whose reports also show figures kept elsewhere answer false and are written every round.
     *
     * @return true unless {@link #snapshot} reads state that trees do not change.
     */
    default boolean changesOnlyWithTrees()
    {
        return true;
    }

    /**
     * Reports what this partition folded or dropped to stay within its caps, by reason, so that no loss is silent
     * ({@code cheetah_analyzer_losses_total}). The one method any thread may call: implementations read only
     * counters written with ordered writes ({@link ReasonCounters}, {@code FoldCounters}).
     *
     * @param out receives each reason's label (lower case, e.g. {@code names_folded}) and count so far.
     */
    default void losses(final ObjLongConsumer<String> out)
    {
    }
}
