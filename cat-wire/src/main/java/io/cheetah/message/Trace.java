package io.cheetah.message;

/**
 * A trace message (kind {@link MessageKind#TRACE}) in the object model; it has no children and no duration.
 */
public final class Trace extends Message
{
    public Trace()
    {
    }

    public Trace(final String type, final String name, final String status, final String data,
        final long timestampMillis)
    {
        super(type, name, status, data, timestampMillis);
    }

    @Override
    public MessageKind kind()
    {
        return MessageKind.TRACE;
    }
}
