/**
 * From CAT's decoded reports to Cheetah's report models, one mapping per kind ({@link
 * io.cheetah.catimport.mapping.ReportMapping}), used by the import of CAT's history (issue 53).
 */
package io.cheetah.catimport.mapping;
