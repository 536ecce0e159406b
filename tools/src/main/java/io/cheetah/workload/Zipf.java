package io.cheetah.workload;

import java.util.SplittableRandom;

/**
 * Draws ranks {@code 0..n-1} with Zipf probabilities ({@code p(k) ∝ 1/(k+1)^s}) from a precomputed cumulative
 * table and a binary search, so a draw allocates nothing and the same random stream gives the same ranks.
 * Used by {@link StdMix} for domains and names.
 */
final class Zipf
{
    private final double[] cumulative;

    Zipf(final int n, final double s)
    {
        cumulative = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++)
        {
            sum += 1.0 / Math.pow(k + 1, s);
            cumulative[k] = sum;
        }
        for (int k = 0; k < n; k++)
        {
            cumulative[k] /= sum;
        }
    }

    int sample(final SplittableRandom random)
    {
        final double u = random.nextDouble();
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi)
        {
            final int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < u)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return lo;
    }
}
