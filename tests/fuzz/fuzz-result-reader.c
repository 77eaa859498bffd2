/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-result-reader.c: the hand-written decoder of the replies that carry
 * rows (src/table/hbase-result-reader.c) on any bytes a gateway may send.
 *
 * The first byte chooses: bit 0 the compact (1) or binary (0) protocol;
 * bits 1-2 the reply (get, getMultiple, getScannerRows, or a bare
 * list<TResult>); bit 3 hbase-glib's socket transport (1) or a memory
 * buffer (0); bit 4, with the socket, the framed transport.  The rest is
 * the reply.
 *
 * Checked: the decoder fails with an error or succeeds without one, its
 * rows are well-formed, and when the generated decoder (recv_get, ...)
 * also accepts the same bytes, both give the same rows. */
#include "config.h"

#include <hbase-glib/hbase-glib-thrift.h>

#include "../../src/table/hbase-result-reader.h"
#include "../../src/table/hbase-table-private.h"
#include "fuzz-support.h"

enum { REPLY_GET, REPLY_GET_MULTIPLE, REPLY_SCANNER_ROWS, REPLY_RESULT_LIST };

static ThriftTransport *
transport_new (guint8 selector, const guint8 *data, gsize size)
{
  if (selector & 8)
    return fuzz_socket_transport_new (data, size, (selector & 16) != 0);
  return fuzz_memory_transport_new (data, size);
}

/* The generated decoder's rows, or NULL when it refuses the bytes. */
static GPtrArray *
generated_rows (guint8 selector, int reply, const guint8 *data, gsize size)
{
  g_autoptr(ThriftTransport) transport = transport_new (selector, data, size);
  g_autoptr(ThriftProtocol) protocol = NULL;
  g_autoptr(GObject) client = NULL;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(HbaseThriftTIllegalArgument) ia = NULL;
  g_autoptr(GPtrArray) results = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(HbaseThriftTResult) result = g_object_new (HBASE_THRIFT_TYPE_T_RESULT, NULL);
  g_autoptr(GError) error = NULL;
  HbaseThriftTHBaseServiceIf *service;
  GPtrArray *rows;
  gboolean ok;

  if (transport == NULL)
    return NULL;
  protocol = fuzz_protocol_new (selector & 1, transport);
  client = g_object_new (HBASE_THRIFT_TYPE_T_H_BASE_SERVICE_CLIENT,
                         "input_protocol", protocol, "output_protocol", protocol, NULL);
  service = HBASE_THRIFT_T_H_BASE_SERVICE_IF (client);
  switch (reply)
    {
    case REPLY_GET:
      ok = hbase_thrift_t_h_base_service_client_recv_get (service, &result, &io, &error);
      break;
    case REPLY_GET_MULTIPLE:
      ok = hbase_thrift_t_h_base_service_client_recv_get_multiple (service, &results, &io, &error);
      break;
    default:
      ok = hbase_thrift_t_h_base_service_client_recv_get_scanner_rows (service, &results, &io, &ia,
                                                                       &error);
      break;
    }
  if (!ok)
    return NULL;
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  if (reply == REPLY_GET)
    g_ptr_array_add (rows, _hbase_row_new_from_result (result));
  else
    for (guint i = 0; i < results->len; i++)
      g_ptr_array_add (rows, _hbase_row_new_from_result (g_ptr_array_index (results, i)));
  return rows;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  guint8 selector = fuzz_take_u8 (&in);
  int reply = (selector >> 1) & 3;
  g_autoptr(ThriftTransport) transport = NULL;
  g_autoptr(ThriftProtocol) protocol = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) expected = NULL;
  HBaseRow *row = NULL;
  GError *error = NULL;
  gboolean ok;

  fuzz_init ();
  /* server text (TIOError messages, method names) is quoted as sent */
  fuzz_require_utf8_errors = FALSE;
  if ((selector & 8) && in.size > FUZZ_SOCKET_MAX_INPUT)
    return 0;
  if ((transport = transport_new (selector, in.data, in.size)) == NULL)
    return 0;
  protocol = fuzz_protocol_new (selector & 1, transport);
  switch (reply)
    {
    case REPLY_GET:
      ok = _hbase_result_reader_recv_get (protocol, &row, &error);
      if (ok)
        {
          rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
          g_ptr_array_add (rows, row);
        }
      else
        fuzz_assert (row == NULL, "get failed but gave a row");
      break;
    case REPLY_GET_MULTIPLE:
      ok = _hbase_result_reader_recv_get_multiple (protocol, &rows, &error);
      break;
    case REPLY_SCANNER_ROWS:
      ok = _hbase_result_reader_recv_get_scanner_rows (protocol, &rows, &error);
      break;
    default:
      ok = _hbase_result_reader_read_results (protocol, &rows, &error);
      break;
    }
  fuzz_check_outcome ("the result reader", ok, &error);
  fuzz_assert (ok == (rows != NULL), "the result reader returned %d with rows %p", ok, (void *) rows);
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    fuzz_touch_row (g_ptr_array_index (rows, i));

  if (ok && reply != REPLY_RESULT_LIST && (expected = generated_rows (selector, reply, in.data, in.size)) != NULL)
    {
      fuzz_assert (expected->len == rows->len, "the generated decoder read %u rows, this one %u",
                   expected->len, rows->len);
      for (guint i = 0; i < rows->len; i++)
        fuzz_assert (fuzz_rows_equal (g_ptr_array_index (rows, i), g_ptr_array_index (expected, i)),
                     "row %u differs from the generated decoder's", i);
    }
  return 0;
}
