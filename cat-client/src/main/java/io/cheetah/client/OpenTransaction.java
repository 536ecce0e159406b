package io.cheetah.client;

import io.cheetah.message.TransactionMessage;

/**
 * The handle of a transaction being recorded: wraps the object-model {@link TransactionMessage} that
 * goes into the tree, remembers its start on the monotonic clock and the thread context that owns it.
 */
final class OpenTransaction implements Transaction
{
    final ThreadContext context;
    final TransactionMessage message;
    final long startNanos;
    long explicitDurationMicros = -1;
    boolean completed;

    OpenTransaction(final ThreadContext context, final TransactionMessage message, final long startNanos)
    {
        this.context = context;
        this.message = message;
        this.startNanos = startNanos;
    }

    @Override
    public void setStatus(final String status)
    {
        message.status(status);
    }

    @Override
    public void setStatus(final Throwable e)
    {
        message.status(e == null ? "null" : e.getClass().getName());
    }

    @Override
    public void addData(final String keyValuePairs)
    {
        message.data(context.appendData(message.data(), keyValuePairs));
    }

    @Override
    public void addData(final String key, final Object value)
    {
        addData(key + '=' + value);
    }

    @Override
    public void setDurationInMillis(final long durationMillis)
    {
        explicitDurationMicros = Math.max(0, durationMillis) * 1000L;
    }

    @Override
    public void complete()
    {
        context.complete(this);
    }

    /** Fixes the duration; called once, when completed (directly or because an outer one completed). */
    void finish(final long nowNanos)
    {
        completed = true;
        message.durationMicros(explicitDurationMicros >= 0 ? explicitDurationMicros :
            Math.max(0, (nowNanos - startNanos) / 1000L));
    }

    @Override
    public String getType()
    {
        return message.type();
    }

    @Override
    public String getName()
    {
        return message.name();
    }

    @Override
    public String getStatus()
    {
        return message.status();
    }

    @Override
    public String getData()
    {
        return message.data();
    }

    @Override
    public long getDurationInMicros()
    {
        return completed ? message.durationMicros() : 0;
    }

    @Override
    public boolean isCompleted()
    {
        return completed;
    }

    @Override
    public String toString()
    {
        return "Transaction{" + message + "}";
    }
}
