package io.cheetah.analysis;

/**
 * Implemented by analyzers that keep state outside their reports (the dump analyzer's unsealed logview blocks): on
 * every checkpoint their consumer calls {@link #checkpointed()}, in band, so what the checkpoint's journal cut
 * claims is kept really is on disk.
 */
public interface CheckpointListener
{
    /** Makes everything processed so far durable (called on the analyzer's consumer thread). */
    void checkpointed();
}
