package io.cheetah.message;

import java.util.Objects;

/**
 * One tree in the object model: the ten NT1 header fields and a root message.
 * Built by the client SDK before encoding, and by {@link FlatTree#toMessageTree()} for tools and tests.
 */
public final class MessageTree
{
    private String domain = "";
    private String hostname = "";
    private String ipAddress = "";
    private String threadGroupName = "";
    private String threadId = "";
    private String threadName = "";
    private String messageId = "";
    private String parentMessageId = "";
    private String rootMessageId = "";
    private String sessionToken = "";
    private Message root;

    public String domain()
    {
        return domain;
    }

    public MessageTree domain(final String v)
    {
        domain = Message.nonNull(v);
        return this;
    }

    public String hostname()
    {
        return hostname;
    }

    public MessageTree hostname(final String v)
    {
        hostname = Message.nonNull(v);
        return this;
    }

    /**
     * @return the client's IPv4 address from the header: the "machine" key of every report.
     */
    public String ipAddress()
    {
        return ipAddress;
    }

    public MessageTree ipAddress(final String v)
    {
        ipAddress = Message.nonNull(v);
        return this;
    }

    public String threadGroupName()
    {
        return threadGroupName;
    }

    public MessageTree threadGroupName(final String v)
    {
        threadGroupName = Message.nonNull(v);
        return this;
    }

    public String threadId()
    {
        return threadId;
    }

    public MessageTree threadId(final String v)
    {
        threadId = Message.nonNull(v);
        return this;
    }

    public String threadName()
    {
        return threadName;
    }

    public MessageTree threadName(final String v)
    {
        threadName = Message.nonNull(v);
        return this;
    }

    public String messageId()
    {
        return messageId;
    }

    public MessageTree messageId(final String v)
    {
        messageId = Message.nonNull(v);
        return this;
    }

    public String parentMessageId()
    {
        return parentMessageId;
    }

    public MessageTree parentMessageId(final String v)
    {
        parentMessageId = Message.nonNull(v);
        return this;
    }

    public String rootMessageId()
    {
        return rootMessageId;
    }

    public MessageTree rootMessageId(final String v)
    {
        rootMessageId = Message.nonNull(v);
        return this;
    }

    public String sessionToken()
    {
        return sessionToken;
    }

    public MessageTree sessionToken(final String v)
    {
        sessionToken = Message.nonNull(v);
        return this;
    }

    /**
     * @return the root message, or null for a tree that has none yet.
     */
    public Message root()
    {
        return root;
    }

    public MessageTree root(final Message root)
    {
        this.root = root;
        return this;
    }

    @Override
    public boolean equals(final Object o)
    {
        if (!(o instanceof MessageTree))
        {
            return false;
        }
        final MessageTree t = (MessageTree)o;
        return domain.equals(t.domain) && hostname.equals(t.hostname) && ipAddress.equals(t.ipAddress) &&
            threadGroupName.equals(t.threadGroupName) && threadId.equals(t.threadId) &&
            threadName.equals(t.threadName) && messageId.equals(t.messageId) &&
            parentMessageId.equals(t.parentMessageId) && rootMessageId.equals(t.rootMessageId) &&
            sessionToken.equals(t.sessionToken) && Objects.equals(root, t.root);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(domain, messageId);
    }

    @Override
    public String toString()
    {
        return "MessageTree{" + domain + " " + ipAddress + " " + messageId + " root=" + root + "}";
    }
}
