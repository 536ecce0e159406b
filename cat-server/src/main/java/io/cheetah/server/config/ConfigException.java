package io.cheetah.server.config;

/**
 * A configuration problem that stops start-up; the message names the offending key. Thrown by {@link ConfigLoader}
 * and by the server's wiring (e.g. an {@code analyzers.<name>} entry for an analyzer that does not exist).
 */
public final class ConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, starting with the key.
     */
    public ConfigException(final String message)
    {
        super(message);
    }

    /**
     * @param message what is wrong, starting with the key.
     * @param cause   the underlying parse error.
     */
    public ConfigException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
