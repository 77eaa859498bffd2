/* SPDX-License-Identifier: Apache-2.0 */
/* test-table-fixture.c: runs integration cases on one or more gateways,
 * and the cases a suite names on the native end too, against a table of
 * their own per gateway (see test-table-fixture.h). */
#include "config.h"

#include "test-table-fixture.h"

typedef struct {
  const TestTableSuite *suite;
  TestTableSuiteOptions options;
  const TestGateway *gateway;   /* NULL: the list has no gateway of this kind */
  HBaseProtocol protocol;       /* the kind of gateway the cases run on */
  HBaseTransport transport;
  char *label;                  /* "binary-buffered", in the test paths */
  char *name;               /* set once created */
  gboolean prepared;        /* suite->prepare ran */
  gpointer shared;          /* TestTableFixture.shared */
  GPtrArray *tables;        /* names of test_table_fixture_create_table()'s tables */
  gboolean native;          /* the native end: gateway is only for tables */
} GatewayTable;

/* One case on one gateway: the data of its set-up, run and tear-down. */
typedef struct {
  GatewayTable *entry;
  TestTableFunc func;
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
  g_free (entry->label);
  g_free (entry->name);
  g_free (entry);
}

static HBaseClient *
client_new (const TestGateway *gateway)
{
  g_autoptr(HBaseConfig) config = test_stack_config (gateway);
  g_autoptr(GError) error = NULL;
  HBaseClient *client = hbase_client_new (config);

  g_assert_no_error (error);
  return client;
}

/* A client of the native backend, with the stack's bootstrap servers. */
static HBaseClient *
native_client_new (void)
{
  g_autoptr(HBaseConfig) config = test_stack_native_config ();

  return hbase_client_new (config);
}

