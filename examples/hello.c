/* hello: write one row through hbase-glib and read it back.
 *
 *   examples/hello [HOST:PORT] [binary|compact] [buffered|framed]
 *
 * Defaults come from HBASE_GLIB_GATEWAY, HBASE_GLIB_PROTOCOL and
 * HBASE_GLIB_TRANSPORT, then 127.0.0.1:9090 binary buffered (the local
 * stack's first gateway).  Creates the table "hbase_glib_hello" (family
 * "info") when it is missing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>

#define TABLE "hbase_glib_hello"
#define FAMILY "info"

static GByteArray *
bytes (const char *text)
{
  GByteArray *array = g_byte_array_new ();

  return g_byte_array_append (array, (const guint8 *) text, strlen (text));
}

static gboolean
ensure_table (HbaseThriftTHBaseServiceIf *service, GError **error)
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
write_row (HbaseThriftTHBaseServiceIf *service, GByteArray *table, const char *row, GError **error)
{
  const char *cells[][2] = { { "greeting", "hello from hbase-glib" },
                             { "library", hbase_version_string () } };
  g_autoptr(GByteArray) row_bytes = bytes (row);
  g_autoptr(GByteArray) family = bytes (FAMILY);
  g_autoptr(HbaseThriftTPut) put = g_object_new (HBASE_THRIFT_TYPE_T_PUT, "row", row_bytes, NULL);
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
read_row (HbaseThriftTHBaseServiceIf *service, GByteArray *table, const char *row, GError **error)
{
  g_autoptr(GByteArray) row_bytes = bytes (row);
  g_autoptr(HbaseThriftTGet) get = g_object_new (HBASE_THRIFT_TYPE_T_GET, "row", row_bytes, NULL);
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_get (service, &result, table, get, &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  printf ("row %s of %s: %u cells\n", row, TABLE, result->columnValues->len);
  for (guint i = 0; i < result->columnValues->len; i++)
    {
      HbaseThriftTColumnValue *cell = g_ptr_array_index (result->columnValues, i);

      printf ("  %.*s:%.*s = %.*s  (timestamp %" G_GINT64_FORMAT ")\n",
              (int) cell->family->len, (const char *) cell->family->data,
              (int) cell->qualifier->len, (const char *) cell->qualifier->data,
              (int) cell->value->len, (const char *) cell->value->data, cell->timestamp);
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  const char *address = argc > 1 ? argv[1] : g_getenv ("HBASE_GLIB_GATEWAY");
  const char *protocol_name = argc > 2 ? argv[2] : g_getenv ("HBASE_GLIB_PROTOCOL");
  const char *transport_name = argc > 3 ? argv[3] : g_getenv ("HBASE_GLIB_TRANSPORT");
  HBaseProtocol protocol = HBASE_PROTOCOL_BINARY;
  HBaseTransport transport = HBASE_TRANSPORT_BUFFERED;
  g_autoptr(HBaseConnection) connection = NULL;
  g_autoptr(GByteArray) table = bytes (TABLE);
  g_autoptr(GError) error = NULL;
  g_autofree char *host = NULL;
  const char *colon;
  guint64 port = 9090;

  if (address == NULL)
    address = "127.0.0.1:9090";
  colon = strrchr (address, ':');
  host = colon != NULL ? g_strndup (address, colon - address) : g_strdup (address);
  if ((colon != NULL && !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, &error)) ||
      (protocol_name != NULL && !hbase_protocol_from_string (protocol_name, &protocol, &error)) ||
      (transport_name != NULL && !hbase_transport_from_string (transport_name, &transport, &error)))
    {
      fprintf (stderr, "hello: %s\nusage: hello [HOST:PORT] [binary|compact] [buffered|framed]\n",
               error->message);
      return 2;
    }

  connection = hbase_connection_open (host, (guint) port, protocol, transport, &error);
  if (connection == NULL ||
      !ensure_table (hbase_connection_get_service (connection), &error) ||
      !write_row (hbase_connection_get_service (connection), table, "hello-row", &error) ||
      !read_row (hbase_connection_get_service (connection), table, "hello-row", &error))
    {
      fprintf (stderr, "hello: %s\n", error->message);
      return 1;
    }
  printf ("hbase-glib %s talked to %s:%u (%s/%s)\n", hbase_version_string (), host, (guint) port,
          hbase_protocol_to_string (protocol), hbase_transport_to_string (transport));
  return 0;
}
