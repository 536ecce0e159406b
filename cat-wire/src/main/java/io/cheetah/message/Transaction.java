package io.cheetah.message;

import java.util.ArrayList;
import java.util.List;

/**
 * A transaction in the object model: a message with a duration in microseconds and ordered children.
 */
public final class Transaction extends Message
{
    private long durationMicros;
    private final List<Message> children = new ArrayList<>(4);

    public Transaction()
    {
    }

    public Transaction(final String type, final String name, final String status, final String data,
        final long timestampMillis, final long durationMicros)
    {
        super(type, name, status, data, timestampMillis);
        this.durationMicros = durationMicros;
    }

    @Override
    public MessageKind kind()
    {
        return MessageKind.TRANSACTION;
    }

    /**
     * @return the duration in microseconds, as NT1 carries it.
     */
    public long durationMicros()
    {
        return durationMicros;
    }

    public Transaction durationMicros(final long durationMicros)
    {
        this.durationMicros = durationMicros;
        return this;
    }

    /**
     * @return the children in creation order; the list is live and may be appended to.
     */
    public List<Message> children()
    {
        return children;
    }

    /**
     * Appends a child and returns this transaction, so small trees can be written as one expression.
     *
     * @param child to append.
     * @return this.
     */
    public Transaction addChild(final Message child)
    {
        children.add(child);
        return this;
    }

    @Override
    public boolean equals(final Object o)
    {
        return super.equals(o) && durationMicros == ((Transaction)o).durationMicros &&
            children.equals(((Transaction)o).children);
    }

    @Override
    public int hashCode()
    {
        return super.hashCode() * 31 + Long.hashCode(durationMicros);
    }
}
