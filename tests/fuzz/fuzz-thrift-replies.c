/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-thrift-replies.c: the generated reply decoders (the recv_* functions
 * of the service client, and through them every struct they read:
 * TResult, TTableDescriptor, TNamespaceDescriptor, TTableName, TIOError,
 * TIllegalArgument, TApplicationException, TDelete...) on any bytes a
 * gateway may send, read as the library reads them, then turned into an
 * HBASE_ERROR by hbase_error_take_call_error() as the library does.
 *
 * The first byte chooses the protocol (bit 0: compact) and bit 1 the
 * transport (hbase-glib's socket transport, buffered, or a memory buffer);
 * the second byte the call; the rest is the reply message.
 *
 * Checked: a call fails with an error or succeeds without one; no crash,
 * no leak, no unbounded allocation. */
#include "config.h"

#include <hbase-glib/hbase-glib-thrift.h>

#include "../../src/table/hbase-table-private.h"
#include "fuzz-support.h"

typedef HbaseThriftTHBaseServiceIf Service;

/* the out-parameters of every kind of call */
typedef struct {
  HbaseThriftTIOError *io;
  HbaseThriftTIllegalArgument *ia;
  gboolean flag;
  gint32 number;
  HbaseThriftTThriftServerType server_type;
  gchar *text;
  HbaseThriftTResult *result;
  HbaseThriftTTableDescriptor *table;
  HbaseThriftTNamespaceDescriptor *namespace_;
  GPtrArray *objects;     /* list<struct> */
  GPtrArray *strings;     /* list<string> */
  GArray *flags;          /* list<bool> */
} Out;

static gboolean
call (Service *s, guint which, Out *o, GError **e)
{
  switch (which)
    {
    /* rows */
    case 0: return hbase_thrift_t_h_base_service_client_recv_get (s, &o->result, &o->io, e);
    case 1: return hbase_thrift_t_h_base_service_client_recv_get_multiple (s, &o->objects, &o->io, e);
    case 2: return hbase_thrift_t_h_base_service_client_recv_get_scanner_rows (s, &o->objects, &o->io, &o->ia, e);
    case 3: return hbase_thrift_t_h_base_service_client_recv_increment (s, &o->result, &o->io, e);
    case 4: return hbase_thrift_t_h_base_service_client_recv_append (s, &o->result, &o->io, e);
    case 5: return hbase_thrift_t_h_base_service_client_recv_get_scanner_results (s, &o->objects, &o->io, e);
    /* booleans and numbers */
    case 6: return hbase_thrift_t_h_base_service_client_recv_exists (s, &o->flag, &o->io, e);
    case 7: return hbase_thrift_t_h_base_service_client_recv_check_and_mutate (s, &o->flag, &o->io, e);
    case 8: return hbase_thrift_t_h_base_service_client_recv_check_and_put (s, &o->flag, &o->io, e);
    case 9: return hbase_thrift_t_h_base_service_client_recv_check_and_delete (s, &o->flag, &o->io, e);
    case 10: return hbase_thrift_t_h_base_service_client_recv_table_exists (s, &o->flag, &o->io, e);
    case 11: return hbase_thrift_t_h_base_service_client_recv_is_table_enabled (s, &o->flag, &o->io, e);
    case 12: return hbase_thrift_t_h_base_service_client_recv_open_scanner (s, &o->number, &o->io, e);
    case 13: return hbase_thrift_t_h_base_service_client_recv_exists_all (s, &o->flags, &o->io, e);
    case 14: return hbase_thrift_t_h_base_service_client_recv_get_thrift_server_type (s, &o->server_type, e);
    case 15: return hbase_thrift_t_h_base_service_client_recv_get_cluster_id (s, &o->text, e);
    /* void replies: only exceptions */
    case 16: return hbase_thrift_t_h_base_service_client_recv_put (s, &o->io, e);
    case 17: return hbase_thrift_t_h_base_service_client_recv_put_multiple (s, &o->io, e);
    case 18: return hbase_thrift_t_h_base_service_client_recv_delete_single (s, &o->io, e);
    case 19: return hbase_thrift_t_h_base_service_client_recv_mutate_row (s, &o->io, e);
    case 20: return hbase_thrift_t_h_base_service_client_recv_close_scanner (s, &o->io, &o->ia, e);
    case 21: return hbase_thrift_t_h_base_service_client_recv_create_table (s, &o->io, e);
    case 22: return hbase_thrift_t_h_base_service_client_recv_delete_table (s, &o->io, e);
    case 23: return hbase_thrift_t_h_base_service_client_recv_truncate_table (s, &o->io, e);
    case 24: return hbase_thrift_t_h_base_service_client_recv_enable_table (s, &o->io, e);
    case 25: return hbase_thrift_t_h_base_service_client_recv_disable_table (s, &o->io, e);
    case 26: return hbase_thrift_t_h_base_service_client_recv_create_namespace (s, &o->io, e);
    case 27: return hbase_thrift_t_h_base_service_client_recv_delete_namespace (s, &o->io, e);
    /* lists of structs and strings */
    case 28: return hbase_thrift_t_h_base_service_client_recv_delete_multiple (s, &o->objects, &o->io, e);
    case 29: return hbase_thrift_t_h_base_service_client_recv_get_table_names_by_pattern (s, &o->objects, &o->io, e);
    case 30: return hbase_thrift_t_h_base_service_client_recv_get_table_names_by_namespace (s, &o->objects, &o->io, e);
    case 31: return hbase_thrift_t_h_base_service_client_recv_list_namespaces (s, &o->strings, &o->io, e);
    case 32: return hbase_thrift_t_h_base_service_client_recv_get_table_descriptor (s, &o->table, &o->io, e);
    case 33: return hbase_thrift_t_h_base_service_client_recv_get_table_descriptors (s, &o->objects, &o->io, e);
    case 34: return hbase_thrift_t_h_base_service_client_recv_get_namespace_descriptor (s, &o->namespace_, &o->io, e);
    case 35: return hbase_thrift_t_h_base_service_client_recv_list_namespace_descriptors (s, &o->objects, &o->io, e);
    default: return hbase_thrift_t_h_base_service_client_recv_get_region_location (s, (HbaseThriftTHRegionLocation **) &o->result, &o->io, e);
    }
}

#define N_CALLS 37

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  guint8 selector = fuzz_take_u8 (&in);
  guint which = fuzz_take_u8 (&in) % N_CALLS;
  g_autoptr(ThriftTransport) transport = NULL;
  g_autoptr(ThriftProtocol) protocol = NULL;
  g_autoptr(GObject) client = NULL;
  GError *call_error = NULL, *error = NULL;
  Out o = { 0 };
  gboolean ok;

  fuzz_init ();
  /* server text (TIOError messages, method names) is quoted as sent */
  fuzz_require_utf8_errors = FALSE;
  if (selector & 2)
    {
      if (in.size > FUZZ_SOCKET_MAX_INPUT)
        return 0;
      transport = fuzz_socket_transport_new (in.data, in.size, FALSE);
    }
  else
    transport = fuzz_memory_transport_new (in.data, in.size);
  if (transport == NULL)
    return 0;
  protocol = fuzz_protocol_new (selector & 1, transport);
  client = g_object_new (HBASE_THRIFT_TYPE_T_H_BASE_SERVICE_CLIENT,
                         "input_protocol", protocol, "output_protocol", protocol, NULL);

  /* as the library's callers create them (see src/table, src/admin) */
  o.result = which == 36 ? (HbaseThriftTResult *) g_object_new (HBASE_THRIFT_TYPE_T_H_REGION_LOCATION, NULL)
                         : g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  o.table = g_object_new (HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, NULL);
  o.namespace_ = g_object_new (HBASE_THRIFT_TYPE_T_NAMESPACE_DESCRIPTOR, NULL);
  o.objects = g_ptr_array_new_with_free_func (g_object_unref);
  o.strings = g_ptr_array_new_with_free_func (g_free);
  o.flags = g_array_new (FALSE, FALSE, sizeof (gboolean));

  ok = call (HBASE_THRIFT_T_H_BASE_SERVICE_IF (client), which, &o, &call_error);
  if (ok)
    {
      fuzz_assert (call_error == NULL && o.io == NULL && o.ia == NULL,
                   "call %u succeeded with an error or exception", which);
      if (which <= 4)
        {
          HBaseRow *row = _hbase_row_new_from_result (o.result);

          fuzz_touch_row (row);
          hbase_row_unref (row);
        }
      for (guint i = 0; which <= 5 && i < o.objects->len; i++)
        {
          HBaseRow *row = _hbase_row_new_from_result (g_ptr_array_index (o.objects, i));

          fuzz_touch_row (row);
          hbase_row_unref (row);
        }
    }
  else
    {
      hbase_error_take_call_error (&error, call_error, o.io, o.ia);
      fuzz_assert (error != NULL && error->domain == HBASE_ERROR,
                   "call %u failed with an error outside HBASE_ERROR", which);
    }
  fuzz_check_outcome ("the generated decoder", ok, &error);

  g_clear_object (&o.io);
  g_clear_object (&o.ia);
  g_free (o.text);
  g_clear_object (&o.result);
  g_clear_object (&o.table);
  g_clear_object (&o.namespace_);
  g_ptr_array_unref (o.objects);
  g_ptr_array_unref (o.strings);
  g_array_unref (o.flags);
  return 0;
}
