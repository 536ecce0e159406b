package io.cheetah.client.transport;

/**
 * What a sampled-out tree leaves behind: its transactions and events added to per-name aggregates, so the server's
 * counts stay exact at any sample rate. Implemented by {@link SampleFolder}; called by
 * {@link OutboundTree#foldInto(SampledCounts)} on the application thread that completed the tree.
 */
public interface SampledCounts
{
    /**
     * @param type           transaction type.
     * @param name           transaction name.
     * @param success        status {@code "0"}.
     * @param durationMicros its duration.
     */
    void transaction(String type, String name, boolean success, long durationMicros);

    /**
     * @param type    event type.
     * @param name    event name.
     * @param success status {@code "0"}.
     */
    void event(String type, String name, boolean success);
}
