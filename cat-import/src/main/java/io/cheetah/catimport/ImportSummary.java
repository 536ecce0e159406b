package io.cheetah.catimport;

import java.util.List;

/**
 * What one run of {@link CatImport} did, for {@link ImportCommand}'s last line and the tests.
 *
 * @param rowsRead       CAT rows read and decoded (of hours that were imported or tried).
 * @param hoursWritten   domain, kind and hour combinations written into Cheetah's tables.
 * @param hoursUnchanged those already imported with the same CAT rows (skipped).
 * @param hoursOwned     those Cheetah itself has rows for (a side-by-side trial's hours; left alone).
 * @param hoursFailed    those with a row that could not be read (not written; a later run tries again).
 * @param rowsNotRead    rows of report kinds Cheetah does not import.
 * @param problems       every row that could not be read, named.
 * @param periods        what was done with CAT's daily, weekly and monthly rows ({@link PeriodImport}).
 */
public record ImportSummary(long rowsRead, long hoursWritten, long hoursUnchanged, long hoursOwned,
                            long hoursFailed, long rowsNotRead, List<ImportProblem> problems, Periods periods)
{
    /**
     * Copies the list.
     */
    public ImportSummary
    {
        problems = List.copyOf(problems);
    }

    /**
     * Days, weeks and months of CAT's {@code dailyreport}, {@code weeklyreport} and {@code monthreport}: part of
     * {@link ImportSummary}, for {@link ImportCommand}'s last line and the tests.
     *
     * @param written   periods written into Cheetah's roll-up table.
     * @param unchanged those already imported with the same CAT rows.
     * @param owned     those Cheetah has hours or a roll-up of its own for (its roll-up stays authoritative).
     * @param failed    those with a row that could not be read or placed (not written; a later run tries again).
     */
    public record Periods(long written, long unchanged, long owned, long failed)
    {
    }
}
