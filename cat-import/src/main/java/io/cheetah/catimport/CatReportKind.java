package io.cheetah.catimport;

import io.cheetah.catimport.nativeformat.NativeDecoder;
import io.cheetah.catimport.nativeformat.NativeSchema;

/**
 * The report kinds CAT 3.1.0 stores in {@code hourlyreport} (its {@code name} column), each with the field numbers of
 * its model ({@code cat-consumer/src/main/resources/META-INF/dal/model/<kind>-report-{codegen,model}.xml}, merged as
 * {@link NativeSchema} describes) and so a {@link NativeDecoder} for its blobs.
 */
public enum CatReportKind
{
    /** Transaction counts, durations and per-minute ranges per machine, type and name (docs/protocol.md §4.2). */
    TRANSACTION("transaction", CatSchemas.transaction()),
    /** Event counts per machine, type and name (§4.3). */
    EVENT("event", CatSchemas.event()),
    /** Failures and long executions per machine and entity (§4.4). */
    PROBLEM("problem", CatSchemas.problem()),
    /** One period per machine and heartbeat (§4.5). */
    HEARTBEAT("heartbeat", CatSchemas.heartbeat()),
    /** CAT's own figures per consumer server and client domain, domain {@code cat} (§4.6). */
    STATE("state", CatSchemas.state()),
    /** Errors and timed calls of every domain per minute, domain {@code cat} (§4.6). */
    TOP("top", CatSchemas.top()),
    /** Calls per request and entry point (§4.6). */
    MATRIX("matrix", CatSchemas.matrix()),
    /** Callers and callees per machine (§4.6). */
    CROSS("cross", CatSchemas.cross()),
    /** Per minute: work by kind and dependencies (§4.6). */
    DEPENDENCY("dependency", CatSchemas.dependency()),
    /** Business metrics per key and minute (§4.6). */
    BUSINESS("business", CatSchemas.business()),
    /**
     * Calls per store, machine, domain and operation (§4.6). The vector holds no storage row, so these field
     * numbers are read off the model files only, not yet checked against a stored blob.
     */
    STORAGE("storage", CatSchemas.storage());

    private final String reportName;
    private final NativeSchema schema;
    private final NativeDecoder decoder;

    CatReportKind(final String reportName, final NativeSchema schema)
    {
        this.reportName = reportName;
        this.schema = schema;
        this.decoder = new NativeDecoder(schema);
    }

    /**
     * @return the report's name in CAT's {@code hourlyreport.name} column and URLs, e.g. {@code transaction}.
     */
    public String reportName()
    {
        return reportName;
    }

    /**
     * @return the model's field numbers.
     */
    public NativeSchema schema()
    {
        return schema;
    }

    /**
     * @return the decoder of this kind's blobs (stateless, shared).
     */
    public NativeDecoder decoder()
    {
        return decoder;
    }

    /**
     * @param reportName a value of {@code hourlyreport.name}.
     * @return the kind, or null when Cheetah does not read that report (yet).
     */
    public static CatReportKind byReportName(final String reportName)
    {
        for (final CatReportKind kind : values())
        {
            if (kind.reportName.equals(reportName))
            {
                return kind;
            }
        }
        return null;
    }
}
