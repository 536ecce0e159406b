package io.cheetah.message;

/**
 * A metric message (kind {@link MessageKind#METRIC}) in the object model; it has no children and no duration.
 */
public final class Metric extends Message
{
    public Metric()
    {
    }

    public Metric(final String type, final String name, final String status, final String data,
        final long timestampMillis)
    {
        super(type, name, status, data, timestampMillis);
    }

    @Override
    public MessageKind kind()
    {
        return MessageKind.METRIC;
    }
}
