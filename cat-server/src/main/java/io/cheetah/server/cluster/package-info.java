/**
 * A cluster of servers behind CAT's router, with the reports' MySQL as the only shared state (docs/architecture.md,
 * "Cluster"): each member renews a row in {@code cluster_member} ({@link io.cheetah.server.cluster.Membership}), the
 * router sends each domain's clients to its two {@link io.cheetah.server.cluster.Rendezvous} members, and any member
 * answers any report by merging the other members' parts of the open hours into its own
 * ({@link io.cheetah.server.cluster.ClusterReports}); closed hours come from MySQL, where every member writes its own
 * rows and one member at a time builds each roll-up (the roll-up task queue).
 * <pre>
 *  client ─GET /cat/s/router?domain=D─▶ any member ─▶ Rendezvous.rank(D, live members) ─▶ "primary;fallback;"
 *  client ─trees─▶ primary (fallback when it is out)
 *  browser ─▶ any member ─▶ ClusterReports ─┬─ own rings
 *                                           └─ PeerClient ─GET /cheetah/cluster/report─▶ PeerHandler of each other member
 *  every member ─heartbeat─▶ MySQL cluster_member ◀─ SELECT live ─ every member
 * </pre>
 */
package io.cheetah.server.cluster;
