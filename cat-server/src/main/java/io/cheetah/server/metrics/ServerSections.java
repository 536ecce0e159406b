package io.cheetah.server.metrics;

import io.cheetah.codec.SharedSymbols;
import io.cheetah.server.http.AdminHandler;
import io.cheetah.server.http.RouterHandler;

import java.util.function.Consumer;

/**
 * The /metrics sections of the server's own edges: the ingest's shared symbol table ({@code cheetah_symbols*}),
 * the router's answers ({@code cheetah_router_requests_total}) and the admin API ({@code cheetah_admin_*}). Added
 * by {@code CheetahServer} through {@link PrometheusText#add}; each is rendered per scrape from live counters.
 */
public final class ServerSections
{
    private ServerSections()
    {
    }

    /**
     * @param symbols the ingest's shared symbol table.
     * @return a section with its size and the strings it refused.
     */
    public static Consumer<StringBuilder> symbols(final SharedSymbols symbols)
    {
        return out -> out
            .append("# HELP cheetah_symbols Strings given a shared symbol by the ingest (types, names, ...).\n")
            .append("# TYPE cheetah_symbols gauge\n")
            .append("cheetah_symbols ").append(symbols.size()).append('\n')
            .append("# HELP cheetah_symbols_refused_total Strings left without a symbol: the table was full.\n")
            .append("# TYPE cheetah_symbols_refused_total counter\n")
            .append("cheetah_symbols_refused_total ").append(symbols.refused()).append('\n');
    }

    /**
     * @param router the router handler.
     * @return a section with one series per answer form ({@link RouterHandler#FORMS}).
     */
    public static Consumer<StringBuilder> router(final RouterHandler router)
    {
        return out ->
        {
            out.append("# HELP cheetah_router_requests_total Router answers, by form.\n")
                .append("# TYPE cheetah_router_requests_total counter\n");
            for (int f = 0; f < RouterHandler.FORMS.length; f++)
            {
                out.append("cheetah_router_requests_total{form=\"").append(RouterHandler.FORMS[f]).append("\"} ")
                    .append(router.requests(f)).append('\n');
            }
        };
    }

    /**
     * @param admin the admin handler.
     * @return a section with its refusals and forced checkpoints.
     */
    public static Consumer<StringBuilder> admin(final AdminHandler admin)
    {
        return out -> out
            .append("# HELP cheetah_admin_refused_total Admin requests refused (missing or wrong token).\n")
            .append("# TYPE cheetah_admin_refused_total counter\n")
            .append("cheetah_admin_refused_total ").append(admin.refused()).append('\n')
            .append("# HELP cheetah_admin_checkpoints_total Checkpoints forced through the admin API.\n")
            .append("# TYPE cheetah_admin_checkpoints_total counter\n")
            .append("cheetah_admin_checkpoints_total ").append(admin.checkpoints()).append('\n');
    }
}
