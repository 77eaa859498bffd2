/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the _async table and namespace calls against the
 * real stack: a namespace and a table in it go through their whole life
 * (create, exists, list, disable, enable, truncate, delete) on a GMainLoop,
 * each step's result checked, plus a failure reported through _finish;
 * on every gateway and on a "native" end (a client of the native backend,
 * the calls going to the master). */
#include "config.h"

#include <hbase-glib/hbase-glib.h>

#include "../support/test-stack.h"

/* The native end: its label only; the client has bootstrap servers. */
static TestGateway native_end = { .host = (char *) "native", .label = (char *) "native" };

static HBaseConfig *
native_config_new (void)
{
  const char *list = g_getenv ("HBASE_GLIB_TEST_NATIVE_BOOTSTRAP");
  HBaseConfig *config = hbase_config_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (hbase_config_set_bootstrap_servers (config, list != NULL && *list != '\0'
                                                               ? list : "127.0.0.1:16020 127.0.0.1:16000",
                                                     &error));
  g_assert_no_error (error);
  return config;
}

typedef struct {
  GMainLoop *loop;
  GAsyncResult *result;
} Wait;

static void
on_done (GObject *source, GAsyncResult *result, gpointer data)
{
  Wait *wait = data;

  wait->result = g_object_ref (result);
  g_main_loop_quit (wait->loop);
}

/* Runs the main loop until the call started with @wait completes; returns its result. */
static GAsyncResult *
wait_for (Wait *wait)
{
  g_main_loop_run (wait->loop);
  g_assert_nonnull (wait->result);
  return wait->result;
}

static void
wait_reset (Wait *wait)
{
  g_clear_object (&wait->result);
}

static gboolean
strv_has (char **names, const char *name)
{
  return names != NULL && g_strv_contains ((const char *const *) names, name);
}

static void
test_lifecycle (gconstpointer data)
{
  const TestGateway *gateway = data;
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Wait wait = { .loop = loop };
  g_autofree char *prefix = g_strdup_printf ("hbase_glib_admin_async_%s", gateway->label);
  g_autofree char *ns = test_stack_unique_name (prefix);
  g_autofree char *table = g_strdup_printf ("%s:life", ns);
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  gboolean answer = FALSE, ok;
  char **names;

  /* the native end: the stack is up when its first gateway is (skipped or
   * failed as the gateways' ends are otherwise) */
  if (gateway == &native_end)
    {
      g_autoptr(GPtrArray) gateways = test_stack_gateways ();

      if (gateways->len == 0 || !test_stack_check_gateway (gateways->pdata[0]))
        return;
    }
  else if (!test_stack_check_gateway (gateway))
    return;
  g_strdelimit (ns, "-", '_');   /* namespace names allow letters, digits and '_' */
  g_free (table);
  table = g_strdup_printf ("%s:life", ns);
  config = gateway == &native_end ? native_config_new () : test_stack_config (gateway);
  client = hbase_client_new (config);
  g_assert_no_error (error);

  hbase_client_create_namespace_async (client, ns, NULL, on_done, &wait);
  ok = hbase_client_create_namespace_finish (client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  wait_reset (&wait);

  /* the family name is copied: the caller's may change at once */
  {
    g_autofree char *name = g_strdup ("f");

    family.name = name;
    hbase_client_create_table_async (client, table, &family, 1, NULL, NULL, on_done, &wait);
    name[0] = 'x';
  }
  ok = hbase_client_create_table_finish (client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  wait_reset (&wait);

  hbase_client_table_exists_async (client, table, NULL, on_done, &wait);
  ok = hbase_client_table_exists_finish (client, wait_for (&wait), &answer, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_true (answer);
  wait_reset (&wait);

  hbase_client_list_tables_async (client, ns, NULL, on_done, &wait);
  names = hbase_client_list_tables_finish (client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 1);
  g_assert_true (strv_has (names, table));
  g_strfreev (names);
  wait_reset (&wait);

  hbase_client_disable_table_async (client, table, NULL, on_done, &wait);
  ok = hbase_client_disable_table_finish (client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  wait_reset (&wait);

  answer = TRUE;
  hbase_client_is_table_enabled_async (client, table, NULL, on_done, &wait);
  ok = hbase_client_is_table_enabled_finish (client, wait_for (&wait), &answer, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_false (answer);
  wait_reset (&wait);

  /* disabling twice is HBase's error, reported by _finish */
  hbase_client_disable_table_async (client, table, NULL, on_done, &wait);
  g_assert_false (hbase_client_disable_table_finish (client, wait_for (&wait), &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_clear_error (&error);
  wait_reset (&wait);

  hbase_client_enable_table_async (client, table, NULL, on_done, &wait);
  ok = hbase_client_enable_table_finish (client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  wait_reset (&wait);

  hbase_client_is_table_enabled_async (client, table, NULL, on_done, &wait);
  g_assert_true (hbase_client_is_table_enabled_finish (client, wait_for (&wait), &answer, &error));
  g_assert_true (answer);
  wait_reset (&wait);

  hbase_client_truncate_table_async (client, table, TRUE, NULL, on_done, &wait);
  ok = hbase_client_truncate_table_finish (client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  wait_reset (&wait);

  hbase_client_delete_table_async (client, table, NULL, on_done, &wait);
  ok = hbase_client_delete_table_finish (client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  wait_reset (&wait);

  answer = TRUE;
  hbase_client_table_exists_async (client, table, NULL, on_done, &wait);
  g_assert_true (hbase_client_table_exists_finish (client, wait_for (&wait), &answer, &error));
  g_assert_false (answer);
  wait_reset (&wait);

  hbase_client_delete_namespace_async (client, ns, NULL, on_done, &wait);
  ok = hbase_client_delete_namespace_finish (client, wait_for (&wait), &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  wait_reset (&wait);

  /* gone: listing it is "not found" */
  hbase_client_list_tables_async (client, ns, NULL, on_done, &wait);
  g_assert_null (hbase_client_list_tables_finish (client, wait_for (&wait), &error));
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  wait_reset (&wait);
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) gateways = NULL;

  g_test_init (&argc, &argv, NULL);
  gateways = test_stack_gateways ();
  for (guint i = 0; i < gateways->len; i++)
    {
      const TestGateway *gateway = gateways->pdata[i];
      g_autofree char *path = g_strdup_printf ("/integration/admin-async/%s/lifecycle",
                                               gateway->label);

      g_test_add_data_func (path, gateway, test_lifecycle);
    }
  g_test_add_data_func ("/integration/admin-async/native/lifecycle", &native_end, test_lifecycle);
  return g_test_run ();
}
