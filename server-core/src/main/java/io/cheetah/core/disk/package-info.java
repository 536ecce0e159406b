/**
 * The disk under {@code storage.dataDir} as the writers see it: the one place they open files to write
 * ({@link io.cheetah.core.disk.Disk}), so the fault tests can fill it or make it read-only, and the rate-limited
 * log of its failures ({@link io.cheetah.core.disk.DiskFailureLog}).
 */
package io.cheetah.core.disk;
