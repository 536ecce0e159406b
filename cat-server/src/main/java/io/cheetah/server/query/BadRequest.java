package io.cheetah.server.query;

/**
 * A request the API refuses with 400 and a reason the caller can act on (bad date, unknown analyzer, over-long
 * string). Thrown by {@code http.api.ReportParameters}, {@link ReportCalendar} and {@link ReportLookup}, and
 * caught by the handlers, which turn it into the response.
 */
public final class BadRequest extends Exception
{
    private static final long serialVersionUID = 1L;

    /**
     * @param reason what is wrong, naming the parameter; must not echo unbounded client input.
     */
    public BadRequest(final String reason)
    {
        super(reason, null, false, false);
    }
}
