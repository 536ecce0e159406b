/**
 * The logview's search index: every stored tree findable by what it holds (domain, time, transaction or event type
 * and name, status, duration, client IP and host), answered from summaries written as the trees are stored rather
 * than by decompressing every tree of a range (docs/protocol.md §8.1).
 * <pre>
 *  ring consumer (partition p)                                         HTTP thread
 *  LogviewWriter.append ─▶ HourFile (id domain) unsealed block          LogviewSearch.search(SearchQuery)
 *        │ SearchIndex.add ─▶ BlockSummary: messages tallied by           │ 1. copy unsealed blocks (HourFile)
 *        │   symbol pair (PairTally), per tree ip and host                │ 2. IndexReader.scan + TermFilter:
 *        │                                                                │    summaries ─▶ candidate blocks
 *        ▼ block sealed ─▶ TermDictionary (terms: T/E type+name, status,  │ 3. read blocks newest first,
 *          ip, host; per term failed? ok? duration range in ms)           │
 *        ▼ SearchIndex.write                                              │
 *  &lt;hour&gt;/&lt;header domain&gt;-p&lt;p&gt;.six: TERM | BLOCK records ───────────┘    decode, TreeMatcher ─▶ SearchHit
 * </pre>
 * One index file per (id hour, header domain, writer partition), so a search reads only its domain's summaries; a
 * summary names the id domain whose {@code .dat} file holds the block (RPC ids may name another domain). A summary
 * is conservative: it may admit a block without a match, never reject one with a match, because every tree of an
 * admitted block is decoded and checked exactly. Writing happens on the writer's thread without a lock, one write per
 * sealed block; reading is positional and tolerates a torn tail (the record being written). Per message the writer
 * only tallies primitives (no String is stored per message: a write barrier each); the dictionary is consulted once
 * per distinct pair when the block is sealed, reading a symbol's text from the ingest's table ({@code SymbolStrings})
 * only when the dictionary meets it for the first time. Under overload the dump analyzer leaves trees out of the
 * index ({@link io.cheetah.logview.search.SearchIndex#addUnindexed}): their block's summary is marked
 * {@link io.cheetah.logview.search.SearchFormat#UNINDEXED} and admitted by every search, which then checks its trees.
 */
package io.cheetah.logview.search;
