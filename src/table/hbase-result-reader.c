/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-result-reader.c: the replies that carry rows (get, getMultiple,
 * getScannerRows), decoded straight into HBaseRows.
 *
 * Why this exists: through the generated code a scanned row was decoded
 * into a TResult GObject holding a GPtrArray of TColumnValue GObjects and
 * four GByteArrays, copied into an HBaseRow, and the generated objects
 * finalized.  callgrind on the peer benchmark's scan (one 11-byte key, one
 * 100-byte cell per row; BENCHMARKS.md) put that at 23,800 instructions
 * per row: 53 % decoding into the generated objects, 17 % freeing them,
 * 12 % copying into the HBaseRow; hbase-glib scanned at 0.49x the Java
 * Thrift2 client's rate.  Here each field goes from the protocol into one
 * buffer per row (HBaseRowBuilder, hbase-row-builder.h), and a row is one
 * allocation.  Measured results are in BENCHMARKS.md.
 *
 * Everything is read through the connection's ThriftProtocol, by
 * HBaseWire (hbase-wire.h: the binary protocol decoded directly from
 * hbase-glib's transport, any other through thrift_protocol_read_*), so
 * the binary and compact protocols and any transport work; binary fields
 * are read by hand: their length as the
 * protocol writes it (an i32 in the binary protocol, a varint in the
 * compact one), then the bytes straight from the transport into the row's
 * buffer, with the same checks as the protocols' own read_binary.
 * Fields the decoder does not use (TColumnValue tags and type, TResult
 * stale and partial) and unknown fields are skipped with
 * thrift_protocol_skip(), as the generated readers do.
 *
 * Failures come out as the generated calls report them, passed through
 * hbase_error_take_call_error(): a TApplicationException reply, a TIOError
 * or TIllegalArgument result (decoded with the generated readers: these
 * are rare), a message of the wrong type or name, and protocol or
 * transport errors. */
#include "config.h"

#include <string.h>

#include <thrift/c_glib/protocol/thrift_binary_protocol.h>
#include <thrift/c_glib/protocol/thrift_compact_protocol.h>
#include <thrift/c_glib/thrift_application_exception.h>

#include "../connection/hbase-wire.h"
#include "hbase-result-reader.h"
#include "hbase-row-builder.h"

/* the subclass the generated code creates (thrift/fix-application-exception.sed) */
GType _hbase_application_exception_get_type (void);

typedef struct {
  ThriftProtocol *protocol;
  ThriftTransport *transport;
  HBaseWire wire;             /* the reads of the binary protocol, direct when it can */
  gboolean (*check_available) (ThriftTransport *transport, glong size, GError **error);
  enum { LENGTH_I32, LENGTH_VARINT, LENGTH_GENERIC } length;
  gint32 string_limit;        /* compact protocol: 0 for none */
  HBaseRowBuilder builder;
} Reader;

static void
reader_init (Reader *reader, ThriftProtocol *protocol)
{
  reader->protocol = protocol;
  reader->transport = protocol->transport;
  _hbase_wire_init (&reader->wire, protocol);
  reader->check_available = THRIFT_TRANSPORT_GET_CLASS (protocol->transport)->checkReadBytesAvailable;
  reader->string_limit = 0;
  /* the library's own protocols are subclasses of these (hbase-protocol.h) */
  if (THRIFT_IS_BINARY_PROTOCOL (protocol))
    reader->length = LENGTH_I32;
  else if (THRIFT_IS_COMPACT_PROTOCOL (protocol))
    {
      reader->length = LENGTH_VARINT;
      reader->string_limit = THRIFT_COMPACT_PROTOCOL (protocol)->string_limit;
    }
  else
    reader->length = LENGTH_GENERIC;   /* another protocol: its read_binary */
  _hbase_row_builder_init (&reader->builder);
}

static void
reader_clear (Reader *reader)
{
  _hbase_row_builder_clear (&reader->builder);
}

/* The compact protocol's unsigned varint (a binary field's length). */
static gboolean
read_varint32 (Reader *reader, gint32 *value, GError **error)
{
  guint32 result = 0;

  for (guint shift = 0; shift < 35; shift += 7)
    {
      guint8 byte;

      if (thrift_transport_read_all (reader->transport, &byte, 1, error) < 0)
        return FALSE;
      result |= (guint32) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *value = (gint32) result;
          return TRUE;
        }
    }
  g_set_error (error, THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
               "variable-length int over 5 bytes");
  return FALSE;
}

