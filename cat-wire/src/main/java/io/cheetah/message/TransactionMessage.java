package io.cheetah.message;

import java.util.ArrayList;
import java.util.List;

/**
 * A transaction in the object model: a message with a duration in microseconds and ordered children. Built by the
 * decoders (through {@link FlatTree#toMessageTree()}), the client SDK and the tools; named apart from the SDK's
 * {@code io.cheetah.client.Transaction}, the handle applications complete, which records into one of these.
 */
public final class TransactionMessage extends Message
{
    private long durationMicros;
    private final List<Message> children = new ArrayList<>(4);

    public TransactionMessage()
    {
    }

    public TransactionMessage(final String type, final String name, final String status, final String data,
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

    public TransactionMessage durationMicros(final long durationMicros)
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
    public TransactionMessage addChild(final Message child)
    {
        children.add(child);
        return this;
    }

    @Override
    public boolean equals(final Object o)
    {
        return super.equals(o) && durationMicros == ((TransactionMessage)o).durationMicros &&
            children.equals(((TransactionMessage)o).children);
    }

    @Override
    public int hashCode()
    {
        return super.hashCode() * 31 + Long.hashCode(durationMicros);
    }
}
