/* SPDX-License-Identifier: Apache-2.0 */
/* test-table-fixture.h: integration tests that run each case on one or
 * more gateways (and, for the cases a suite names, on the native backend:
 * the "native" end), against a table of their own per gateway.
 *
 * Creating and dropping a table takes HBase a second or two, so a suite
 * creates one table per gateway, on the first case that needs it, and
 * drops them all when the suite ends; cases stay independent by writing
 * only rows of their own (test_key() in test-rows.h).
 *
 * A suite may also load rows every case reads (TestTableSuiteOptions.prepare,
 * once per gateway), keep state of its own per gateway
 * (TestTableFixture.shared), make more tables that are dropped with its
 * own (test_table_fixture_create_table()), or have no table of its own at
 * all (table_prefix NULL: the cases get a client only). */
#ifndef TEST_TABLE_FIXTURE_H
#define TEST_TABLE_FIXTURE_H

#include "test-stack.h"

G_BEGIN_DECLS

typedef struct {
  const TestGateway *gateway;  /* NULL when HBASE_GLIB_TEST_GATEWAYS has none of the kind */
  HBaseClient *client;      /* NULL when there is no gateway or it is unreachable: the
                             * case does not run, it is skipped (failed when
                             * test_stack_required()) */
  HBaseTable *table;        /* NULL when the suite has no table (table_prefix NULL) */
  gpointer shared;          /* the suite's state for this gateway, kept between cases
                             * (set by TestTableSuiteOptions.prepare) */
  gconstpointer data;       /* the case's TestTableSuiteOptions.case_data */
  gpointer priv;            /* the fixture's own */
} TestTableFixture;

typedef void (*TestTableFunc) (TestTableFixture *fixture, gconstpointer data);

typedef struct {
  const char *name;
  TestTableFunc func;
} TestTableCase;

/* A kind of gateway a suite needs and HBASE_GLIB_TEST_GATEWAYS lacks still
 * gets its cases, skipped (failed when test_stack_required()). */
typedef enum {
  TEST_GATEWAYS_ALL,        /* every gateway listed, and every protocol/transport
                             * combination */
  TEST_GATEWAYS_ENDS,       /* binary/buffered and compact/framed */
} TestGatewaySet;

typedef struct {
  const char *path;                  /* "/integration/write-buffer" */
  const char *table_prefix;          /* "hbase_glib_write_buffer" */
  const HBaseFamilyOptions *families;
  guint n_families;
  TestGatewaySet gateways;
} TestTableSuite;

/* More of a suite, for test_table_suite_add_full(); every field optional. */
typedef struct {
  TestTableFunc prepare;             /* once per gateway, before its first case (after
                                      * the table is created): loads rows, sets shared */
  GDestroyNotify free_shared;        /* frees shared when the suite ends */
  gboolean scanner_lock;             /* holds test_stack_scanner_lock() while the cases run */
  gboolean spread;                   /* each case on one gateway only, the gateways in turn */
  const gconstpointer *case_data;    /* TestTableFixture.data of each case */
  /* the cases (by name, NULL-terminated) that also run on the "native"
   * end: a client of the native backend (bootstrap servers from
   * HBASE_GLIB_TEST_NATIVE_BOOTSTRAP, default "127.0.0.1:16020
   * 127.0.0.1:16000") whose table handle allows unindexed writes; its
   * table is made and dropped through the binary/buffered gateway.  A case
   * the native backend cannot do yet is left out, not skipped. */
  const char *const *native_cases;
  /* every case also on the native end but those named in native_except
   * (NULL-terminated, each with a comment saying why), instead of
   * native_cases */
  gboolean native_all;
  const char *const *native_except;
  /* the cases (by name, NULL-terminated) that run on the suite's first
   * gateway only, not on each: what they check happens in the gateway's own
   * HBase client, the same whatever protocol and transport carry it, and
   * takes long (a batch against a missing table sits in that client's
   * retries for about 16 s) */
  const char *const *first_gateway_cases;
} TestTableSuiteOptions;

/* Adds "<path>/<gateway label>/<case name>" for every case and gateway
 * (for every case on one gateway when the suite is spread). */
void test_table_suite_add (const TestTableSuite *suite,
                           const TestTableCase  *cases,
                           guint                 n_cases);
/* The same with @options (NULL: none); @suite, @cases and @options must
 * live until test_table_suite_run() returns. */
void test_table_suite_add_full (const TestTableSuite        *suite,
                                const TestTableSuiteOptions *options,
                                const TestTableCase         *cases,
                                guint                        n_cases);

/* g_test_run(), then drops every table the suites created. */
int  test_table_suite_run (void);

/* Whether the fixture's case runs on the native end (fixture->client is
 * then a client of the native backend). */
gboolean test_table_fixture_is_native (TestTableFixture *fixture);

/* Creates a table on the fixture's gateway (name from @prefix, see
 * test_stack_unique_name()), dropped when the suite ends; returns its name. */
char *test_table_fixture_create_table (TestTableFixture         *fixture,
                                       const char               *prefix,
                                       const HBaseFamilyOptions *families,
                                       guint                     n_families,
                                       GPtrArray                *split_keys);

/* Kept for the cases that name it: a case without a client never runs. */
#define TEST_SKIP_IF_UNREACHABLE(fixture) \
  G_STMT_START { if ((fixture)->client == NULL) return; } G_STMT_END

G_END_DECLS

#endif /* TEST_TABLE_FIXTURE_H */