/* A binary field, appended to the row's bytes at *@offset. */
static gboolean
read_binary (Reader *reader, gsize *offset, gsize *len, GError **error)
{
  gint32 size;
  guint8 *dest;

  if (G_UNLIKELY (reader->length == LENGTH_GENERIC))
    {
      gpointer data = NULL;
      guint32 n = 0;

      if (thrift_protocol_read_binary (reader->protocol, &data, &n, error) < 0)
        return FALSE;
      dest = _hbase_row_builder_reserve (&reader->builder, n, offset);
      if (n > 0)
        memcpy (dest, data, n);
      g_free (data);
      *len = n;
      return TRUE;
    }
  if (reader->length == LENGTH_I32)
    {
      if (!_hbase_wire_read_i32 (&reader->wire, &size, error))
        return FALSE;
    }
  else if (!read_varint32 (reader, &size, error))
    return FALSE;
  if (G_UNLIKELY (size < 0))
    {
      g_set_error (error, THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_NEGATIVE_SIZE,
                   "got negative size of %d", size);
      return FALSE;
    }
  if (G_UNLIKELY (reader->string_limit > 0 && size > reader->string_limit))
    {
      g_set_error (error, THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_SIZE_LIMIT,
                   "got size over limit (%d > %d)", size, reader->string_limit);
      return FALSE;
    }
  /* a garbled length is refused before anything is allocated for it */
  if (size > 0 && !reader->check_available (reader->transport, size, error))
    return FALSE;
  dest = _hbase_row_builder_reserve (&reader->builder, (gsize) size, offset);
  if (size > 0 && !_hbase_wire_read_bytes (&reader->wire, dest, (guint32) size, error))
    return FALSE;
  *len = (gsize) size;
  return TRUE;
}

static gboolean
read_field_begin (Reader *reader, ThriftType *type, gint16 *id, GError **error)
{
  return _hbase_wire_read_field_begin (&reader->wire, type, id, error);
}

static gboolean
read_struct_begin (Reader *reader, GError **error)
{
  return _hbase_wire_read_struct_begin (&reader->wire, error);
}

static gboolean
skip (Reader *reader, ThriftType type, GError **error)
{
  /* the fields every reply carries and the decoder does not use
   * (TColumnValue's type, TResult's stale and partial) are fixed-size */
  if (reader->wire.direct != NULL)
    {
      guint8 scratch[8];
      guint32 size = type == T_BOOL || type == T_BYTE ? 1
                   : type == T_I16 ? 2
                   : type == T_I32 ? 4
                   : type == T_I64 || type == T_DOUBLE ? 8 : 0;

      if (size > 0)
        return _hbase_wire_read_bytes (&reader->wire, scratch, size, error);
    }
  return thrift_protocol_skip (reader->protocol, type, error) >= 0;
}

static gboolean
missing_field (GError **error)
{
  /* as the generated readers say it */
  g_set_error (error, THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_INVALID_DATA, "missing field");
  return FALSE;
}

/* A list of structs must say so: elements of another type would be
 * skipped, and the reply read as fewer rows or cells than it holds. */
static gboolean
check_struct_elements (ThriftType element, guint32 size, const char *what, GError **error)
{
  if (size == 0 || element == T_STRUCT)
    return TRUE;
  g_set_error (error, THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
               "a list of %s holds elements of type %d", what, (int) element);
  return FALSE;
}

