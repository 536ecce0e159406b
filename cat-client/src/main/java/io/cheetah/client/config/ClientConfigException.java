package io.cheetah.client.config;

/**
 * A configuration value the client cannot use; the message names the key (or file) and the value. Thrown by
 * {@link ClientConfig.Builder#build()}; {@link ClientConfigLoader} catches it per key, falls back to the default and
 * records the message in {@link ClientConfig#problems()}.
 */
public final class ClientConfigException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message naming the key and the bad value.
     */
    public ClientConfigException(final String message)
    {
        super(message);
    }
}
