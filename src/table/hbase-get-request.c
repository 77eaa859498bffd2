/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-get-request.c: get and getMultiple requests encoded by hand.
 *
 * Why this exists: a generated TGet is three GObjects (the TGet, and the
 * TTimeRange and TAuthorizations its instance_init creates whether they
 * are used or not), a hash table and a pointer array.  Once replies were
 * decoded by hand (hbase-result-reader.c), callgrind on the peer
 * benchmark's get put building that TGet and finalizing it at about 9,000
 * of the 26,000 instructions a get cost in the client (BENCHMARKS.md).
 * An HBaseGetRequest is the row (referenced) and a copy of the
 * HBaseReadOptions, written as a TGet struct through the connection's
 * protocol (thrift_protocol_write_*: binary and compact alike), field for
 * field what the generated writer wrote for the TGet built before
 * (tests/table/test-request-encoding.c compares the bytes). */
#include "config.h"

#include <string.h>

#include "hbase-get-request.h"
#include "hbase-request-writer.h"
#include "hbase-table-private.h"

struct _HBaseGetRequest {
  GBytes *row;
  GPtrArray *columns;         /* HBaseColumn; NULL: every column */
  gint32 max_versions;        /* 0: not sent */
  gboolean has_time_range;
  gint64 min_timestamp, max_timestamp;
  GBytes *filter;             /* NULL: none */
  gboolean typed_filter;      /* the filter came from a typed HBaseFilter: the
                               * native backend runs only those, so the same
                               * text as a filter string is another read */
};

void
_hbase_get_request_peek (const HBaseGetRequest *request, GBytes **row, GPtrArray **columns,
                         gint32 *max_versions, gint64 *min_ts, gint64 *max_ts, GBytes **filter)
{
  *row = request->row;
  *columns = request->columns;
  *max_versions = request->max_versions;
  *min_ts = request->has_time_range ? request->min_timestamp : 0;
  *max_ts = request->has_time_range ? request->max_timestamp : 0;
  *filter = request->filter;
}

HBaseGetRequest *
_hbase_get_request_new (GBytes *row, const HBaseReadOptions *options)
{
  HBaseGetRequest *request = g_new0 (HBaseGetRequest, 1);

  request->row = g_bytes_ref (row);
  if (options == NULL)
    return request;
  request->columns = _hbase_read_options_column_list (options);
  request->max_versions = (gint32) options->max_versions;
  if (options->min_timestamp != 0 || options->max_timestamp != 0)
    {
      request->has_time_range = TRUE;
      request->min_timestamp = options->min_timestamp;
      /* no upper bound: HBase's LATEST_TIMESTAMP, Long.MAX_VALUE */
      request->max_timestamp = options->max_timestamp != 0 ? options->max_timestamp : G_MAXINT64;
    }
  request->filter = _hbase_read_options_filter (options);
  request->typed_filter = options->typed_filter != NULL;
  return request;
}

HBaseGetRequest *
_hbase_get_request_new_like (GBytes *row, const HBaseGetRequest *model)
{
  HBaseGetRequest *request = g_memdup2 (model, sizeof *model);

  request->row = g_bytes_ref (row);
  if (request->columns != NULL)
    g_ptr_array_ref (request->columns);
  if (request->filter != NULL)
    g_bytes_ref (request->filter);
  return request;
}

void
_hbase_get_request_free (gpointer data)
{
  HBaseGetRequest *request = data;

  if (request == NULL)
    return;
  g_bytes_unref (request->row);
  g_clear_pointer (&request->columns, g_ptr_array_unref);
  g_clear_pointer (&request->filter, g_bytes_unref);
  g_free (request);
}

/* struct TColumn { 1: required binary family, 2: optional binary qualifier } */
static gboolean
write_column (HBaseWire *wire, const HBaseColumn *column, GError **error)
{
  GBytes *family = hbase_column_get_family (column);
  GBytes *qualifier = hbase_column_get_qualifier (column);

  HBASE_W (_hbase_wire_write_struct_begin (wire, "TColumn", error));
  if (!_hbase_write_binary_field (wire, "family", 1, g_bytes_get_data (family, NULL),
                                  g_bytes_get_size (family), error))
    return FALSE;
  if (qualifier != NULL &&
      !_hbase_write_binary_field (wire, "qualifier", 2, g_bytes_get_data (qualifier, NULL),
                                  g_bytes_get_size (qualifier), error))
    return FALSE;
  HBASE_W (_hbase_wire_write_field_stop (wire, error));
  HBASE_W (_hbase_wire_write_struct_end (wire, error));
  return TRUE;
}

/* struct TGet: 1 row, 2 columns, 4 timeRange, 5 maxVersions, 6
 * filterString; the other fields are never set by hbase-glib. */
