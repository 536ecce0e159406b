package io.cheetah.server.period;

/**
 * Where the {@link HourTicker} sends its decisions: the ring group, which turns each into an in-band control event
 * that every ring consumer handles in order with the trees.
 */
public interface PeriodEvents
{
    /**
     * Hour {@code hourStart} is over (H+63 min passed): analyzers hand its reports to storage and forget it.
     *
     * @param hourStart epoch ms.
     */
    void closeHour(long hourStart);

    /**
     * Time for a checkpoint of every open hour.
     */
    void checkpoint();
}
