/**
 * The logview archive: sealed hours copied to a Hadoop file system (HDFS, or any Hadoop-compatible one:
 * {@code file:///} on an NFS mount, {@code s3a://} with hadoop-aws) and read back by position when the local copy is
 * gone, so trees are kept for months ({@code logview.archive.*}, {@code logview.localRetentionHours}).
 * <pre>
 *  &lt;dataDir&gt;/logview/&lt;yyyyMMdd&gt;/&lt;HH&gt;/*      ArchiveUploader ("logview-archive" thread)
 *   (every regular file: .dat .idx .seg,  ── every scanSeconds: sealed hours (no writer, ≥ 3 h old) whose
 *    the search index's files, ...)           manifest is missing or differs = backlog (hours, bytes: gauges)
 *        │                                  ── oldest first: LogviewArchive.upload
 *        │ copy + CRC32C ─────────────────────▶ &lt;uri&gt;/&lt;yyyyMMdd&gt;/&lt;HH&gt;/&lt;name&gt;   (delete _ARCHIVED first)
 *        │                                        verify: length, CRC32C (HDFS composite checksum or read back)
 *        │                                    ──▶ &lt;uri&gt;/&lt;yyyyMMdd&gt;/&lt;HH&gt;/_ARCHIVED  (written last, renamed)
 *        │                                  ── failure: counted, back-off retryMin..retryMaxSeconds, backlog kept
 *        ▼
 *  LogviewStore.cleanup ── past localRetentionHours and holdsWhole (local length + CRC32C = manifest) ──▶ delete
 *                      ── not archived whole: kept, counted (localHourDirectoriesKeptUnarchived)
 *
 *  LogviewStore.find(id): local hour directory gone ──▶ LogviewArchive.files(hour) (the manifest, cached)
 *     ──▶ SealedFile over HadoopFile (pread): .seg table, one .idx slot, one .dat block — never a download
 * </pre>
 * Everything that goes wrong is counted in {@code LogviewCounters} ({@code cheetah_logview_archive_*} at
 * {@code /metrics}): failures, mismatches, read errors, and the backlog gauges.
 */
package io.cheetah.logview.archive;
