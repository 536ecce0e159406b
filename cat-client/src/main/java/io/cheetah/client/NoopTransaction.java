package io.cheetah.client;

/**
 * The transaction a disabled client (or one whose tree is full) hands out: accepts every call and records nothing.
 * One shared instance, so a disabled client allocates nothing.
 */
final class NoopTransaction implements Transaction
{
    static final NoopTransaction INSTANCE = new NoopTransaction();

    private NoopTransaction()
    {
    }

    @Override
    public void setStatus(final String status)
    {
    }

    @Override
    public void setStatus(final Throwable e)
    {
    }

    @Override
    public void addData(final String keyValuePairs)
    {
    }

    @Override
    public void addData(final String key, final Object value)
    {
    }

    @Override
    public void setDurationInMillis(final long durationMillis)
    {
    }

    @Override
    public void complete()
    {
    }

    @Override
    public String getType()
    {
        return "";
    }

    @Override
    public String getName()
    {
        return "";
    }

    @Override
    public String getStatus()
    {
        return SUCCESS;
    }

    @Override
    public String getData()
    {
        return "";
    }

    @Override
    public long getDurationInMicros()
    {
        return 0;
    }

    @Override
    public boolean isCompleted()
    {
        return true;
    }
}
