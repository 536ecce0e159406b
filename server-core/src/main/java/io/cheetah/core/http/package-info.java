/**
 * How the HTTP handlers of the server and its modules answer ({@link io.cheetah.core.http.Reply}): a complete
 * response in one go (status, content type, body, gzip where asked), so a rendering error becomes a clean 500.
 */
package io.cheetah.core.http;
