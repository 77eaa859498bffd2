/* SPDX-License-Identifier: Apache-2.0 */
/* test-table-fixture.c: see test-table-fixture.h. */
#include "config.h"

#include "test-table-fixture.h"

typedef struct {
  const TestTableSuite *suite;
  TestTableSuiteOptions options;
  const TestGateway *gateway;
  char *name;               /* set once created */
  gboolean prepared;        /* suite->prepare ran */
  gpointer shared;          /* TestTableFixture.shared */
  GPtrArray *tables;        /* names of test_table_fixture_create_table()'s tables */
} GatewayTable;

/* One case on one gateway: the data of its set-up and tear-down. */
typedef struct {
  GatewayTable *entry;
  gconstpointer data;
} CaseRun;

static GPtrArray *gateway_tables;   /* GatewayTable, of every suite added */
static GPtrArray *case_runs;        /* CaseRun */
static GPtrArray *gateways;         /* TestGateway, owned here */

static void
gateway_table_free (gpointer data)
{
  GatewayTable *entry = data;

  if (entry->shared != NULL && entry->options.free_shared != NULL)
    entry->options.free_shared (entry->shared);
  g_ptr_array_unref (entry->tables);
  g_free (entry->name);
  g_free (entry);
}

static HBaseClient *
client_new (const TestGateway *gateway)
{
  g_autoptr(HBaseConfig) config = test_stack_config (gateway);
  g_autoptr(GError) error = NULL;
  HBaseClient *client = hbase_client_new (config, &error);

  g_assert_no_error (error);
  return client;
}

static char *
create_table (HBaseClient *client, const char *prefix, const HBaseFamilyOptions *families,
              guint n_families, GPtrArray *split_keys)
{
  g_autofree char *name = test_stack_unique_name (prefix);
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_admin_create_table (client, name, families, n_families, split_keys, NULL,
                                           &error));
  g_assert_no_error (error);
  return g_steal_pointer (&name);
}

static void
set_up (TestTableFixture *fixture, gconstpointer data)
{
  const CaseRun *run = data;
  GatewayTable *entry = run->entry;
  g_autoptr(GError) error = NULL;

  fixture->gateway = entry->gateway;
  fixture->data = run->data;
  fixture->priv = entry;
  if (!test_stack_check_gateway (entry->gateway))
    return;
  fixture->client = client_new (entry->gateway);
  if (entry->suite->table_prefix != NULL && entry->name == NULL)
    entry->name = create_table (fixture->client, entry->suite->table_prefix,
                                entry->suite->families, entry->suite->n_families, NULL);
  if (entry->name != NULL)
    {
      fixture->table = hbase_table_new (fixture->client, entry->name, &error);
      g_assert_no_error (error);
    }
  fixture->shared = entry->shared;
  if (!entry->prepared)
    {
      entry->prepared = TRUE;
      if (entry->options.prepare != NULL)
        entry->options.prepare (fixture, NULL);
      entry->shared = fixture->shared;
    }
}

static void
tear_down (TestTableFixture *fixture, gconstpointer data)
{
  const CaseRun *run = data;

  run->entry->shared = fixture->shared;
  g_clear_object (&fixture->table);
  g_clear_object (&fixture->client);
}

char *
test_table_fixture_create_table (TestTableFixture *fixture, const char *prefix,
                                 const HBaseFamilyOptions *families, guint n_families,
                                 GPtrArray *split_keys)
{
  GatewayTable *entry = fixture->priv;
  char *name;

  g_assert_nonnull (fixture->client);
  name = create_table (fixture->client, prefix, families, n_families, split_keys);
  g_ptr_array_add (entry->tables, g_strdup (name));
  return name;
}

static void
add_case (GatewayTable *entry, const TestTableCase *test, gconstpointer data)
{
  g_autofree char *path = g_strdup_printf ("%s/%s/%s", entry->suite->path, entry->gateway->label,
                                           test->name);
  CaseRun *run = g_new0 (CaseRun, 1);

  run->entry = entry;
  run->data = data;
  g_ptr_array_add (case_runs, run);
  g_test_add_vtable (path, sizeof (TestTableFixture), run, (GTestFixtureFunc) set_up,
                     (GTestFixtureFunc) test->func, (GTestFixtureFunc) tear_down);
}

