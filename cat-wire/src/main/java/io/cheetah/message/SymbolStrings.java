package io.cheetah.message;

/**
 * The strings behind the shared symbols that a decoded {@link FlatTree} carries ({@link FlatTree#symbolPair},
 * {@link FlatTree#ipSymbol}): implemented by the ingest's symbol table, read by consumers that note a tree's symbols
 * first and need a symbol's text only later, once per distinct symbol (the logview's search index).
 */
public interface SymbolStrings
{
    /**
     * @param symbol a symbol carried by a tree decoded with this table.
     * @return its canonical string.
     */
    String string(int symbol);
}