/* struct TColumnValue { 1: required binary family, 2: required binary
 * qualifier, 3: required binary value, 4: optional i64 timestamp,
 * 5: optional binary tags, 6: optional i8 type } */
static gboolean
read_column_value (Reader *reader, GError **error)
{
  HBaseRowBuilderCell cell = { 0 };
  gboolean have_family = FALSE, have_qualifier = FALSE, have_value = FALSE;

  if (!read_struct_begin (reader, error))
    return FALSE;
  for (;;)
    {
      ThriftType type;
      gint16 id;
      gboolean ok;

      if (!read_field_begin (reader, &type, &id, error))
        return FALSE;
      if (type == T_STOP)
        break;
      if (id == 1 && type == T_STRING)
        ok = have_family = read_binary (reader, &cell.family, &cell.family_len, error);
      else if (id == 2 && type == T_STRING)
        ok = have_qualifier = read_binary (reader, &cell.qualifier, &cell.qualifier_len, error);
      else if (id == 3 && type == T_STRING)
        ok = have_value = read_binary (reader, &cell.value, &cell.value_len, error);
      else if (id == 4 && type == T_I64)
        ok = _hbase_wire_read_i64 (&reader->wire, &cell.timestamp, error);
      else
        ok = skip (reader, type, error);
      if (!ok || !_hbase_wire_read_field_end (&reader->wire, error))
        return FALSE;
    }
  if (!_hbase_wire_read_struct_end (&reader->wire, error))
    return FALSE;
  if (!have_family || !have_qualifier || !have_value)
    return missing_field (error);
  _hbase_row_builder_add_cell (&reader->builder, &cell);
  return TRUE;
}

/* struct TResult { 1: optional binary row, 2: required list<TColumnValue>
 * columnValues, 3: optional bool stale, 4: optional bool partial } */
static HBaseRow *
read_result (Reader *reader, GError **error)
{
  gboolean have_cells = FALSE;

  _hbase_row_builder_reset (&reader->builder);
  if (!read_struct_begin (reader, error))
    return NULL;
  for (;;)
    {
      ThriftType type;
      gint16 id;
      gboolean ok = TRUE;

      if (!read_field_begin (reader, &type, &id, error))
        return NULL;
      if (type == T_STOP)
        break;
      if (id == 1 && type == T_STRING)
        {
          gsize offset, len;

          ok = read_binary (reader, &offset, &len, error);
          if (ok)
            _hbase_row_builder_set_key (&reader->builder, offset, len);
        }
      else if (id == 2 && type == T_LIST)
        {
          ThriftType element;
          guint32 size;

          ok = _hbase_wire_read_list_begin (&reader->wire, &element, &size, error) &&
               check_struct_elements (element, size, "TColumnValue", error);
          for (guint32 i = 0; ok && i < size; i++)
            ok = read_column_value (reader, error);
          ok = ok && _hbase_wire_read_list_end (&reader->wire, error);
          have_cells = TRUE;
        }
      else
        ok = skip (reader, type, error);
      if (!ok || !_hbase_wire_read_field_end (&reader->wire, error))
        return NULL;
    }
  if (!_hbase_wire_read_struct_end (&reader->wire, error))
    return NULL;
  if (!have_cells)
    {
      missing_field (error);
      return NULL;
    }
  return _hbase_row_builder_finish (&reader->builder);
}

static GPtrArray *
read_results (Reader *reader, GError **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  ThriftType element;
  guint32 size;

  if (!_hbase_wire_read_list_begin (&reader->wire, &element, &size, error) ||
      !check_struct_elements (element, size, "TResult", error))
    return NULL;
  /* list_begin checked the size against what the reply can still hold,
   * but that is up to a byte per element: do not trust it for memory */
  rows = g_ptr_array_new_full (MIN (size, 4096u), (GDestroyNotify) hbase_row_unref);
  for (guint32 i = 0; i < size; i++)
    {
      HBaseRow *row = read_result (reader, error);

      if (row == NULL)
        return NULL;
      g_ptr_array_add (rows, row);
    }
  if (!_hbase_wire_read_list_end (&reader->wire, error))
    return NULL;
  return g_steal_pointer (&rows);
}

