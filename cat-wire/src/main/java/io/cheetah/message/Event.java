package io.cheetah.message;

/**
 * A event message (kind {@link MessageKind#EVENT}) in the object model; it has no children and no duration.
 */
public final class Event extends Message
{
    public Event()
    {
    }

    public Event(final String type, final String name, final String status, final String data,
        final long timestampMillis)
    {
        super(type, name, status, data, timestampMillis);
    }

    @Override
    public MessageKind kind()
    {
        return MessageKind.EVENT;
    }
}
