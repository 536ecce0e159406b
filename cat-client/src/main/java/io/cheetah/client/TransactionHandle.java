package io.cheetah.client;

/**
 * What {@link Cat#newTransaction} returns: a 24-byte name for one entry of a {@link RecordedTree} (the tree, the
 * entry's index, and the serial the entry was given, unique in the client), so a transaction costs no object beyond
 * it. Calls that change the transaction act only while its tree is being recorded; the getters answer from the entry
 * until the tree's storage is reused for another tree (after it was sent), then empty: a stale handle never touches
 * another transaction.
 */
final class TransactionHandle implements Transaction
{
    private final RecordedTree tree;
    private final int index;
    private final int serial;

    TransactionHandle(final RecordedTree tree, final int index, final int serial)
    {
        this.tree = tree;
        this.index = index;
        this.serial = serial;
    }

    /** @return true while the entry is this handle's and its tree is still being recorded. */
    private boolean recording()
    {
        return tree.recording && matches();
    }

    private boolean matches()
    {
        return index < tree.size && tree.serials[index] == serial;
    }

    @Override
    public void setStatus(final String status)
    {
        if (recording())
        {
            tree.statuses[index] = status == null ? "" : status;
        }
    }

    @Override
    public void setStatus(final Throwable e)
    {
        setStatus(e == null ? "null" : e.getClass().getName());
    }

    @Override
    public void addData(final String keyValuePairs)
    {
        if (recording())
        {
            tree.datas[index] = tree.recorder.appendData(tree.datas[index], keyValuePairs);
        }
    }

    @Override
    public void addData(final String key, final Object value)
    {
        if (recording())
        {
            addData(key + '=' + value);
        }
    }

    @Override
    public void setDurationInMillis(final long durationMillis)
    {
        if (recording())
        {
            tree.durations[index] = Math.max(0, durationMillis) * 1000L;
        }
    }

    @Override
    public void complete()
    {
        if (recording())
        {
            tree.recorder.complete(tree, index, serial);
        }
    }

    @Override
    public String getType()
    {
        return matches() ? tree.types[index] : "";
    }

    @Override
    public String getName()
    {
        return matches() ? tree.names[index] : "";
    }

    @Override
    public String getStatus()
    {
        return matches() ? tree.statuses[index] : SUCCESS;
    }

    @Override
    public String getData()
    {
        final String data = matches() ? tree.datas[index] : null;
        return data == null ? "" : data;
    }

    @Override
    public long getDurationInMicros()
    {
        return matches() && tree.ends[index] > 0 ? tree.durations[index] : 0;
    }

    @Override
    public boolean isCompleted()
    {
        return !matches() || tree.ends[index] > 0;
    }

    @Override
    public String toString()
    {
        return "Transaction{" + getType() + "/" + getName() + " status=" + getStatus() + "}";
    }
}
