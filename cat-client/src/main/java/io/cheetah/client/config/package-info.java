/**
 * The client's configuration: read once, leniently, into the immutable {@link io.cheetah.client.config.ClientConfig};
 * every key, its environment variable and its default are listed there.
 * <pre>
 *  system properties ─┐
 *  environment ───────┼─▶ ClientConfigLoader ─▶ ClientConfig ─▶ CatClient (sender, status thread, tree building)
 *  app.properties ────┤        └─ problems(): what was ignored, naming the key
 *  $CAT_HOME/client.xml ┘
 * </pre>
 */
package io.cheetah.client.config;