gboolean
_hbase_result_reader_read_result (ThriftProtocol *protocol, HBaseRow **row, GError **error)
{
  Reader reader;

  reader_init (&reader, protocol);
  *row = read_result (&reader, error);
  reader_clear (&reader);
  return *row != NULL;
}

gboolean
_hbase_result_reader_read_results (ThriftProtocol *protocol, GPtrArray **rows, GError **error)
{
  Reader reader;

  reader_init (&reader, protocol);
  *rows = read_results (&reader, error);
  reader_clear (&reader);
  return *rows != NULL;
}

/* --- replies -------------------------------------------------------------------------- */

static HBaseRow *
empty_row (void)
{
  HBaseRowBuilder builder;
  HBaseRow *row;

  _hbase_row_builder_init (&builder);
  row = _hbase_row_builder_finish (&builder);
  _hbase_row_builder_clear (&builder);
  return row;
}

typedef enum {
  SUCCESS_RESULT,        /* 0: TResult */
  SUCCESS_RESULT_LIST,   /* 0: list<TResult> */
  SUCCESS_VOID,          /* no field 0: put, putMultiple */
} SuccessKind;

/* Reads a reply to @method as the generated recv_* function does: the
 * message header (a TApplicationException, a message of another type or
 * name are errors; the generated code compares only the first
 * strlen (@method) bytes of the name, this the whole name), then the result struct: field 0 the success value, 1
 * a TIOError, 2 a TIllegalArgument (when @has_illegal_argument), others
 * skipped.  The outcome goes through hbase_error_take_call_error(). */
