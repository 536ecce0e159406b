/**
 * The HTTP server (Jetty 12 core handlers, no servlets) on http.port: the CAT router endpoint, Prometheus
 * metrics, and handlers that other features (web UI, report API) mount by path prefix.
 * <pre>
 *   GET /cat/s/router ─▶ RouterHandler   (op=xml | op=json [+token] | op=api)
 *                         endpoints from RouterEndpoints (advertised host:port first, then router.servers)
 *   GET /metrics      ─▶ MetricsHandler  (PrometheusText)
 *   POST /cat/admin/checkpoint ─▶ AdminHandler (bearer http.adminToken, or loopback only) ─▶ in-band checkpoint
 *   GET /&lt;prefix&gt;/…   ─▶ mounted handlers (HttpServer.mount, longest prefix wins)
 * </pre>
 */
package io.cheetah.server.http;
