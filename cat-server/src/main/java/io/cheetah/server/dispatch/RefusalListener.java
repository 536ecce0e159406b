package io.cheetah.server.dispatch;

/**
 * Implemented by analyzers that report loss (the State analyzer): before each {@code process} call the consumer
 * tells them how many analyzers the priority gate refused for that tree.
 */
public interface RefusalListener
{
    /**
     * @param refusedAnalyzers analyzers that wanted the tree but were refused.
     */
    void refusals(int refusedAnalyzers);
}