static gboolean
write_tget (const HBaseGetRequest *request, HBaseWire *wire, GError **error)
{
  gsize row_len;
  const void *row = g_bytes_get_data (request->row, &row_len);

  HBASE_W (_hbase_wire_write_struct_begin (wire, "TGet", error));
  if (!_hbase_write_binary_field (wire, "row", 1, row, row_len, error))
    return FALSE;
  if (request->columns != NULL)
    {
      guint n = request->columns->len;

      HBASE_W (_hbase_wire_write_field_begin (wire, "columns", T_LIST, 2, error));
      HBASE_W (_hbase_wire_write_list_begin (wire, T_STRUCT, (gint32) n, error));
      for (guint i = 0; i < n; i++)
        if (!write_column (wire, g_ptr_array_index (request->columns, i), error))
          return FALSE;
      HBASE_W (_hbase_wire_write_list_end (wire, error));
      HBASE_W (_hbase_wire_write_field_end (wire, error));
    }
  if (request->has_time_range)
    {
      HBASE_W (_hbase_wire_write_field_begin (wire, "timeRange", T_STRUCT, 4, error));
      HBASE_W (_hbase_wire_write_struct_begin (wire, "TTimeRange", error));
      if (!_hbase_write_i64_field (wire, "minStamp", 1, request->min_timestamp, error) ||
          !_hbase_write_i64_field (wire, "maxStamp", 2, request->max_timestamp, error))
        return FALSE;
      HBASE_W (_hbase_wire_write_field_stop (wire, error));
      HBASE_W (_hbase_wire_write_struct_end (wire, error));
      HBASE_W (_hbase_wire_write_field_end (wire, error));
    }
  if (request->max_versions > 0)
    {
      HBASE_W (_hbase_wire_write_field_begin (wire, "maxVersions", T_I32, 5, error));
      HBASE_W (_hbase_wire_write_i32 (wire, request->max_versions, error));
      HBASE_W (_hbase_wire_write_field_end (wire, error));
    }
  if (request->filter != NULL &&
      !_hbase_write_binary_field (wire, "filterString", 6,
                                  g_bytes_get_data (request->filter, NULL),
                                  g_bytes_get_size (request->filter), error))
    return FALSE;
  HBASE_W (_hbase_wire_write_field_stop (wire, error));
  HBASE_W (_hbase_wire_write_struct_end (wire, error));
  return TRUE;
}

gboolean
_hbase_get_request_write (const HBaseGetRequest *request, ThriftProtocol *protocol,
                          GError **error)
{
  HBaseWire wire;

  _hbase_wire_init (&wire, protocol);
  return write_tget (request, &wire, error);
}

static gboolean
write_get (gconstpointer request, HBaseWire *wire, GError **error)
{
  return write_tget (request, wire, error);
}

gboolean
_hbase_get_request_send_get (ThriftProtocol *protocol, const GByteArray *table,
                             const HBaseGetRequest *request, GError **error)
{
  return _hbase_request_send (protocol, "get", "get_args", table, "tget", request, NULL,
                              write_get, error);
}

gboolean
_hbase_get_request_send_get_multiple (ThriftProtocol *protocol, const GByteArray *table,
                                      const GPtrArray *requests, GError **error)
{
  return _hbase_request_send (protocol, "getMultiple", "getMultiple_args", table, "tgets", NULL,
                              requests, write_get, error);
}

static gboolean
bytes_equal (GBytes *a, GBytes *b)
{
  return a == b || (a != NULL && b != NULL && g_bytes_equal (a, b));
}

gboolean
_hbase_get_request_same_read (const HBaseGetRequest *a, const HBaseGetRequest *b)
{
  guint n_a = a->columns != NULL ? a->columns->len : 0;
  guint n_b = b->columns != NULL ? b->columns->len : 0;

  if ((a->columns == NULL) != (b->columns == NULL) || n_a != n_b ||
      a->max_versions != b->max_versions || a->has_time_range != b->has_time_range ||
      (a->has_time_range && (a->min_timestamp != b->min_timestamp ||
                             a->max_timestamp != b->max_timestamp)) ||
      !bytes_equal (a->filter, b->filter) || a->typed_filter != b->typed_filter)
    return FALSE;
  for (guint i = 0; i < n_a; i++)
    {
      const HBaseColumn *x = g_ptr_array_index (a->columns, i);
      const HBaseColumn *y = g_ptr_array_index (b->columns, i);

      if (!bytes_equal (hbase_column_get_family (x), hbase_column_get_family (y)) ||
          !bytes_equal (hbase_column_get_qualifier (x), hbase_column_get_qualifier (y)))
        return FALSE;
    }
  return TRUE;
}