static gboolean
recv_reply (ThriftProtocol *protocol, const char *method, SuccessKind kind,
            gboolean has_illegal_argument, HBaseRow **row_out, GPtrArray **rows_out,
            GError **error)
{
  Reader reader;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(HbaseThriftTIllegalArgument) ia = NULL;
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  GError *call_error = NULL;
  g_autofree gchar *owned_name = NULL;
  char name_buf[HBASE_PROTOCOL_MAX_NAME + 1];
  const char *name;
  ThriftMessageType type;
  gint32 seqid;
  gboolean ok = FALSE, begun;

  if (_hbase_protocol_get_direct_transport (protocol) != NULL)
    {
      begun = _hbase_protocol_read_message_begin_direct (protocol, name_buf, &type, &seqid,
                                                        &call_error);
      name = name_buf;
    }
  else
    {
      begun = thrift_protocol_read_message_begin (protocol, &owned_name, &type, &seqid,
                                                 &call_error) >= 0;
      name = owned_name;
    }
  if (!begun)
    {
      hbase_error_take_call_error (error, call_error, NULL, NULL);
      return FALSE;
    }
  if (type == T_EXCEPTION)
    {
      ThriftApplicationException *exception =
        g_object_new (_hbase_application_exception_get_type (), NULL);

      /* a malformed exception fails with the protocol's own error */
      if (thrift_struct_read (THRIFT_STRUCT (exception), protocol, &call_error) < 0)
        {
          g_object_unref (exception);
          hbase_error_take_call_error (error, call_error, NULL, NULL);
          return FALSE;
        }
      thrift_protocol_read_message_end (protocol, NULL);
      thrift_transport_read_end (protocol->transport, NULL);
      g_set_error (&call_error, THRIFT_APPLICATION_EXCEPTION_ERROR, exception->type,
                   "application error: %s", exception->message);
      g_object_unref (exception);
      hbase_error_take_call_error (error, call_error, NULL, NULL);
      return FALSE;
    }
  if (type != T_REPLY || name == NULL || strcmp (name, method) != 0)
    {
      thrift_protocol_skip (protocol, T_STRUCT, NULL);
      thrift_protocol_read_message_end (protocol, NULL);
      thrift_transport_read_end (protocol->transport, NULL);
      if (type != T_REPLY)
        g_set_error (&call_error, THRIFT_APPLICATION_EXCEPTION_ERROR,
                     THRIFT_APPLICATION_EXCEPTION_ERROR_INVALID_MESSAGE_TYPE,
                     "invalid message type %d, expected T_REPLY", type);
      else
        g_set_error (&call_error, THRIFT_APPLICATION_EXCEPTION_ERROR,
                     THRIFT_APPLICATION_EXCEPTION_ERROR_WRONG_METHOD_NAME,
                     "wrong method name %s, expected %s", name, method);
      hbase_error_take_call_error (error, call_error, NULL, NULL);
      return FALSE;
    }

  reader_init (&reader, protocol);
  if (!read_struct_begin (&reader, &call_error))
    goto out;
  for (;;)
    {
      ThriftType field_type;
      gint16 id;
      gboolean field_ok;

      if (!read_field_begin (&reader, &field_type, &id, &call_error))
        goto out;
      if (field_type == T_STOP)
        break;
      /* the generated decoders would merge two results into one (and a
       * Java reader keep the last): a reply that repeats its result is
       * malformed, refused */
      if (id == 0 && (row != NULL || rows != NULL))
        {
          g_set_error (&call_error, THRIFT_PROTOCOL_ERROR, THRIFT_PROTOCOL_ERROR_INVALID_DATA,
                       "the reply holds its result twice");
          goto out;
        }
      if (id == 0 && kind == SUCCESS_RESULT && field_type == T_STRUCT)
        {
          g_clear_pointer (&row, hbase_row_unref);
          field_ok = (row = read_result (&reader, &call_error)) != NULL;
        }
      else if (id == 0 && kind == SUCCESS_RESULT_LIST && field_type == T_LIST)
        {
          g_clear_pointer (&rows, g_ptr_array_unref);
          field_ok = (rows = read_results (&reader, &call_error)) != NULL;
        }
      else if (id == 1 && field_type == T_STRUCT)
        {
          g_clear_object (&io);
          io = g_object_new (HBASE_THRIFT_TYPE_T_I_O_ERROR, NULL);
          field_ok = thrift_struct_read (THRIFT_STRUCT (io), protocol, &call_error) >= 0;
          if (!field_ok)
            g_clear_object (&io);
        }
      else if (id == 2 && has_illegal_argument && field_type == T_STRUCT)
        {
          g_clear_object (&ia);
          ia = g_object_new (HBASE_THRIFT_TYPE_T_ILLEGAL_ARGUMENT, NULL);
          field_ok = thrift_struct_read (THRIFT_STRUCT (ia), protocol, &call_error) >= 0;
          if (!field_ok)
            g_clear_object (&ia);
        }
      else
        field_ok = skip (&reader, field_type, &call_error);
      if (!field_ok || !_hbase_wire_read_field_end (&reader.wire, &call_error))
        goto out;
    }
  if (!_hbase_wire_read_struct_end (&reader.wire, &call_error) ||
      thrift_protocol_read_message_end (protocol, &call_error) < 0 ||
      !thrift_transport_read_end (protocol->transport, &call_error))
    goto out;
  if (io != NULL)
    {
      g_set_error_literal (&call_error, HBASE_THRIFT_T_I_O_ERROR_ERROR,
                           HBASE_THRIFT_T_I_O_ERROR_ERROR_CODE, "TIOError");
      goto out;
    }
  if (ia != NULL)
    {
      g_set_error_literal (&call_error, HBASE_THRIFT_T_ILLEGAL_ARGUMENT_ERROR,
                           HBASE_THRIFT_T_ILLEGAL_ARGUMENT_ERROR_CODE, "TIllegalArgument");
      goto out;
    }
  ok = TRUE;

out:
  reader_clear (&reader);
  if (!ok)
    {
      hbase_error_take_call_error (error, call_error, io, ia);
      return FALSE;
    }
  /* no success field: what the generated calls give, an empty result */
  if (row_out != NULL)
    *row_out = row != NULL ? g_steal_pointer (&row) : empty_row ();
  if (rows_out != NULL)
    *rows_out = rows != NULL ? g_steal_pointer (&rows)
                             : g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  return TRUE;
}

