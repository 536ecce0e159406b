package io.cheetah.message;

import java.util.Objects;

/**
 * One message of a tree in the object model: type, name, status, data and a start timestamp.
 * The object model is what the client SDK builds and what tools and tests read; the server's hot path
 * uses the array-based {@link FlatTree} instead.
 */
public abstract class Message
{
    /** The status CAT treats as success; every other string, including the empty one, is a failure. */
    public static final String SUCCESS = "0";

    private String type = "";
    private String name = "";
    private String status = "";
    private String data = "";
    private long timestampMillis;

    protected Message()
    {
    }

    protected Message(final String type, final String name, final String status, final String data,
        final long timestampMillis)
    {
        this.type = nonNull(type);
        this.name = nonNull(name);
        this.status = nonNull(status);
        this.data = nonNull(data);
        this.timestampMillis = timestampMillis;
    }

    /**
     * @return which of the five kinds this message is.
     */
    public abstract MessageKind kind();

    public String type()
    {
        return type;
    }

    public Message type(final String type)
    {
        this.type = nonNull(type);
        return this;
    }

    public String name()
    {
        return name;
    }

    public Message name(final String name)
    {
        this.name = nonNull(name);
        return this;
    }

    public String status()
    {
        return status;
    }

    public Message status(final String status)
    {
        this.status = nonNull(status);
        return this;
    }

    public String data()
    {
        return data;
    }

    public Message data(final String data)
    {
        this.data = nonNull(data);
        return this;
    }

    /**
     * @return epoch milliseconds; for a transaction its start.
     */
    public long timestampMillis()
    {
        return timestampMillis;
    }

    public Message timestampMillis(final long timestampMillis)
    {
        this.timestampMillis = timestampMillis;
        return this;
    }

    /**
     * @return true when the status is exactly {@code "0"}.
     */
    public boolean isSuccess()
    {
        return SUCCESS.equals(status);
    }

    static String nonNull(final String s)
    {
        return s == null ? "" : s;
    }

    @Override
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (o == null || getClass() != o.getClass())
        {
            return false;
        }
        final Message m = (Message)o;
        return timestampMillis == m.timestampMillis && type.equals(m.type) && name.equals(m.name) &&
            status.equals(m.status) && data.equals(m.data);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(kind(), type, name, status, timestampMillis);
    }

    @Override
    public String toString()
    {
        return kind().tag() + " " + type + "/" + name + " status=" + status + " ts=" + timestampMillis;
    }
}
