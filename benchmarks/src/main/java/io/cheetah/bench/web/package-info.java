/**
 * Benchmarks of the web side: the cost of the dashboard's JSON API per request on large reports.
 */
package io.cheetah.bench.web;
