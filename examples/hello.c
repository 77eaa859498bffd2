/* SPDX-License-Identifier: Apache-2.0 */
/* hello: write one row through hbase-glib and read it back.
 *
 *   examples/hello [GATEWAYS [binary|compact [buffered|framed]]]
 *
 * Settings come from the environment (HBASE_GLIB_GATEWAYS, ..._PROTOCOL,
 * ..._TRANSPORT, a key file named by HBASE_GLIB_CONFIG; see README.md),
 * then from the arguments; by default localhost:9090 binary buffered, the
 * local stack's first gateway.  Creates the table "hbase_glib_hello"
 * (family "info") when it is missing.
 */
#include <stdio.h>
#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

#define TABLE "hbase_glib_hello"
#define FAMILY "info"
#define ROW "hello-row"

static GByteArray *
bytes (const char *text)
{
  GByteArray *array = g_byte_array_new ();

  return g_byte_array_append (array, (const guint8 *) text, strlen (text));
}

/* Each function below is one attempt of a call; hbase_client_call() runs
 * it on a pooled connection and retries it when that is safe. */

static gboolean
ensure_table (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  g_autoptr(GByteArray) name = bytes (TABLE);
  g_autoptr(GByteArray) family_name = bytes (FAMILY);
  g_autoptr(HbaseThriftTTableName) table =
    g_object_new (HBASE_THRIFT_TYPE_T_TABLE_NAME, "qualifier", name, NULL);
  g_autoptr(HbaseThriftTColumnFamilyDescriptor) family =
    g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_FAMILY_DESCRIPTOR, "name", family_name, NULL);
  g_autoptr(HbaseThriftTTableDescriptor) desc =
    g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, "tableName", table, NULL);
  g_autoptr(GPtrArray) no_splits = g_ptr_array_new ();
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;
  gboolean exists = FALSE;

  if (!hbase_thrift_t_h_base_service_if_table_exists (service, &exists, table, &io, &call_error))
    goto failed;
  if (exists)
    return TRUE;
  g_ptr_array_add (desc->columns, g_object_ref (family));
  desc->__isset_columns = TRUE;
  if (hbase_thrift_t_h_base_service_if_create_table (service, desc, no_splits, &io, &call_error))
    return TRUE;
failed:
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

static gboolean
write_row (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  const char *cells[][2] = { { "greeting", "hello from hbase-glib" },
                             { "library", hbase_version_string () } };
  g_autoptr(GByteArray) table = bytes (TABLE);
  g_autoptr(GByteArray) row = bytes (ROW);
  g_autoptr(GByteArray) family = bytes (FAMILY);
  g_autoptr(HbaseThriftTPut) put = g_object_new (HBASE_THRIFT_TYPE_T_PUT, "row", row, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (cells); i++)
    {
      g_autoptr(GByteArray) qualifier = bytes (cells[i][0]);
      g_autoptr(GByteArray) value = bytes (cells[i][1]);

      g_ptr_array_add (put->columnValues,
                       g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, "family", family,
                                     "qualifier", qualifier, "value", value, NULL));
    }
  if (hbase_thrift_t_h_base_service_if_put (service, table, put, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

static gboolean
read_row (HbaseThriftTHBaseServiceIf *service, gpointer user_data, GError **error)
{
  HbaseThriftTResult **result = user_data;
  g_autoptr(GByteArray) table = bytes (TABLE);
  g_autoptr(GByteArray) row = bytes (ROW);
  g_autoptr(HbaseThriftTGet) get = g_object_new (HBASE_THRIFT_TYPE_T_GET, "row", row, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  g_clear_object (result);
  *result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  if (hbase_thrift_t_h_base_service_if_get (service, result, table, get, &io, &call_error))
    return TRUE;
  hbase_error_take_call_error (error, call_error, io, NULL);
  return FALSE;
}

static void
print_row (HbaseThriftTResult *result)
{
  printf ("row %s of %s: %u cells\n", ROW, TABLE, result->columnValues->len);
  for (guint i = 0; i < result->columnValues->len; i++)
    {
      HbaseThriftTColumnValue *cell = g_ptr_array_index (result->columnValues, i);

      printf ("  %.*s:%.*s = %.*s  (timestamp %" G_GINT64_FORMAT ")\n",
              (int) cell->family->len, (const char *) cell->family->data,
              (int) cell->qualifier->len, (const char *) cell->qualifier->data,
              (int) cell->value->len, (const char *) cell->value->data, cell->timestamp);
    }
}

/* The environment's settings, overridden by the command line. */
static HBaseConfig *
settings (int argc, char **argv, GError **error)
{
  g_autoptr(HBaseConfig) config = hbase_config_new_from_environment (error);
  HBaseProtocol protocol;
  HBaseTransport transport;

  if (config == NULL)
    return NULL;
  if ((argc > 1 && !hbase_config_set_gateways (config, argv[1], error)) ||
      (argc > 2 && (!hbase_protocol_from_string (argv[2], &protocol, error) ||
                    !hbase_config_set_protocol (config, protocol, error))) ||
      (argc > 3 && (!hbase_transport_from_string (argv[3], &transport, error) ||
                    !hbase_config_set_transport (config, transport, error))))
    return NULL;
  return g_steal_pointer (&config);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(HBaseConfig) config = settings (argc, argv, &error);
  g_autoptr(HBaseClient) client = NULL;
  g_autoptr(HbaseThriftTResult) result = NULL;

  if (config == NULL)
    {
      fprintf (stderr, "hello: %s\nusage: hello [GATEWAYS [binary|compact [buffered|framed]]]\n",
               error->message);
      return 2;
    }
  client = hbase_client_new (config);
  if (!hbase_client_call (client, HBASE_CALL_IDEMPOTENT, ensure_table, NULL, NULL, &error) ||
      !hbase_client_call (client, HBASE_CALL_IDEMPOTENT, write_row, NULL, NULL, &error) ||
      !hbase_client_call (client, HBASE_CALL_IDEMPOTENT, read_row, &result, NULL, &error))
    {
      fprintf (stderr, "hello: %s\n", error->message);
      return 1;
    }
  print_row (result);
  printf ("hbase-glib %s, gateways", hbase_version_string ());
  for (guint i = 0; i < hbase_config_get_n_gateways (config); i++)
    if (hbase_config_get_gateway_url (config, i) != NULL)
      printf (" %s", hbase_config_get_gateway_url (config, i));
    else
      printf (" %s:%u", hbase_config_get_gateway_host (config, i), hbase_config_get_gateway_port (config, i));
  printf (" (%s/%s)\n", hbase_protocol_to_string (hbase_config_get_protocol (config)),
          hbase_transport_to_string (hbase_config_get_transport (config)));
  return 0;
}
