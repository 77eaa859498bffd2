/* SPDX-License-Identifier: Apache-2.0 */
/* Integration test of the client's table and namespace calls against the
 * real stack, on every
 * protocol/transport combination it runs (see tests/support/test-stack.h):
 * create with every family option and with split keys (checked through the
 * generated layer), exists/list/enable/disable/truncate/delete, namespaces,
 * input rejected before anything is sent, and the errors HBase reports.
 * The same cases run on a "native" end too: the calls under test go to the
 * master through a client of the native backend, what the cases check
 * (descriptors, regions, rows, the namespaces' list) still through the
 * first gateway. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

#include "../support/test-stack.h"

typedef HbaseThriftTHBaseServiceIf Service;

/* The native end, and the gateway its checks go through. */
static TestGateway native_end = { .host = (char *) "native", .transport = HBASE_TRANSPORT_BUFFERED,
                                  .label = (char *) "native" };
static const TestGateway *checker_gateway;

/* --- helpers ------------------------------------------------------------------------- */

/* A client of @gateway, or NULL when the stack is unreachable (the test is
 * then skipped, or failed when test_stack_required()).  On the native end:
 * a client of the native backend with the stack's bootstrap servers. */
static HBaseClient *
gateway_client (const TestGateway *gateway)
{
  g_autoptr(HBaseConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  HBaseClient *client;

  if (gateway == &native_end)
    {
      const char *list = g_getenv ("HBASE_GLIB_TEST_NATIVE_BOOTSTRAP");

      if (checker_gateway == NULL || !test_stack_check_gateway (checker_gateway))
        return NULL;
      config = hbase_config_new ();
      g_assert_true (hbase_config_set_bootstrap_servers (config, list != NULL && *list != '\0'
                                                                   ? list : "127.0.0.1:16020 127.0.0.1:16000",
                                                         &error));
      g_assert_no_error (error);
      return hbase_client_new (config);
    }
  if (!test_stack_check_gateway (gateway))
    return NULL;
  config = test_stack_config (gateway);
  client = hbase_client_new (config);
  g_assert_no_error (error);
  return client;
}

/* The client the checks go through: @client itself, or on the native end
 * a client of the checker gateway (owned by the caller). */
static HBaseClient *
checker_of (HBaseClient *client)
{
  if (hbase_config_get_backend (hbase_client_get_config (client)) == HBASE_BACKEND_THRIFT2)
    return g_object_ref (client);
  return gateway_client (checker_gateway);
}

/* A table name unique to this run and gateway. */
static char *
unique_table (const TestGateway *gateway, const char *what)
{
  g_autofree char *prefix = g_strdup_printf ("hbase_glib_admin_%s_%s", what, gateway->label);

  return test_stack_unique_name (prefix);
}

/* Fails the test with the message of @error when @ok is FALSE. */
static void
assert_ok (gboolean ok, GError **error)
{
  g_assert_no_error (*error);
  g_assert_true (ok);
}

/* Logs what the gateway answered: the first line of @error (HBase's
 * messages may go on with a Java stack trace). */
static void
note (const char *what, const GError *error)
{
  const char *end = strchr (error->message, '\n');

  g_test_message ("%s: %.*s", what, end != NULL ? (int) (end - error->message) : (int) strlen (error->message),
                  error->message);
}

static GByteArray *
bytes (const char *text)
{
  GByteArray *array = g_byte_array_new ();

  return g_byte_array_append (array, (const guint8 *) text, (guint) strlen (text));
}

static gboolean
bytes_equal (const GByteArray *array, const char *text)
{
  return array != NULL && array->len == strlen (text) && memcmp (array->data, text, array->len) == 0;
}

static GPtrArray *
split_keys (const char *first, ...)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  va_list args;

  va_start (args, first);
  for (const char *key = first; key != NULL; key = va_arg (args, const char *))
    g_ptr_array_add (keys, g_bytes_new (key, strlen (key)));
  va_end (args);
  return keys;
}

