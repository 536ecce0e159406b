package io.cheetah.message;

/**
 * A heartbeat message (kind {@link MessageKind#HEARTBEAT}) in the object model; it has no children and no duration.
 */
public final class Heartbeat extends Message
{
    public Heartbeat()
    {
    }

    public Heartbeat(final String type, final String name, final String status, final String data,
        final long timestampMillis)
    {
        super(type, name, status, data, timestampMillis);
    }

    @Override
    public MessageKind kind()
    {
        return MessageKind.HEARTBEAT;
    }
}
