package io.cheetah.client;

/**
 * A timed unit of work the application opened with {@link Cat#newTransaction(String, String)}: set a status, add
 * data, then {@link #complete()} it. Transactions opened while another is open on the same thread nest inside it; the
 * tree is sent when the outermost one completes. The method names are CAT's, so code written against
 * {@code com.dianping.cat.message.Transaction} ports by changing the import. Not thread-safe: complete it on the
 * thread that opened it.
 */
public interface Transaction
{
    /** The status CAT counts as success. */
    String SUCCESS = "0";

    /**
     * @param status {@link #SUCCESS} or any other text, which CAT counts as a failure.
     */
    void setStatus(String status);

    /**
     * Marks the transaction failed with the throwable's class name as its status.
     *
     * @param e the failure.
     */
    void setStatus(Throwable e);

    /**
     * Appends {@code key=value} pairs text, joined to earlier data with {@code &}.
     *
     * @param keyValuePairs text such as {@code a=1&b=2}.
     */
    void addData(String keyValuePairs);

    /**
     * Appends {@code key=value}, joined to earlier data with {@code &}.
     *
     * @param key   name.
     * @param value its {@code String.valueOf}.
     */
    void addData(String key, Object value);

    /**
     * Overrides the measured duration (for work timed elsewhere).
     *
     * @param durationMillis milliseconds.
     */
    void setDurationInMillis(long durationMillis);

    /**
     * Ends the transaction: fixes its duration and, for the outermost one, hands the tree to the sender. Open
     * transactions nested inside it are completed first. A second call does nothing.
     */
    void complete();

    /**
     * @return the type given at creation.
     */
    String getType();

    /**
     * @return the name given at creation.
     */
    String getName();

    /**
     * @return the status so far ({@link #SUCCESS} until set).
     */
    String getStatus();

    /**
     * @return the data so far.
     */
    String getData();

    /**
     * @return the duration in microseconds once completed, else 0.
     */
    long getDurationInMicros();

    /**
     * @return true once {@link #complete()} ran.
     */
    boolean isCompleted();

    /**
     * @return true when the status is {@link #SUCCESS}.
     */
    default boolean isSuccess()
    {
        return SUCCESS.equals(getStatus());
    }
}
