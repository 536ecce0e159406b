package io.cheetah.client;

import io.cheetah.message.Message;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

import java.util.Arrays;

/**
 * One application thread's tree under construction: the open transactions (a stack), the tree they belong to,
 * and whether it holds a failure. Touched only by its own thread. When the outermost transaction completes, or a
 * message is logged with no transaction open, the tree goes to the sender.
 * <pre>
 *  newTransaction ─▶ push (child of the top, or root of a new tree)
 *  logEvent/…     ─▶ child of the top, or a one-message tree sent at once
 *  complete       ─▶ pop (completing anything opened inside it); empty stack ─▶ Sender.submit(tree)
 * </pre>
 * A tree holds at most {@code cat.tree.max.messages} messages; later ones are dropped and counted.
 */
final class ThreadContext
{
    private final CatClient client;
    private final String threadId;
    private final String threadGroupName;
    private final int maxMessages;
    private final int maxDataChars;

    private MessageTree tree;
    private OpenTransaction[] stack = new OpenTransaction[8];
    private int depth;
    private int messages;
    private boolean important;

    // Ids set by logRemoteCallServer before any transaction was open: applied to the next tree.
    private String pendingMessageId;
    private String pendingParentId;
    private String pendingRootId;

    ThreadContext(final CatClient client, final Thread thread)
    {
        this.client = client;
        this.threadId = Long.toString(thread.getId());
        final ThreadGroup group = thread.getThreadGroup();
        this.threadGroupName = group == null ? "" : group.getName();
        this.maxMessages = client.config().maxTreeMessages();
        this.maxDataChars = client.config().maxDataChars();
    }

    Transaction begin(final String type, final String name)
    {
        final long now = System.currentTimeMillis();
        final TransactionMessage message =
            new TransactionMessage(type, name, Message.SUCCESS, "", now, 0);
        if (depth == 0)
        {
            startTree(message);
        }
        else if (!attach(message))
        {
            return NoopTransaction.INSTANCE;
        }
        final OpenTransaction t = new OpenTransaction(this, message, System.nanoTime());
        if (depth == stack.length)
        {
            stack = Arrays.copyOf(stack, depth * 2);
        }
        stack[depth++] = t;
        return t;
    }

    void complete(final OpenTransaction t)
    {
        if (t.completed)
        {
            return;
        }
        int at = depth - 1;
        while (at >= 0 && stack[at] != t)
        {
            at--;
        }
        final long now = System.nanoTime();
        if (at < 0)
        {
            // Not on this stack (already popped with an outer one, or from another client): just fix its duration.
            t.finish(now);
            return;
        }
        while (depth > at)
        {
            final OpenTransaction top = stack[--depth];
            stack[depth] = null;
            top.finish(now);
            if (!top.message.isSuccess())
            {
                important = true;
            }
        }
        if (depth == 0)
        {
            submitTree();
        }
    }

    /**
     * Logs an event, heartbeat, metric or trace: a child of the open transaction, or a tree of its own.
     */
    void log(final Message m, final boolean forceImportant)
    {
        if (forceImportant || !m.isSuccess())
        {
            important = true;
        }
        if (depth == 0)
        {
            startTree(m);
            submitTree();
            return;
        }
        attach(m);
    }

    String appendData(final String existing, final String more)
    {
        final String joined = existing.isEmpty() ? more : existing + '&' + more;
        return truncate(joined);
    }

    String truncate(final String data)
    {
        if (data != null && data.length() > maxDataChars)
        {
            client.counters().dataTruncated();
            return data.substring(0, maxDataChars);
        }
        return data;
    }

    /**
     * @return the open tree's id, minted now if it has none; null with no transaction open.
     */
    String currentMessageId()
    {
        if (tree == null)
        {
            return null;
        }
        if (tree.messageId().isEmpty())
        {
            tree.messageId(client.createMessageId());
        }
        return tree.messageId();
    }

    /**
     * @return the root id to pass to a callee: this tree's root id, or its own id when it is the root.
     */
    String rootMessageIdForCallee()
    {
        final String own = currentMessageId();
        if (tree == null)
        {
            return own;
        }
        return tree.rootMessageId().isEmpty() ? own : tree.rootMessageId();
    }

    void linkToCaller(final String messageId, final String parentId, final String rootId)
    {
        if (tree != null)
        {
            if (messageId != null && !messageId.isEmpty())
            {
                tree.messageId(messageId);
            }
            tree.parentMessageId(parentId);
            tree.rootMessageId(rootId);
        }
        else
        {
            pendingMessageId = messageId;
            pendingParentId = parentId;
            pendingRootId = rootId;
        }
    }

    /** @return true while a transaction is open on this thread. */
    boolean hasOpenTransaction()
    {
        return depth > 0;
    }

    private void startTree(final Message root)
    {
        tree = new MessageTree().domain(client.config().domain()).hostname(client.config().hostname())
            .ipAddress(client.config().ip()).threadGroupName(threadGroupName).threadId(threadId)
            .threadName(Thread.currentThread().getName()).root(root);
        messages = 1;
        if (pendingMessageId != null || pendingParentId != null || pendingRootId != null)
        {
            if (pendingMessageId != null)
            {
                tree.messageId(pendingMessageId);
            }
            tree.parentMessageId(pendingParentId).rootMessageId(pendingRootId);
            pendingMessageId = null;
            pendingParentId = null;
            pendingRootId = null;
        }
    }

    private boolean attach(final Message m)
    {
        if (messages >= maxMessages)
        {
            client.counters().messageOverCap();
            return false;
        }
        messages++;
        stack[depth - 1].message.addChild(m);
        return true;
    }

    private void submitTree()
    {
        final MessageTree done = tree;
        final boolean wasImportant = important;
        tree = null;
        messages = 0;
        important = false;
        client.submit(done, wasImportant);
    }
}
