/* test-table-fixture.h: integration tests that run each case on one or
 * more gateways, against a table of their own per gateway.
 *
 * Creating and dropping a table takes HBase a second or two, so a suite
 * creates one table per gateway, on the first case that needs it, and
 * drops them all when the suite ends; cases stay independent by writing
 * only rows of their own (test_key() in test-rows.h). */
#ifndef TEST_TABLE_FIXTURE_H
#define TEST_TABLE_FIXTURE_H

#include "test-stack.h"

G_BEGIN_DECLS

typedef struct {
  const TestGateway *gateway;
  HBaseClient *client;      /* NULL when the gateway is unreachable: the case skips */
  HBaseTable *table;
} TestTableFixture;

typedef void (*TestTableFunc) (TestTableFixture *fixture, gconstpointer data);

typedef struct {
  const char *name;
  TestTableFunc func;
} TestTableCase;

typedef enum {
  TEST_GATEWAYS_ALL,        /* every protocol/transport combination */
  TEST_GATEWAYS_ENDS,       /* binary/buffered and compact/framed */
} TestGatewaySet;

typedef struct {
  const char *path;                  /* "/integration/write-buffer" */
  const char *table_prefix;          /* "hbase_glib_write_buffer" */
  const HBaseFamilyOptions *families;
  guint n_families;
  TestGatewaySet gateways;
} TestTableSuite;

/* Adds "<path>/<gateway label>/<case name>" for every case and gateway. */
void test_table_suite_add (const TestTableSuite *suite,
                           const TestTableCase  *cases,
                           guint                 n_cases);

/* g_test_run(), then drops every table the suite created. */
int  test_table_suite_run (void);

#define TEST_SKIP_IF_UNREACHABLE(fixture) \
  G_STMT_START { if ((fixture)->table == NULL) return; } G_STMT_END

G_END_DECLS

#endif /* TEST_TABLE_FIXTURE_H */
