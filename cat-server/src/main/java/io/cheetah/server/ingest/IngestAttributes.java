package io.cheetah.server.ingest;

import io.netty.util.AttributeKey;

/**
 * Channel attributes the ingest handlers share.
 */
final class IngestAttributes
{
    /** Set on a connection closed by the {@link ConnectionGate}. */
    static final AttributeKey<Boolean> REFUSED = AttributeKey.valueOf("cheetah.refused");

    private IngestAttributes()
    {
    }
}
