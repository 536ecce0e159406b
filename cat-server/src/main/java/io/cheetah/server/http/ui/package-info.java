/**
 * The dashboard's delivery: static files from the web-ui module ({@link io.cheetah.server.http.ui.AssetHandler}),
 * browser hardening headers ({@link io.cheetah.server.http.ui.SecurityHeaders}) and the assembly of every web
 * handler ({@link io.cheetah.server.http.ui.Dashboard}) that the HTTP server mounts.
 * <pre>
 *  browser ─▶ /cat/r/t (page HTML) ─▶ /ui/js/*.js ─▶ fetch /api/v1/reports/transaction?… ─▶ JSON ─▶ DOM (textContent)
 * </pre>
 * Pages are plain HTML and ES modules, no build step; everything client data touches is set with
 * {@code textContent}, never {@code innerHTML}.
 */
package io.cheetah.server.http.ui;
