/* SPDX-License-Identifier: Apache-2.0 */
/* test-stack.h: what integration tests need to reach the local stack. */
#ifndef TEST_STACK_H
#define TEST_STACK_H

#include <hbase-glib/hbase-glib.h>

G_BEGIN_DECLS

/* One Thrift2 gateway of the stack under test. */
typedef struct {
  char *host;
  guint port;
  HBaseProtocol protocol;
  HBaseTransport transport;
  char *label;  /* "binary-buffered", usable in test paths and table names */
} TestGateway;

/* The gateways to test, from HBASE_GLIB_TEST_GATEWAYS
 * ("HOST:PORT:PROTOCOL:TRANSPORT ..."), by default the four that
 * scripts/stack.sh starts.  Aborts the test program on a malformed list. */
GPtrArray *test_stack_gateways (void);

/* TRUE when an unreachable stack must fail the test rather than skip it:
 * CI=true (or 1, yes, on) or HBASE_GLIB_TEST_REQUIRE_STACK on (a boolean,
 * see test_env_boolean()). */
gboolean test_stack_required (void);

/* Marks the current test skipped, or failed when test_stack_required(),
 * because the stack cannot be reached (@why says how it failed). */
void test_stack_unreachable (const char *why);

/* Marks the current test skipped, or failed when test_stack_required(),
 * because what it needs of the stack is not there (@why, a whole sentence). */
void test_stack_unavailable (const char *why);

/* Marks the current test skipped, or failed when test_stack_required(),
 * because HBASE_GLIB_TEST_GATEWAYS names no gateway speaking @protocol
 * over @transport. */
void test_stack_missing_gateway (HBaseProtocol  protocol,
                                 HBaseTransport transport);

/* Connects to @gateway.  When it cannot be reached, marks the current test
 * skipped (or failed, see test_stack_required()) and returns NULL. */
HBaseConnection *test_stack_connect (const TestGateway *gateway);

/* A table name no other test run uses: PREFIX_PID_COUNTER. */
char *test_stack_unique_name (const char *prefix);

/* A loopback TCP port nothing listens on (bound, then released). */
guint test_closed_port (void);

/* One gateway from the environment variable @variable
 * ("HOST:PORT:PROTOCOL:TRANSPORT"), or from @fallback (same form) when it
 * is unset or empty.  Aborts the test program on a malformed spec. */
TestGateway *test_stack_gateway_from_env (const char *variable,
                                          const char *fallback);
void test_stack_gateway_free (TestGateway *gateway);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestGateway, test_stack_gateway_free)

/* The first gateway of test_stack_gateways() speaking @protocol over
 * @transport, or NULL (transfer none: valid while @gateways lives). */
const TestGateway *test_stack_find_gateway (GPtrArray      *gateways,
                                            HBaseProtocol   protocol,
                                            HBaseTransport  transport);

/* test_stack_find_gateway() for a test that needs that gateway: when the
 * list has none, marks the current test skipped (failed when
 * test_stack_required(), see test_stack_missing_gateway()) and returns NULL. */
const TestGateway *test_stack_require_gateway (GPtrArray      *gateways,
                                               HBaseProtocol   protocol,
                                               HBaseTransport  transport);

/* TRUE when @gateway accepts a connection; otherwise marks the current
 * test skipped (or failed, see test_stack_required()) and returns FALSE. */
gboolean test_stack_check_gateway (const TestGateway *gateway);

/* An HBaseConfig (see hbase-config.h) naming @gateway alone, with its
 * protocol and transport and the other settings at their defaults. */
HBaseConfig *test_stack_config (const TestGateway *gateway);
/* A config of the native backend with the stack's bootstrap servers:
 * HBASE_GLIB_TEST_NATIVE_BOOTSTRAP, by default "127.0.0.1:16020
 * 127.0.0.1:16000" (the local stack's region server and master). */
HBaseConfig *test_stack_native_config (void);

/* The path of `$top_srcdir/scripts/stack.sh` (top_srcdir comes from the
 * test environment, see tests/local.mk), or NULL with G_IO_ERROR_NOT_FOUND
 * when top_srcdir is unset or the script is missing. */
char *test_stack_script (GError **error);

/* Runs `$top_srcdir/scripts/stack.sh restart-gateway PORT` (top_srcdir
 * comes from the test environment, see tests/local.mk): stops the stack's
 * gateway on @port, starts it again as it was and waits until it answers.
 * Its output goes to the test log.  Fails with G_IO_ERROR_NOT_FOUND when
 * the script cannot be found or the gateway is not one this tree's
 * stack.sh started (e.g. under make distcheck, whose tree has no stack
 * state: set HBASE_GLIB_STATE_DIR), with G_IO_ERROR_FAILED otherwise. */
gboolean test_stack_restart_gateway (guint    port,
                                     GError **error);

/* test-scanner simulates scanner expiry by closing every gateway scanner
 * in a window of scanner ids (global to a gateway process), so programs
 * that hold gateway scanners run one at a time: each takes this lock (an
 * flock on a file in the temporary directory) around its tests. */
int  test_stack_scanner_lock   (void);
void test_stack_scanner_unlock (int lock);

G_END_DECLS

#endif /* TEST_STACK_H */
