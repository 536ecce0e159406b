/**
 * Building blocks shared by the report models: interning of client strings into int symbols, open-addressing
 * maps, the mergeable duration sketch, caps and XML output.
 */
package io.cheetah.report;
