/* test-table-fixture.c: see test-table-fixture.h. */
#include "config.h"

#include "test-table-fixture.h"

typedef struct {
  const TestTableSuite *suite;
  const TestGateway *gateway;
  char *name;               /* set once created */
} GatewayTable;

static GPtrArray *gateway_tables;   /* GatewayTable, of every suite added */
static GPtrArray *gateways;         /* TestGateway, owned here */

static void
gateway_table_free (gpointer data)
{
  GatewayTable *entry = data;

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

static void
set_up (TestTableFixture *fixture, gconstpointer data)
{
  GatewayTable *entry = (GatewayTable *) data;
  g_autoptr(GError) error = NULL;

  fixture->gateway = entry->gateway;
  if (!test_stack_check_gateway (entry->gateway))
    return;
  fixture->client = client_new (entry->gateway);
  if (entry->name == NULL)
    {
      g_autofree char *name = test_stack_unique_name (entry->suite->table_prefix);

      g_assert_true (hbase_admin_create_table (fixture->client, name, entry->suite->families,
                                               entry->suite->n_families, NULL, NULL, &error));
      g_assert_no_error (error);
      entry->name = g_steal_pointer (&name);
    }
  fixture->table = hbase_table_new (fixture->client, entry->name, &error);
  g_assert_no_error (error);
}

static void
tear_down (TestTableFixture *fixture, gconstpointer data)
{
  g_clear_object (&fixture->table);
  g_clear_object (&fixture->client);
}

void
test_table_suite_add (const TestTableSuite *suite, const TestTableCase *cases, guint n_cases)
{
  static const struct {
    HBaseProtocol protocol;
    HBaseTransport transport;
  } ends[] = {
    { HBASE_PROTOCOL_BINARY, HBASE_TRANSPORT_BUFFERED },
    { HBASE_PROTOCOL_COMPACT, HBASE_TRANSPORT_FRAMED },
  };
  g_autoptr(GPtrArray) chosen = g_ptr_array_new ();

  if (gateway_tables == NULL)
    {
      gateway_tables = g_ptr_array_new_with_free_func (gateway_table_free);
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
      entry->gateway = g_ptr_array_index (chosen, i);
      g_ptr_array_add (gateway_tables, entry);
      for (guint j = 0; j < n_cases; j++)
        {
          g_autofree char *path = g_strdup_printf ("%s/%s/%s", suite->path,
                                                   entry->gateway->label, cases[j].name);

          g_test_add_vtable (path, sizeof (TestTableFixture), entry,
                             (GTestFixtureFunc) set_up, (GTestFixtureFunc) cases[j].func,
                             (GTestFixtureFunc) tear_down);
        }
    }
}

int
test_table_suite_run (void)
{
  int status = g_test_run ();

  for (guint i = 0; gateway_tables != NULL && i < gateway_tables->len; i++)
    {
      GatewayTable *entry = g_ptr_array_index (gateway_tables, i);
      g_autoptr(HBaseClient) client = NULL;
      g_autoptr(GError) error = NULL;

      if (entry->name == NULL)
        continue;
      client = client_new (entry->gateway);
      if (!hbase_admin_delete_table (client, entry->name, NULL, &error))
        g_printerr ("# could not drop %s: %s\n", entry->name, error->message);
    }
  g_clear_pointer (&gateway_tables, g_ptr_array_unref);
  g_clear_pointer (&gateways, g_ptr_array_unref);
  return status;
}
