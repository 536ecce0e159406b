package io.cheetah.logview;

import io.cheetah.message.MessageId;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class MessageKeyTest
{
    @Test
    void agreesWithMessageIdOnValidAndInvalidIds()
    {
        final String[] ids = {
            "cat-go-sender-c0000202-498699-1", "cat-python-sender-c0000202.31337-498699-20045", "a-0A0B0C0D-1-0",
            "a-0a0b0c0-1-0", "a-0a0b0c0d0-1-0", "-0a0b0c0d-1-2", "a-0a0b0c0d--2", "a-0a0b0c0d-1-", "a-0a0b0c0d-x-2",
            "a-0a0b0c0g-1-2", "a-0a0b0c0d.-1-2", "a-0a0b0c0d.99999999999-1-2", "域名-0a000001-5-6", "", "abc",
            "a.b-0a0b0c0d-12-34", "a-0a0b0c0d-1234567890123456789-1"};
        for (final String text : ids)
        {
            final MessageId id = MessageId.parse(text);
            final MessageKey fromBytes = new MessageKey();
            final byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            final boolean ok = fromBytes.parse(bytes, bytes.length);
            assertThat(ok).as(text).isEqualTo(id != null);
            if (ok)
            {
                final MessageKey fromId = new MessageKey();
                fromId.set(id);
                assertThat(fromBytes.clientKey()).as(text).isEqualTo(fromId.clientKey());
                assertThat(fromBytes.hour()).as(text).isEqualTo(id.hour());
                assertThat(fromBytes.index()).as(text).isEqualTo(id.index());
                assertThat(new String(bytes, 0, fromBytes.domainLength(), StandardCharsets.UTF_8)).isEqualTo(id.domain());
            }
        }
    }

    @Test
    void pidMakesADifferentClient()
    {
        final MessageKey a = new MessageKey();
        final MessageKey b = new MessageKey();
        a.set(MessageId.parse("d-0a000001-1-2"));
        b.set(MessageId.parse("d-0a000001.0-1-2"));
        assertThat(a.clientKey()).isNotEqualTo(b.clientKey());
    }
}
