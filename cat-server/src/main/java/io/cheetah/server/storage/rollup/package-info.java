/**
 * Daily, weekly and monthly roll-ups: the task queue in MySQL ({@link io.cheetah.server.storage.rollup.RollupTasks})
 * and the builder that claims and merges ({@link io.cheetah.server.storage.rollup.RollupWorker}); one server of a
 * cluster builds each period.
 * <pre>
 *  hourly row stored ──▶ DAY task (ready at day end + 2 h) ──▶ claim ──▶ merge hourly rows ──▶ daily row
 *  daily row stored  ──▶ WEEK and MONTH tasks ──▶ claim ──▶ merge daily rows ──▶ weekly / monthly row
 * </pre>
 */
package io.cheetah.server.storage.rollup;