static gboolean
exists (HBaseClient *client, const char *table)
{
  g_autoptr(GError) error = NULL;
  gboolean answer = FALSE;

  assert_ok (hbase_client_table_exists (client, table, &answer, NULL, &error), &error);
  return answer;
}

static gboolean
enabled (HBaseClient *client, const char *table)
{
  g_autoptr(GError) error = NULL;
  gboolean answer = FALSE;

  assert_ok (hbase_client_is_table_enabled (client, table, &answer, NULL, &error), &error);
  return answer;
}

static void
create_simple (HBaseClient *client, const char *table, GPtrArray *keys)
{
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;

  family.name = "f";
  assert_ok (hbase_client_create_table (client, table, &family, 1, keys, NULL, &error), &error);
}

static void
delete_table (HBaseClient *client, const char *table)
{
  g_autoptr(GError) error = NULL;

  assert_ok (hbase_client_delete_table (client, table, NULL, &error), &error);
}

static gboolean
list_has (HBaseClient *client, const char *namespace_, const char *table)
{
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = hbase_client_list_tables (client, namespace_, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (names);
  for (guint i = 0; names[i] != NULL && names[i + 1] != NULL; i++)
    g_assert_cmpstr (names[i], <, names[i + 1]);
  return g_strv_contains ((const char *const *) names, table);
}

/* --- the generated layer, through hbase_client_call() -------------------------------------- */

typedef struct {
  const char *table;
  HbaseThriftTTableDescriptor *desc;  /* get_descriptor */
  guint n_regions;                    /* count_regions */
  char **region_starts;               /* count_regions */
  const char *row;                    /* put_row, row_exists */
  gboolean found;                     /* row_exists */
} Probe;

static HbaseThriftTTableName *
thrift_table_name (const char *table)
{
  const char *colon = strchr (table, ':');
  g_autoptr(GByteArray) qualifier = bytes (colon != NULL ? colon + 1 : table);
  g_autofree char *ns = colon != NULL ? g_strndup (table, (gsize) (colon - table)) : NULL;
  g_autoptr(GByteArray) ns_bytes = ns != NULL ? bytes (ns) : NULL;

  if (ns_bytes != NULL)
    return g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "ns", ns_bytes, "qualifier", qualifier, NULL);
  return g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "qualifier", qualifier, NULL);
}

