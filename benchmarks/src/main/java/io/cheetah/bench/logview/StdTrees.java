package io.cheetah.bench.logview;

import io.cheetah.codec.Nt1Encoder;
import io.cheetah.message.Event;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

import java.util.Random;

/**
 * Builds "std-like" trees for the logview and journal benchmarks: one URL request of about 1.2 KB as NT1 (a URL
 * transaction with server/method events, three SQL transactions with their statements and parameters, two cache
 * events, one RPC call), varied in names, data and timings so that LZ4 sees realistic, not identical, frames.
 */
public final class StdTrees
{
    private StdTrees()
    {
    }

    /**
     * @param domain  the tree's domain.
     * @param id      its message id.
     * @param variant seeds the variation.
     * @return the NT1 frame, length prefix included.
     */
    public static byte[] frame(final String domain, final String id, final int variant)
    {
        final Random rnd = new Random(variant);
        final long t0 = 1_795_316_668_527L + rnd.nextInt(3_600_000);
        final TransactionMessage url = new TransactionMessage("URL", "/api/order/" + (variant % 37) + "/detail", "0",
            "", t0,
            20_000 + rnd.nextInt(80_000));
        url.addChild(new Event("URL.Server", "10.1." + rnd.nextInt(256) + "." + rnd.nextInt(256), "0",
            "Id=" + Long.toHexString(rnd.nextLong()) + "&ClientIp=10.2." + rnd.nextInt(256) + ".7", t0));
        url.addChild(new Event("URL.Method", "HTTP/GET", "0", "/api/order/" + rnd.nextInt(1_000_000) +
            "/detail?lang=zh_CN&trace=" + Long.toHexString(rnd.nextLong()), t0));
        for (int s = 0; s < 3; s++)
        {
            final TransactionMessage sql = new TransactionMessage("SQL", "OrderMapper.select" + (s + variant % 5), "0",
                "SELECT id, amount, status FROM orders WHERE user_id = ? AND status IN (?, ?) LIMIT 20", t0 + 2 + s,
                500 + rnd.nextInt(5_000));
            sql.addChild(new Event("SQL.Method", "SELECT", "0", "[" + rnd.nextInt(10_000_000) + ",PAID,SHIPPED]",
                t0 + 2 + s));
            sql.addChild(new Event("SQL.Database", "jdbc:mysql://db-" + (s % 2) + ".example:3306/order", "0", "",
                t0 + 2 + s));
            url.addChild(sql);
        }
        url.addChild(new Event("Cache.redis", "get:user:" + (variant % 11), rnd.nextBoolean() ? "0" : "miss",
            "key=user:" + rnd.nextInt(10_000_000), t0 + 9));
        url.addChild(new Event("Cache.redis", "set:user:" + (variant % 11), "0", "ttl=300", t0 + 10));
        final TransactionMessage rpc = new TransactionMessage("PigeonCall", "com.example.UserService:getProfile(long)",
            "0",
            "", t0 + 11, 3_000 + rnd.nextInt(9_000));
        rpc.addChild(new Event("PigeonCall.server", "10.3." + rnd.nextInt(256) + ".9:4040", "0", "", t0 + 11));
        rpc.addChild(new Event("RemoteCall", "PigeonRequest", "0", id.substring(0, id.lastIndexOf('-')) + "-" +
            (variant + 1), t0 + 11));
        url.addChild(rpc);
        return Nt1Encoder.encode(new MessageTree().domain(domain).hostname("app-" + (variant % 8))
            .ipAddress("10.1.6." + (100 + variant % 8)).threadGroupName("http-nio")
            .threadId(Integer.toString(100 + variant % 50))
            .threadName("http-nio-8080-exec-" + (variant % 50)).messageId(id).root(url));
    }
}
