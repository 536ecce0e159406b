package io.cheetah.catimport;

/**
 * A CAT row or document the import could not take, named so that it can be found in CAT's database: the table, the
 * row's id and why. Collected by {@link CatImport} and {@link ConfigImport}; printed by {@link ImportCommand}.
 *
 * @param table  CAT's table, e.g. {@code hourly_report_content} or {@code config}.
 * @param id     the row's id in that table (with its name where it has one).
 * @param reason why it was not taken.
 */
public record ImportProblem(String table, String id, String reason)
{
    @Override
    public String toString()
    {
        return table + " " + id + ": " + reason;
    }
}