static gboolean
get_descriptor (Service *service, gpointer user_data, GError **error)
{
  Probe *probe = user_data;
  g_autoptr(HbaseThriftTTableName) name = thrift_table_name (probe->table);
  g_autoptr(HbaseThriftTTableDescriptor) desc = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_get_table_descriptor (service, &desc, name, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  g_clear_object (&probe->desc);
  probe->desc = g_steal_pointer (&desc);
  return TRUE;
}

static gboolean
count_regions (Service *service, gpointer user_data, GError **error)
{
  Probe *probe = user_data;
  g_autoptr(GByteArray) table = bytes (probe->table);
  g_autoptr(GPtrArray) locations = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) starts = g_ptr_array_new ();
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_get_all_region_locations (service, &locations, table, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  for (guint i = 0; i < locations->len; i++)
    {
      HbaseThriftTHRegionLocation *location = g_ptr_array_index (locations, i);
      GByteArray *start = location->regionInfo->startKey;

      g_ptr_array_add (starts, start != NULL && start->len > 0 ? g_strndup ((const char *) start->data, start->len)
                                                               : g_strdup (""));
    }
  g_ptr_array_add (starts, NULL);
  g_strfreev (probe->region_starts);
  probe->region_starts = (char **) g_ptr_array_steal (starts, NULL);
  probe->n_regions = locations->len;
  return TRUE;
}

static gboolean
put_row (Service *service, gpointer user_data, GError **error)
{
  Probe *probe = user_data;
  g_autoptr(GByteArray) table = bytes (probe->table);
  g_autoptr(GByteArray) row = bytes (probe->row);
  g_autoptr(GByteArray) family = bytes ("f");
  g_autoptr(GByteArray) qualifier = bytes ("q");
  g_autoptr(GByteArray) value = bytes ("v");
  g_autoptr(HbaseThriftTPut) put = g_object_new (HBASE_THRIFT_TYPE_T_PUT, "row", row, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  g_ptr_array_add (put->columnValues,
                   g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", family,
                                 "qualifier", qualifier, "value", value, NULL));
  if (hbase_thrift_t_h_base_service_if_put (service, table, put, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

static gboolean
row_exists (Service *service, gpointer user_data, GError **error)
{
  Probe *probe = user_data;
  g_autoptr(GByteArray) table = bytes (probe->table);
  g_autoptr(GByteArray) row = bytes (probe->row);
  g_autoptr(HbaseThriftTGet) get = g_object_new (HBASE_THRIFT_TYPE_T_GET, "row", row, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (hbase_thrift_t_h_base_service_if_exists (service, &probe->found, table, get, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

static void
probe_run (HBaseClient *client, HBaseCallFunc func, Probe *probe)
{
  g_autoptr(HBaseClient) checker = checker_of (client);
  g_autoptr(GError) error = NULL;

  assert_ok (hbase_client_call (checker, HBASE_CALL_IDEMPOTENT, func, probe, NULL, &error), &error);
}

static void
probe_clear (Probe *probe)
{
  g_clear_object (&probe->desc);
  g_clear_pointer (&probe->region_starts, g_strfreev);
}

static HbaseThriftTColumnFamilyDescriptor *
find_family (HbaseThriftTTableDescriptor *desc, const char *name)
{
  for (guint i = 0; i < desc->columns->len; i++)
    {
      HbaseThriftTColumnFamilyDescriptor *family = g_ptr_array_index (desc->columns, i);

      if (bytes_equal (family->name, name))
        return family;
    }
  g_error ("no family %s in the descriptor", name);
  return NULL;
}

/* --- tests --------------------------------------------------------------------------------- */

static void
test_create_options (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data);
  g_autofree char *table = unique_table (data, "options");
  g_autoptr(GError) error = NULL;
  HBaseFamilyOptions families[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  HbaseThriftTColumnFamilyDescriptor *a, *b;
  Probe probe = { .table = table };

  if (client == NULL)
    return;
  families[0].name = "a";
  families[0].max_versions = 5;
  families[0].time_to_live = 86400;
  families[0].compression = HBASE_COMPRESSION_GZ;
  families[0].bloom_filter = HBASE_BLOOM_FILTER_ROWCOL;
  families[0].in_memory = TRUE;
  families[0].block_cache_disabled = TRUE;
  families[1].name = "b";
  families[1].bloom_filter = HBASE_BLOOM_FILTER_NONE;
  assert_ok (hbase_client_create_table (client, table, families, 2, NULL, NULL, &error), &error);

  probe_run (client, get_descriptor, &probe);
  g_assert_cmpuint (probe.desc->columns->len, ==, 2);
  a = find_family (probe.desc, "a");
  g_assert_cmpint (a->maxVersions, ==, 5);
  g_assert_cmpint (a->timeToLive, ==, 86400);
  g_assert_cmpint (a->compressionType, ==, HBASE_THRIFT_T_COMPRESSION_ALGORITHM_GZ);
  g_assert_cmpint (a->bloomnFilterType, ==, HBASE_THRIFT_T_BLOOM_FILTER_TYPE_ROWCOL);
  g_assert_true (a->inMemory);
  g_assert_false (a->blockCacheEnabled);
  /* HBase's defaults where nothing was asked */
  b = find_family (probe.desc, "b");
  g_assert_cmpint (b->maxVersions, ==, 1);
  g_assert_cmpint (b->timeToLive, ==, G_MAXINT32);
  g_assert_cmpint (b->compressionType, ==, HBASE_THRIFT_T_COMPRESSION_ALGORITHM_NONE);
  g_assert_cmpint (b->bloomnFilterType, ==, HBASE_THRIFT_T_BLOOM_FILTER_TYPE_NONE);
  g_assert_false (b->inMemory);
  g_assert_true (b->blockCacheEnabled);
  probe_clear (&probe);
  delete_table (client, table);
  g_assert_false (exists (client, table));
}

/* The bloom filter left at DEFAULT is HBase's (ROW); ZSTD needs a codec
 * the gateway may lack: either it works or HBase says why, and nothing is
 * left behind. */
static void
test_create_default_bloom_zstd (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data);
  g_autofree char *table = unique_table (data, "zstd");
  g_autoptr(GError) error = NULL;
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  Probe probe = { .table = table };

  if (client == NULL)
    return;
  family.name = "z";
  family.compression = HBASE_COMPRESSION_ZSTD;
  if (hbase_client_create_table (client, table, &family, 1, NULL, NULL, &error))
    {
      g_test_message ("ZSTD: the gateway created the table");
      probe_run (client, get_descriptor, &probe);
      g_assert_cmpint (find_family (probe.desc, "z")->compressionType, ==,
                       HBASE_THRIFT_T_COMPRESSION_ALGORITHM_ZSTD);
      g_assert_cmpint (find_family (probe.desc, "z")->bloomnFilterType, ==,
                       HBASE_THRIFT_T_BLOOM_FILTER_TYPE_ROW);
      probe_clear (&probe);
      delete_table (client, table);
    }
  else
    {
      g_autofree char *message = g_ascii_strdown (error->message, -1);

      note ("ZSTD", error);
      /* HBase's sanity check tries the codec: "native zStandard library
       * not available: this version of libhadoop was built without zstd
       * support" on the local stack */
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
      g_assert_nonnull (strstr (error->message, table));
      g_assert_nonnull (strstr (message, "zstd"));
      g_assert_false (exists (client, table));
    }
}

static void
test_create_split_keys (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data);
  g_autofree char *table = unique_table (data, "splits");
  g_autoptr(GPtrArray) keys = split_keys ("g", "n", "t", NULL);
  Probe probe = { .table = table };

  if (client == NULL)
    return;
  if (((const TestGateway *) data)->transport == HBASE_TRANSPORT_FRAMED)
    {
      g_autoptr(GError) error = NULL;
      HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;

      /* the 2.6 gateway takes each key for the whole request frame: the
       * library refuses rather than let HBase fail or split wrongly */
      family.name = "f";
      g_assert_false (hbase_client_create_table (client, table, &family, 1, keys, NULL, &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "framed"));
      g_assert_false (exists (client, table));
      return;
    }
  create_simple (client, table, keys);
  probe_run (client, count_regions, &probe);
  g_assert_cmpuint (probe.n_regions, ==, 4);
  for (const char *const *start = (const char *const[]) { "", "g", "n", "t", NULL }; *start; start++)
    g_assert_true (g_strv_contains ((const char *const *) probe.region_starts, *start));
  probe_clear (&probe);
  delete_table (client, table);
}

static void
test_lifecycle (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data);
  g_autofree char *table = unique_table (data, "life");
  g_autoptr(GError) error = NULL;
  Probe probe = { .table = table, .row = "r1" };

  if (client == NULL)
    return;
  g_assert_false (exists (client, table));
  g_assert_false (list_has (client, NULL, table));
  create_simple (client, table, NULL);
  g_assert_true (exists (client, table));
  g_assert_true (list_has (client, NULL, table));
  g_assert_true (list_has (client, "default", table));
  g_assert_true (enabled (client, table));

  assert_ok (hbase_client_disable_table (client, table, NULL, &error), &error);
  g_assert_false (enabled (client, table));
  g_assert_true (exists (client, table));
  /* disabling twice is HBase's error, not "not found" */
  g_assert_false (hbase_client_disable_table (client, table, NULL, &error));
  note ("disable of a disabled table", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_clear_error (&error);
  assert_ok (hbase_client_enable_table (client, table, NULL, &error), &error);
  g_assert_true (enabled (client, table));

  /* truncate an enabled table: it is disabled first, HBase re-enables it */
  probe_run (client, put_row, &probe);
  probe_run (client, row_exists, &probe);
  g_assert_true (probe.found);
  assert_ok (hbase_client_truncate_table (client, table, TRUE, NULL, &error), &error);
  probe_run (client, row_exists, &probe);
  g_assert_false (probe.found);
  g_assert_true (exists (client, table));
  g_assert_true (enabled (client, table));

  /* delete of an enabled table disables it first */
  delete_table (client, table);
  g_assert_false (exists (client, table));
  g_assert_false (list_has (client, NULL, table));
}

static void
test_namespace (gconstpointer data)
{
  const TestGateway *gateway = data;
  g_autoptr(HBaseClient) client = gateway_client (gateway);
  g_autofree char *ns = unique_table (gateway, "ns");
  g_autofree char *table = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  g_auto(GStrv) namespaces = NULL;

  if (client == NULL)
    return;
  g_strdelimit (ns, "-", '_');  /* namespaces take letters, digits and '_' */
  table = g_strdup_printf ("%s:t", ns);
  assert_ok (hbase_client_create_namespace (client, ns, NULL, &error), &error);
  g_assert_false (hbase_client_create_namespace (client, ns, NULL, &error));
  note ("create of an existing namespace", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_assert_nonnull (strstr (error->message, ns));
  g_clear_error (&error);

  create_simple (client, table, NULL);
  g_assert_true (exists (client, table));
  names = hbase_client_list_tables (client, ns, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (names), ==, 1);
  g_assert_cmpstr (names[0], ==, table);
  g_assert_true (list_has (client, NULL, table));
  g_assert_false (list_has (client, "default", table));

  /* a namespace with a table cannot go */
  g_assert_false (hbase_client_delete_namespace (client, ns, NULL, &error));
  note ("delete of a non-empty namespace", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_clear_error (&error);

  delete_table (client, table);
  g_assert_false (list_has (client, ns, table));
  assert_ok (hbase_client_delete_namespace (client, ns, NULL, &error), &error);
  {
    g_autoptr(HBaseClient) checker = checker_of (client);

    namespaces = hbase_client_list_namespaces (checker, NULL, &error);
  }
  g_assert_no_error (error);
  g_assert_false (g_strv_contains ((const char *const *) namespaces, ns));

  /* now it is missing */
  g_assert_false (hbase_client_delete_namespace (client, ns, NULL, &error));
  note ("delete of a missing namespace", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_null (hbase_client_list_tables (client, ns, NULL, &error));
  note ("list of a missing namespace", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
}

static void
expect_illegal (gboolean ok, GError **error)
{
  g_assert_false (ok);
  g_assert_error (*error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
  g_clear_error (error);
}

static void
test_bad_input (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data);
  g_autofree char *table = unique_table (data, "bad");
  const char *const bad_names[] = { NULL, "", "bad name", "a:b:c", ".x", ":x", "x:" };
  HBaseFamilyOptions good = HBASE_FAMILY_OPTIONS_INIT;
  HBaseFamilyOptions twice[2] = { HBASE_FAMILY_OPTIONS_INIT, HBASE_FAMILY_OPTIONS_INIT };
  HBaseFamilyOptions unnamed = HBASE_FAMILY_OPTIONS_INIT;
  HBaseFamilyOptions bad_family = HBASE_FAMILY_OPTIONS_INIT;
  g_autoptr(GPtrArray) unsorted = split_keys ("b", "a", NULL);
  g_autoptr(GPtrArray) repeated = split_keys ("a", "b", "b", NULL);
  g_autoptr(GPtrArray) empty_key = split_keys ("", "a", NULL);
  g_autoptr(GError) error = NULL;
  gboolean answer;

  if (client == NULL)
    return;
  good.name = "f";
  for (guint i = 0; i < G_N_ELEMENTS (bad_names); i++)
    {
      expect_illegal (hbase_client_create_table (client, bad_names[i], &good, 1, NULL, NULL, &error), &error);
      expect_illegal (hbase_client_delete_table (client, bad_names[i], NULL, &error), &error);
      expect_illegal (hbase_client_truncate_table (client, bad_names[i], TRUE, NULL, &error), &error);
      expect_illegal (hbase_client_enable_table (client, bad_names[i], NULL, &error), &error);
      expect_illegal (hbase_client_disable_table (client, bad_names[i], NULL, &error), &error);
      expect_illegal (hbase_client_table_exists (client, bad_names[i], &answer, NULL, &error), &error);
      expect_illegal (hbase_client_is_table_enabled (client, bad_names[i], &answer, NULL, &error), &error);
    }
  for (const char *const *ns = (const char *const[]) { "", "a-b", "a:b", "a b", NULL }; *ns; ns++)
    {
      expect_illegal (hbase_client_create_namespace (client, *ns, NULL, &error), &error);
      expect_illegal (hbase_client_delete_namespace (client, *ns, NULL, &error), &error);
      g_assert_null (hbase_client_list_tables (client, *ns, NULL, &error));
      g_assert_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT);
      g_clear_error (&error);
    }
  expect_illegal (hbase_client_create_namespace (client, NULL, NULL, &error), &error);

  expect_illegal (hbase_client_create_table (client, table, NULL, 0, NULL, NULL, &error), &error);
  expect_illegal (hbase_client_create_table (client, table, &good, 0, NULL, NULL, &error), &error);
  twice[0].name = "f";
  twice[1].name = "f";
  expect_illegal (hbase_client_create_table (client, table, twice, 2, NULL, NULL, &error), &error);
  expect_illegal (hbase_client_create_table (client, table, &unnamed, 1, NULL, NULL, &error), &error);
  unnamed.name = "";
  expect_illegal (hbase_client_create_table (client, table, &unnamed, 1, NULL, NULL, &error), &error);
  for (const char *const *name = (const char *const[]) { "a:b", ".f", "tab\there", NULL }; *name; name++)
    {
      bad_family.name = *name;
      expect_illegal (hbase_client_create_table (client, table, &bad_family, 1, NULL, NULL, &error), &error);
    }
  expect_illegal (hbase_client_create_table (client, table, &good, 1, unsorted, NULL, &error), &error);
  expect_illegal (hbase_client_create_table (client, table, &good, 1, repeated, NULL, &error), &error);
  expect_illegal (hbase_client_create_table (client, table, &good, 1, empty_key, NULL, &error), &error);

  /* nothing reached HBase */
  g_assert_false (exists (client, table));
}

static void
test_errors (gconstpointer data)
{
  g_autoptr(HBaseClient) client = gateway_client (data);
  g_autofree char *table = unique_table (data, "errors");
  g_autofree char *missing = unique_table (data, "missing");
  g_autoptr(GError) error = NULL;
  gboolean answer;

  if (client == NULL)
    return;
  create_simple (client, table, NULL);
  {
    HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;

    family.name = "f";
    g_assert_false (hbase_client_create_table (client, table, &family, 1, NULL, NULL, &error));
    note ("create of an existing table", error);
    g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
    g_assert_nonnull (strstr (error->message, table));
    g_assert_nonnull (strstr (error->message, "create table"));
    g_clear_error (&error);
  }
  /* enabling an enabled table is HBase's error, not "not found" */
  g_assert_false (hbase_client_enable_table (client, table, NULL, &error));
  note ("enable of an enabled table", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_IO);
  g_clear_error (&error);
  delete_table (client, table);

  g_assert_false (hbase_client_delete_table (client, missing, NULL, &error));
  note ("delete of a missing table", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, missing));
  g_clear_error (&error);
  g_assert_false (hbase_client_enable_table (client, missing, NULL, &error));
  note ("enable of a missing table", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (hbase_client_disable_table (client, missing, NULL, &error));
  note ("disable of a missing table", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (hbase_client_truncate_table (client, missing, FALSE, NULL, &error));
  note ("truncate of a missing table", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (hbase_client_is_table_enabled (client, missing, &answer, NULL, &error));
  note ("is_enabled of a missing table", error);
  g_assert_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  g_assert_false (exists (client, missing));
}

/* The 0.1 names kept for one release (src/core/hbase-deprecated.c): each
 * does what its replacement does, against the stack. */
static void
test_deprecated_calls (gconstpointer data)
{
  const TestGateway *gateway = data;
  g_autoptr(HBaseClient) client = gateway_client (gateway);
  g_autofree char *ns = unique_table (gateway, "old_ns");
  g_autofree char *table = unique_table (gateway, "old");
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;
  gboolean answer = FALSE;
  HBaseClient *extra;

  if (client == NULL)
    return;
  g_strdelimit (ns, "-", '_');
  family.name = "f";
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  assert_ok (hbase_admin_create_namespace (client, ns, NULL, &error), &error);
  assert_ok (hbase_admin_create_table (client, table, &family, 1, NULL, NULL, &error), &error);
  assert_ok (hbase_admin_table_exists (client, table, &answer, NULL, &error), &error);
  g_assert_true (answer);
  names = hbase_admin_list_tables (client, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_strv_contains ((const char *const *) names, table));
  assert_ok (hbase_admin_disable_table (client, table, NULL, &error), &error);
  assert_ok (hbase_admin_is_table_enabled (client, table, &answer, NULL, &error), &error);
  g_assert_false (answer);
  assert_ok (hbase_admin_enable_table (client, table, NULL, &error), &error);
  g_assert_true (enabled (client, table));
  assert_ok (hbase_admin_truncate_table (client, table, FALSE, NULL, &error), &error);
  g_assert_true (exists (client, table));
  assert_ok (hbase_admin_delete_table (client, table, NULL, &error), &error);
  g_assert_false (exists (client, table));
  assert_ok (hbase_admin_delete_namespace (client, ns, NULL, &error), &error);
  /* refused as the replacement refuses it: the namespace is gone */
  g_assert_false (hbase_admin_delete_namespace (client, ns, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  extra = hbase_client_ref (client);
  g_assert_true (extra == client);
  hbase_client_unref (extra);
  hbase_client_unref (NULL);
  /* the frees drop the one reference (valgrind sees a leak otherwise) */
  hbase_connection_free (g_object_new (HBASE_TYPE_CONNECTION, NULL));
  hbase_scanner_free (g_object_new (HBASE_TYPE_SCANNER, NULL));
  hbase_key_scanner_free (g_object_new (HBASE_TYPE_KEY_SCANNER, NULL));
  hbase_set_free (g_object_new (HBASE_TYPE_SET, NULL));
  hbase_zset_free (g_object_new (HBASE_TYPE_ZSET, NULL));
  hbase_write_buffer_free (g_object_new (HBASE_TYPE_WRITE_BUFFER, NULL));
  hbase_scanner_free (NULL);
  hbase_set_iter_free (NULL);
  hbase_zset_iter_free (NULL);
  G_GNUC_END_IGNORE_DEPRECATIONS
}

int
main (int argc, char **argv)
{
  g_autoptr(GPtrArray) gateways = NULL;

  g_test_init (&argc, &argv, NULL);
  gateways = test_stack_gateways ();
  /* the native end's checks go through the first gateway */
  if (gateways->len > 0)
    checker_gateway = gateways->pdata[0];
  for (guint i = 0; i <= gateways->len; i++)
    {
      const TestGateway *gateway = i < gateways->len ? gateways->pdata[i] : &native_end;
      const struct {
        const char *name;
        GTestDataFunc func;
      } tests[] = {
        { "create-options", test_create_options },
        { "create-zstd", test_create_default_bloom_zstd },
        { "create-split-keys", test_create_split_keys },
        { "lifecycle", test_lifecycle },
        { "namespace", test_namespace },
        { "bad-input", test_bad_input },
        { "errors", test_errors },
      };

      for (guint j = 0; j < G_N_ELEMENTS (tests); j++)
        {
          g_autofree char *path = g_strdup_printf ("/integration/admin/%s/%s", gateway->label, tests[j].name);

          g_test_add_data_func (path, gateway, tests[j].func);
        }
      /* the 0.1 names are thin wrappers: one gateway is enough */
      if (i == 0 && gateways->len > 0)
        {
          g_autofree char *path = g_strdup_printf ("/integration/admin/%s/deprecated-calls",
                                                   gateway->label);

          g_test_add_data_func (path, gateway, test_deprecated_calls);
        }
    }
  return g_test_run ();
}