static char *
create_table (HBaseClient *client, const char *prefix, const HBaseFamilyOptions *families,
              guint n_families, GPtrArray *split_keys)
{
  g_autofree char *name = test_stack_unique_name (prefix);
  g_autoptr(GError) error = NULL;

  gboolean created = hbase_client_create_table (client, name, families, n_families, split_keys,
                                                NULL, &error);

  g_assert_no_error (error);   /* first: its message says why */
  g_assert_true (created);
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
  if (entry->gateway == NULL)
    {
      test_stack_missing_gateway (entry->protocol, entry->transport);
      return;
    }
  if (!test_stack_check_gateway (entry->gateway))
    return;
  fixture->client = entry->native ? native_client_new () : client_new (entry->gateway);
  if (entry->suite->table_prefix != NULL && entry->name == NULL)
    {
      g_autoptr(HBaseClient) admin = client_new (entry->gateway);

      entry->name = create_table (admin, entry->suite->table_prefix,
                                  entry->suite->families, entry->suite->n_families, NULL);
    }
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

/* The case itself, unless set_up() found no gateway to run it on (and
 * marked it skipped or failed). */
static void
run_case (TestTableFixture *fixture, gconstpointer data)
{
  const CaseRun *run = data;

  if (fixture->client != NULL)
    run->func (fixture, run);
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
  if (entry->native)
    {
      g_autoptr(HBaseClient) admin = client_new (entry->gateway);

      name = create_table (admin, prefix, families, n_families, split_keys);
    }
  else
    name = create_table (fixture->client, prefix, families, n_families, split_keys);
  g_ptr_array_add (entry->tables, g_strdup (name));
  return name;
}

gboolean
test_table_fixture_is_native (TestTableFixture *fixture)
{
  return ((GatewayTable *) fixture->priv)->native;
}

static void
add_case (GatewayTable *entry, const TestTableCase *test, gconstpointer data)
{
  g_autofree char *path = g_strdup_printf ("%s/%s/%s", entry->suite->path, entry->label,
                                           test->name);
  CaseRun *run = g_new0 (CaseRun, 1);

  run->entry = entry;
  run->func = test->func;
  run->data = data;
  g_ptr_array_add (case_runs, run);
  g_test_add_vtable (path, sizeof (TestTableFixture), run, (GTestFixtureFunc) set_up,
                     (GTestFixtureFunc) run_case, (GTestFixtureFunc) tear_down);
}

static GatewayTable *
gateway_table_new (const TestTableSuite *suite, const TestTableSuiteOptions *options,
                   HBaseProtocol protocol, HBaseTransport transport, const TestGateway *gateway)
{
  static const TestTableSuiteOptions no_options = { 0 };
  GatewayTable *entry = g_new0 (GatewayTable, 1);

  entry->suite = suite;
  entry->options = options != NULL ? *options : no_options;
  entry->gateway = gateway;
  entry->protocol = protocol;
  entry->transport = transport;
  entry->label = gateway != NULL ? g_strdup (gateway->label)
                                 : g_strdup_printf ("%s-%s", hbase_protocol_to_string (protocol),
                                                    hbase_transport_to_string (transport));
  entry->tables = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (gateway_tables, entry);
  return entry;
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
  static const struct {
    HBaseProtocol protocol;
    HBaseTransport transport;
    gboolean end;             /* one of TEST_GATEWAYS_ENDS */
  } kinds[] = {
    { HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED, TRUE },
    { HBASE_PROTOCOL_COMPACT, HBASE_TRANSPORT_BUFFERED, FALSE },
    { HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_FRAMED, FALSE },
    { HBASE_PROTOCOL_COMPACT, HBASE_TRANSPORT_FRAMED, TRUE },
  };
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();   /* GatewayTable, of this suite */
  gboolean spread = options != NULL && options->spread;
  const gconstpointer *case_data = options != NULL ? options->case_data : NULL;
  const char *const *first_gateway_cases = options != NULL ? options->first_gateway_cases : NULL;

  if (gateway_tables == NULL)
    {
      gateway_tables = g_ptr_array_new_with_free_func (gateway_table_free);
      case_runs = g_ptr_array_new_with_free_func (g_free);
      gateways = test_stack_gateways ();
    }
  /* ALL: every gateway of the list; ENDS: the first of each end kind.  A
   * kind the suite needs and the list lacks still gets its cases, which
   * then skip (fail under test_stack_required()), so that a short list
   * cannot make cases vanish from the results. */
  if (suite->gateways == TEST_GATEWAYS_ALL)
    for (guint i = 0; i < gateways->len; i++)
      {
        const TestGateway *gateway = g_ptr_array_index (gateways, i);

        g_ptr_array_add (entries, gateway_table_new (suite, options, gateway->protocol,
                                                     gateway->transport, gateway));
      }
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      const TestGateway *gateway = test_stack_find_gateway (gateways, kinds[i].protocol,
                                                            kinds[i].transport);

      if (suite->gateways == TEST_GATEWAYS_ALL ? gateway == NULL : kinds[i].end)
        g_ptr_array_add (entries, gateway_table_new (suite, options, kinds[i].protocol,
                                                     kinds[i].transport, gateway));
    }
  for (guint i = 0; i < entries->len && !spread; i++)
    for (guint j = 0; j < n_cases; j++)
      if (i == 0 || first_gateway_cases == NULL || !g_strv_contains (first_gateway_cases, cases[j].name))
        add_case (g_ptr_array_index (entries, i), &cases[j], case_data != NULL ? case_data[j] : NULL);
  /* spread: case j on gateway j mod n */
  for (guint j = 0; j < n_cases && spread && entries->len > 0; j++)
    add_case (g_ptr_array_index (entries, j % entries->len), &cases[j],
              case_data != NULL ? case_data[j] : NULL);
  /* the native end: the named cases, on a table of their own made through
   * the binary/buffered gateway */
  if (options != NULL && (options->native_cases != NULL || options->native_all))
    {
      const TestGateway *admin = test_stack_find_gateway (gateways, HBASE_PROTOCOL_BINARY,
                                                          HBASE_TRANSPORT_BUFFERED);
      GatewayTable *entry = gateway_table_new (suite, options, HBASE_PROTOCOL_BINARY,
                                               HBASE_TRANSPORT_BUFFERED, admin);

      entry->native = TRUE;
      g_free (entry->label);
      entry->label = g_strdup ("native");
      for (guint j = 0; j < n_cases; j++)
        if (options->native_all
              ? options->native_except == NULL || !g_strv_contains (options->native_except, cases[j].name)
              : g_strv_contains (options->native_cases, cases[j].name))
          add_case (entry, &cases[j], case_data != NULL ? case_data[j] : NULL);
    }
}

static void
drop_table (HBaseClient *client, const char *name)
{
  g_autoptr(GError) error = NULL;

  if (!hbase_client_delete_table (client, name, NULL, &error))
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
