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
 * CI=true or HBASE_GLIB_TEST_REQUIRE_STACK=1. */
gboolean test_stack_required (void);

/* Connects to @gateway.  When it cannot be reached, marks the current test
 * skipped (or failed, see test_stack_required()) and returns NULL. */
HBaseConnection *test_stack_connect (const TestGateway *gateway);

/* A table name no other test run uses: PREFIX_PID_COUNTER. */
char *test_stack_unique_name (const char *prefix);

/* A loopback TCP port nothing listens on (bound, then released). */
guint test_closed_port (void);

G_END_DECLS

#endif /* TEST_STACK_H */
