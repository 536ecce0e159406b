package io.cheetah.analysis.matrix;

import io.cheetah.analysis.Report;

import java.util.Comparator;
import java.util.List;

/**
 * An immutable hourly Matrix report of one domain, in CAT 3.1.0's shape ({@code matrix-report}, docs/protocol.md §4):
 * per entry point (the root transaction's name) its type, request count, total time and the id of its first request,
 * and for each of {@link #RATIO_TYPES} the calls its requests made. Made by {@link MatrixAnalyzer},
 * {@link MatrixReportFormat#decode} and {@link MatrixReportFormat#merge}; matrices in name order, ratios in
 * {@link #RATIO_TYPES} order.
 *
 * @param domain    the client domain.
 * @param hourStart epoch ms of the hour.
 * @param matrices  the entry points.
 */
public record MatrixReport(String domain, long hourStart, List<Matrix> matrices) implements Report
{
    /** The analyzer name, also the report's name in storage and in {@code /cat/r/model/matrix/...}. */
    public static final String NAME = "matrix";

    /** The call kinds counted, in CAT's XML order: SQL, RPC calls ({@code Call}, {@code PigeonCall}), caches. */
    public static final List<String> RATIO_TYPES = List.of("SQL", "Call", "Cache");

    /** Name order. */
    public static final Comparator<Matrix> ORDER = Comparator.comparing(Matrix::name);

    /**
     * Copies the list.
     */
    public MatrixReport
    {
        matrices = List.copyOf(matrices);
    }

    @Override
    public String analyzer()
    {
        return NAME;
    }

    /**
     * @param name an entry point's name.
     * @return its matrix, or null.
     */
    public Matrix matrix(final String name)
    {
        for (final Matrix m : matrices)
        {
            if (m.name().equals(name))
            {
                return m;
            }
        }
        return null;
    }

    /**
     * One entry point.
     *
     * @param name        the root transaction's name, e.g. {@code /order/create}.
     * @param type        its type ({@code URL}, {@code Service} or {@code PigeonService}).
     * @param count       requests.
     * @param totalMicros their total duration, µs (CAT's {@code totalTime}).
     * @param url         the message id of a request (CAT keeps the first), or null.
     * @param ratios      one per {@link #RATIO_TYPES}, in that order.
     */
    public record Matrix(String name, String type, long count, long totalMicros, String url, List<Ratio> ratios)
    {
        /**
         * Copies the list.
         */
        public Matrix
        {
            ratios = List.copyOf(ratios);
        }

        /**
         * @param type one of {@link #RATIO_TYPES}.
         * @return its ratio, or null.
         */
        public Ratio ratio(final String type)
        {
            for (final Ratio r : ratios)
            {
                if (r.type().equals(type))
                {
                    return r;
                }
            }
            return null;
        }
    }

    /**
     * The calls of one kind that an entry point's requests made.
     *
     * @param type        one of {@link #RATIO_TYPES}.
     * @param min         the fewest calls in one request, by CAT's rule (a 0 is replaced by the next request's count).
     * @param max         the most calls in one request.
     * @param url         the message id of the first request that made {@code max} calls, or null while max is 0.
     * @param totalCount  calls over every request.
     * @param totalMicros their total duration, µs.
     */
    public record Ratio(String type, long min, long max, String url, long totalCount, long totalMicros)
    {
    }
}
