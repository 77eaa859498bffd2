/* SPDX-License-Identifier: Apache-2.0 */
/* test-fault-proxy.h: a TCP proxy for tests that sits between a client and
 * a real server (a Thrift2 gateway, redis-server) and injects network
 * faults on demand: delays, silence, resets, truncated or corrupt replies.
 *
 * The proxy listens on 127.0.0.1 (a port the kernel picks) and runs in a
 * thread of its own; every accepted connection gets its own connection to
 * the upstream server.  "Request" bytes go from the client to the
 * upstream, "reply" bytes from the upstream to the client.
 *
 * The mode can be changed at any time, from any thread.  A change applies
 * to every connection, open or new, from the next bytes it carries on: the
 * byte counts of the modes below ("after N bytes") start again at zero on
 * every connection when the mode changes.  Bytes already scheduled by the
 * delay or slow-drip modes keep their schedule.  Switching to
 * accept-then-close closes every open connection at once. */
#ifndef TEST_FAULT_PROXY_H
#define TEST_FAULT_PROXY_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TestFaultProxy TestFaultProxy;

/* Counters since the proxy started (see test_fault_proxy_get_stats()). */
typedef struct {
  guint64 accepted;          /* client connections accepted */
  guint64 closed;            /* client connections closed, by either side */
  guint64 resets;            /* client connections the proxy reset (RST) */
  guint64 request_bytes;     /* read from clients */
  guint64 forwarded_bytes;   /* of those, written to the upstream */
  guint64 reply_bytes;       /* read from the upstream */
  guint64 delivered_bytes;   /* written to clients (upstream replies or garbage) */
  guint open;                /* client connections open now */
} TestFaultProxyStats;

/* Starts a proxy to @upstream_host:@upstream_port (an IPv4 address or a
 * host name).  Aborts the test program when it cannot listen. */
TestFaultProxy *test_fault_proxy_new       (const char     *upstream_host,
                                            guint           upstream_port);
/* Stops the thread, closes every socket, frees the proxy. */
void            test_fault_proxy_free      (TestFaultProxy *proxy);
/* The port the proxy listens on, on 127.0.0.1. */
guint           test_fault_proxy_get_port  (TestFaultProxy *proxy);
void            test_fault_proxy_get_stats (TestFaultProxy      *proxy,
                                            TestFaultProxyStats *stats);

/* Modes. */

/* Every byte forwarded as it comes (the initial mode). */
void test_fault_proxy_pass            (TestFaultProxy *proxy);
/* Every chunk read, either way, is held @ms milliseconds, then forwarded
 * (in order). */
void test_fault_proxy_delay           (TestFaultProxy *proxy,
                                       guint           ms);
/* Requests are read and dropped: nothing is forwarded, nothing answered,
 * the connection stays open. */
void test_fault_proxy_blackhole       (TestFaultProxy *proxy);
/* Request bytes are held (not forwarded) until @after bytes came; then the
 * first @forward of them (at most @after) go to the upstream, the upstream
 * connection is closed and the client connection reset (SO_LINGER 0 and
 * close: an RST). */
void test_fault_proxy_reset_request   (TestFaultProxy *proxy,
                                       gsize           after,
                                       gsize           forward);
/* Requests are forwarded; the first @after bytes of the reply too, then
 * the client connection is reset (RST). */
void test_fault_proxy_reset_reply     (TestFaultProxy *proxy,
                                       gsize           after);
/* Requests are forwarded; the first @after bytes of the reply too, then
 * the client connection is closed cleanly (FIN). */
void test_fault_proxy_truncate_reply  (TestFaultProxy *proxy,
                                       gsize           after);
/* Requests are forwarded; the reply goes to the client one byte every @ms
 * milliseconds. */
void test_fault_proxy_slow_drip       (TestFaultProxy *proxy,
                                       guint           ms);
/* New connections are closed (FIN) as soon as they are accepted, and open
 * ones at once. */
void test_fault_proxy_accept_close    (TestFaultProxy *proxy);
/* Requests are forwarded; every chunk of the reply is replaced by @data
 * (@len bytes; NULL for 64 random bytes). */
void test_fault_proxy_garbage         (TestFaultProxy *proxy,
                                       const void     *data,
                                       gsize           len);

/* Waits until @proxy has no client connection open, at most @timeout_ms;
 * TRUE if it has none. */
gboolean test_fault_proxy_wait_closed (TestFaultProxy *proxy,
                                       guint           timeout_ms);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestFaultProxy, test_fault_proxy_free)

G_END_DECLS

#endif /* TEST_FAULT_PROXY_H */
