package io.cheetah.analysis;

/**
 * Implemented by analyzers that react to loss: before each {@code process} call the ring consumer tells them how
 * many analyzers the priority gate refused for that tree. The State analyzer reports it; the dump analyzer leaves
 * the tree out of the search index then (an overload sheds optional work first).
 */
public interface RefusalListener
{
    /**
     * @param refusedAnalyzers analyzers that wanted the tree but were refused.
     */
    void refusals(int refusedAnalyzers);
}