void
test_table_suite_add (const TestTableSuite *suite, const TestTableCase *cases, guint n_cases)
{
  test_table_suite_add_full (suite, NULL, cases, n_cases);
}

void
test_table_suite_add_full (const TestTableSuite *suite, const TestTableSuiteOptions *options,
                           const TestTableCase *cases, guint n_cases)
{
  static const TestTableSuiteOptions no_options = { 0 };
  static const struct {
    HBaseProtocol protocol;
    HBaseTransport transport;
  } ends[] = {
    { HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED },
    { HBASE_PROTOCOL_COMPACT, HBASE_TRANSPORT_FRAMED },
  };
  g_autoptr(GPtrArray) chosen = g_ptr_array_new ();
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();   /* GatewayTable, of this suite */
  gboolean spread = options != NULL && options->spread;
  const gconstpointer *case_data = options != NULL ? options->case_data : NULL;

  if (gateway_tables == NULL)
    {
      gateway_tables = g_ptr_array_new_with_free_func (gateway_table_free);
      case_runs = g_ptr_array_new_with_free_func (g_free);
      gateways = test_stack_gateways ();
    }
  if (suite->gateways == TEST_GATEWAYS_ALL)
    for (guint i = 0; i < gateways->len; i++)
      g_ptr_array_add (chosen, g_ptr_array_index (gateways, i));
  else
    for (guint i = 0; i < G_N_ELEMENTS (ends); i++)
      {
        const TestGateway *gateway = test_stack_find_gateway (gateways, ends[i].protocol,
                                                              ends[i].transport);

        if (gateway != NULL)
          g_ptr_array_add (chosen, (gpointer) gateway);
      }
  for (guint i = 0; i < chosen->len; i++)
    {
      GatewayTable *entry = g_new0 (GatewayTable, 1);

      entry->suite = suite;
      entry->options = options != NULL ? *options : no_options;
      entry->gateway = g_ptr_array_index (chosen, i);
      entry->tables = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (entries, entry);
      g_ptr_array_add (gateway_tables, entry);
      for (guint j = 0; j < n_cases && !spread; j++)
        add_case (entry, &cases[j], case_data != NULL ? case_data[j] : NULL);
    }
  /* spread: case j on gateway j mod n */
  for (guint j = 0; j < n_cases && spread && entries->len > 0; j++)
    add_case (g_ptr_array_index (entries, j % entries->len), &cases[j],
              case_data != NULL ? case_data[j] : NULL);
}

static void
drop_table (HBaseClient *client, const char *name)
{
  g_autoptr(GError) error = NULL;

  if (!hbase_admin_delete_table (client, name, NULL, &error))
    g_printerr ("# could not drop %s: %s\n", name, error->message);
}

int
test_table_suite_run (void)
{
  gboolean lock_scanners = FALSE;
  int status;

  for (guint i = 0; gateway_tables != NULL && i < gateway_tables->len; i++)
    {
      GatewayTable *entry = g_ptr_array_index (gateway_tables, i);

      lock_scanners |= entry->options.scanner_lock;
    }
  if (lock_scanners)
    {
      int lock = test_stack_scanner_lock ();

      status = g_test_run ();
      test_stack_scanner_unlock (lock);
    }
  else
    status = g_test_run ();

  for (guint i = 0; gateway_tables != NULL && i < gateway_tables->len; i++)
    {
      GatewayTable *entry = g_ptr_array_index (gateway_tables, i);
      g_autoptr(HBaseClient) client = NULL;

      if (entry->name == NULL && entry->tables->len == 0)
        continue;
      client = client_new (entry->gateway);
      if (entry->name != NULL)
        drop_table (client, entry->name);
      for (guint t = 0; t < entry->tables->len; t++)
        drop_table (client, g_ptr_array_index (entry->tables, t));
    }
  g_clear_pointer (&case_runs, g_ptr_array_unref);
  g_clear_pointer (&gateway_tables, g_ptr_array_unref);
  g_clear_pointer (&gateways, g_ptr_array_unref);
  return status;
}