gboolean
_hbase_result_reader_recv_get (ThriftProtocol *protocol, HBaseRow **row, GError **error)
{
  return recv_reply (protocol, "get", SUCCESS_RESULT, FALSE, row, NULL, error);
}

gboolean
_hbase_result_reader_recv_void (ThriftProtocol *protocol, const char *method, GError **error)
{
  return recv_reply (protocol, method, SUCCESS_VOID, FALSE, NULL, NULL, error);
}

gboolean
_hbase_result_reader_recv_get_multiple (ThriftProtocol *protocol, GPtrArray **rows, GError **error)
{
  return recv_reply (protocol, "getMultiple", SUCCESS_RESULT_LIST, FALSE, NULL, rows, error);
}

gboolean
_hbase_result_reader_recv_get_scanner_rows (ThriftProtocol *protocol, GPtrArray **rows,
                                            GError **error)
{
  return recv_reply (protocol, "getScannerRows", SUCCESS_RESULT_LIST, TRUE, NULL, rows, error);
}

/* --- whole calls ------------------------------------------------------------------------ */

static ThriftProtocol *
input_protocol (HbaseThriftTHBaseServiceIf *service)
{
  return HBASE_THRIFT_T_H_BASE_SERVICE_CLIENT (service)->input_protocol;
}

/* @call_error is read after the send that sets it: a function argument
 * (the old form, sent (send (..., &call_error), call_error, error)) may be
 * evaluated before the send, and the failure is then lost ("the call
 * failed without saying why"); over HTTP every failure is the send's. */
static gboolean
sent (gboolean ok, GError **call_error, GError **error)
{
  if (!ok)
    hbase_error_take_call_error (error, g_steal_pointer (call_error), NULL, NULL);
  return ok;
}

static ThriftProtocol *
output_protocol (HbaseThriftTHBaseServiceIf *service)
{
  return HBASE_THRIFT_T_H_BASE_SERVICE_CLIENT (service)->output_protocol;
}

gboolean
_hbase_result_reader_get (HbaseThriftTHBaseServiceIf *service, const GByteArray *table,
                          const HBaseGetRequest *request, HBaseRow **row, GError **error)
{
  GError *call_error = NULL;

  return sent (_hbase_get_request_send_get (output_protocol (service), table, request,
                                            &call_error),
               &call_error, error) &&
         _hbase_result_reader_recv_get (input_protocol (service), row, error);
}

gboolean
_hbase_result_reader_get_multiple (HbaseThriftTHBaseServiceIf *service, const GByteArray *table,
                                   const GPtrArray *requests, GPtrArray **rows, GError **error)
{
  GError *call_error = NULL;

  return sent (_hbase_get_request_send_get_multiple (output_protocol (service), table, requests,
                                                     &call_error),
               &call_error, error) &&
         _hbase_result_reader_recv_get_multiple (input_protocol (service), rows, error);
}

gboolean
_hbase_result_reader_get_scanner_rows (HbaseThriftTHBaseServiceIf *service, gint32 scanner_id,
                                       gint32 n_rows, GPtrArray **rows, GError **error)
{
  GError *call_error = NULL;

  return sent (hbase_thrift_t_h_base_service_client_send_get_scanner_rows (service, scanner_id,
                                                                            n_rows, &call_error),
               &call_error, error) &&
         _hbase_result_reader_recv_get_scanner_rows (input_protocol (service), rows, error);
}
