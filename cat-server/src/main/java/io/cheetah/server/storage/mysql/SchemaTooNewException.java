package io.cheetah.server.storage.mysql;

/**
 * Thrown at start-up by {@link SchemaMigrator} when the database was migrated by a newer Cheetah than this one:
 * running on would risk writing rows the newer schema does not expect, so the server stops instead.
 */
public final class SchemaTooNewException extends IllegalStateException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param database version recorded in the database.
     * @param known    newest version this code knows.
     */
    public SchemaTooNewException(final int database, final int known)
    {
        super("database schema version " + database + " is newer than this Cheetah knows (" + known +
            "): upgrade Cheetah, or point storage.mysql.url at another database");
    }
}
