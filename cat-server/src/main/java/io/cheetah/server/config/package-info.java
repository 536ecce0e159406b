/**
 * The server's configuration: immutable records read once at start-up from YAML ({@code config/server.yaml}) plus
 * {@code --set key=value} overrides, validated key by key so that a typo or a bad value stops start-up with a
 * message naming the key.
 * <pre>
 *   server.yaml ──┐
 *                 ├──▶ ConfigLoader ──▶ flat dotted keys ──▶ validation ──▶ ServerConfig (records)
 *   --set k=v ────┘                                        (ConfigException names the key)
 * </pre>
 */
package io.cheetah.server.config;
