/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-scanner.c: HBaseScanner, streaming the rows of a key range through
 * the gateway's openScanner/getScannerRows/closeScanner.
 *
 * How it keeps its promises:
 *  - the server-side scanner lives in the gateway process, not on a
 *    connection: every call goes through the pool, on whatever connection
 *    to that gateway is free (scanner ids are small numbers each gateway
 *    counts on its own: another gateway would answer with a scanner of its
 *    own);
 *  - openScanner consumes nothing and is retried like any read, but
 *    getScannerRows is not idempotent (a resent one skips a batch on the
 *    server), so it is only resent when it certainly never left;
 *  - a row counts as returned only when it is handed to the caller.  When a
 *    fetch fails (broken connection, a scanner the gateway expired after
 *    60 s idle: TIllegalArgument "Invalid scanner Id", ...) the buffered
 *    rows are dropped and a new server scanner is opened just after the last
 *    row returned, so no row is lost or repeated;
 *  - at most @caching results (plus one row being stitched) are buffered,
 *    as HBaseRows: getScannerRows replies are decoded straight into rows
 *    (hbase-result-reader.c), without generated TResult objects.
 *
 * The key range is kept as a lower and an upper bound, each inclusive or
 * exclusive, whatever the direction; start/stop rows, the prefix and the
 * resume point all narrow it.  Forward scans translate it exactly into
 * TScan.startRow/stopRow.  A reversed scan's start row is inclusive and its
 * stop row exclusive, so "below K" and "from K down" are not always
 * expressible: there the server scans a little wider and the rows outside
 * the range are dropped here (every result is checked against the range).
 *
 * On the native backend the rows come from a scanner of HBase's own RPC
 * (src/native/hbase-native-scan.c, which goes on region after region,
 * forward or reversed), read into the same buffer, checked against the
 * same range and stitched the same way (with a batch the server sends
 * pieces of rows too), so both backends give the same rows.  The bounds
 * go to the server exactly (HBase's Scan has inclusive and exclusive start
 * and stop rows).  A native scanner that fails in a way a new one can
 * resume from (its lease expired, the server forgot it, the region moved,
 * the connection broke) is restarted just after the last row returned, as
 * on the Thrift2 path.  A typed filter is sent as FilterProtos messages; a
 * filter string is refused when the scan is made (only the Thrift2 gateway
 * parses the filter language).
 *
 * Long because: both backends share the key range, the buffer, the
 * stitching of partial rows and the reopening after the last row
 * returned, so that they give the same rows. */
#include "config.h"

#include <string.h>

#include "../connection/hbase-client-async-private.h"
#include "../connection/hbase-connection-private.h"
#include "hbase-filter-private.h"
#include "hbase-result-reader.h"
#include "hbase-row-builder.h"
#include "hbase-table-native.h"
#include "hbase-table-private.h"

typedef HbaseThriftTHBaseServiceIf Service;

#define DEFAULT_CACHING 100
/* new server scanners opened within one hbase_scanner_next() before the
 * failure is reported */
#define MAX_REOPENS 3
/* 0xFF bytes appended to approximate "the largest key below K" */
#define BELOW_PADDING 16

/* One end of the key range; key NULL: unbounded. */
typedef struct {
  GBytes *key;
  gboolean inclusive;
} Bound;

struct _HBaseScanner {
  GObject parent_instance;
  HBaseTable *table;
  HBaseClient *client;
  GByteArray *table_name;
  HbaseThriftTScan *scan;     /* the options; rows and limit set per open */

  gboolean reversed;
  guint limit;                /* 0: no limit */
  guint caching;
  gboolean stitch;            /* batch set: results may be pieces of rows */
  Bound lower, upper;         /* what is left of the range */

  gboolean open;              /* a server scanner exists ... */
  gint32 id;                  /* ... with this id (0 is valid) */
  guint gateway;              /* ... in this gateway (an index of the client's config) */
  gboolean server_done;       /* it has nothing more for us */
  gboolean finished;          /* the caller got the end */

  guint returned;             /* rows handed to the caller */
  HBaseRow *last_row;         /* the last of them (for its key) */
  /* whole rows: ready[ready_next ..] are still to be returned (an array
   * reused from fetch to fetch: a GQueue cost an allocation per row) */
  GPtrArray *ready;           /* HBaseRow * */
  guint ready_next;
  /* the pieces so far of a row whose next piece may still come (batch
   * set), joined once the row is complete */
  GPtrArray *pending;         /* HBaseRow * */
  HBaseNativeScanner *native; /* the native backend's scanner, or NULL */
};

G_DEFINE_FINAL_TYPE (HBaseScanner, hbase_scanner, G_TYPE_OBJECT)

static void close_server_scanner (HBaseScanner *scanner);
static void clear_buffer (HBaseScanner *scanner);

/* Closes the server-side scanner if one is open (best effort: one the
 * gateway cannot close expires there after 60 s), then frees the rest. */
static void
hbase_scanner_finalize (GObject *object)
{
  HBaseScanner *scanner = HBASE_SCANNER (object);

  g_clear_pointer (&scanner->native, _hbase_native_scanner_free);
  if (scanner->client != NULL)
    close_server_scanner (scanner);
  if (scanner->ready != NULL)
    clear_buffer (scanner);
  g_clear_pointer (&scanner->ready, g_ptr_array_unref);
  g_clear_pointer (&scanner->pending, g_ptr_array_unref);
  g_clear_pointer (&scanner->last_row, hbase_row_unref);
  g_clear_pointer (&scanner->lower.key, g_bytes_unref);
  g_clear_pointer (&scanner->upper.key, g_bytes_unref);
  g_clear_object (&scanner->scan);
  g_clear_pointer (&scanner->table_name, g_byte_array_unref);
  g_clear_object (&scanner->client);
  g_clear_object (&scanner->table);
  G_OBJECT_CLASS (hbase_scanner_parent_class)->finalize (object);
}

static void
hbase_scanner_class_init (HBaseScannerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hbase_scanner_finalize;
}

static void
hbase_scanner_init (HBaseScanner *scanner G_GNUC_UNUSED)
{
}

/* --- keys and bounds --------------------------------------------------- */

static int
compare_keys (const guint8 *a, gsize a_len, const guint8 *b, gsize b_len)
{
  int cmp = memcmp (a, b, MIN (a_len, b_len));

  if (cmp != 0)
    return cmp;
  return a_len < b_len ? -1 : a_len > b_len ? 1 : 0;
}

static int
compare_bytes (GBytes *a, const guint8 *b, gsize b_len)
{
  gsize a_len;
  const guint8 *a_data = g_bytes_get_data (a, &a_len);

  return compare_keys (a_data, a_len, b, b_len);
}

static gboolean
is_empty_key (GBytes *key)
{
  return key == NULL || g_bytes_get_size (key) == 0;
}

static void
bound_set (Bound *bound, GBytes *key, gboolean inclusive)
{
  GBytes *old = bound->key;

  bound->key = g_bytes_ref (key);
  bound->inclusive = inclusive;
  if (old != NULL)
    g_bytes_unref (old);
}

/* An empty key never narrows: it means "the table's start/end". */
static void
narrow_lower (Bound *lower, GBytes *key, gboolean inclusive)
{
  int cmp;

  if (is_empty_key (key))
    return;
  if (lower->key == NULL)
    {
      bound_set (lower, key, inclusive);
      return;
    }
  cmp = compare_bytes (key, g_bytes_get_data (lower->key, NULL), g_bytes_get_size (lower->key));
  if (cmp > 0 || (cmp == 0 && !inclusive))
    bound_set (lower, key, inclusive);
}

static void
narrow_upper (Bound *upper, GBytes *key, gboolean inclusive)
{
  int cmp;

  if (is_empty_key (key))
    return;
  if (upper->key == NULL)
    {
      bound_set (upper, key, inclusive);
      return;
    }
  cmp = compare_bytes (key, g_bytes_get_data (upper->key, NULL), g_bytes_get_size (upper->key));
  if (cmp < 0 || (cmp == 0 && !inclusive))
    bound_set (upper, key, inclusive);
}

static gboolean
above_lower (const Bound *lower, const guint8 *key, gsize len)
{
  int cmp;

  if (lower->key == NULL)
    return TRUE;
  cmp = compare_keys (key, len, g_bytes_get_data (lower->key, NULL), g_bytes_get_size (lower->key));
  return cmp > 0 || (cmp == 0 && lower->inclusive);
}

static gboolean
below_upper (const Bound *upper, const guint8 *key, gsize len)
{
  int cmp;

  if (upper->key == NULL)
    return TRUE;
  cmp = compare_keys (key, len, g_bytes_get_data (upper->key, NULL), g_bytes_get_size (upper->key));
  return cmp < 0 || (cmp == 0 && upper->inclusive);
}

static gboolean
range_is_empty (const Bound *lower, const Bound *upper)
{
  int cmp;

  if (lower->key == NULL || upper->key == NULL)
    return FALSE;
  cmp = compare_bytes (lower->key, g_bytes_get_data (upper->key, NULL),
                       g_bytes_get_size (upper->key));
  return cmp > 0 || (cmp == 0 && !(lower->inclusive && upper->inclusive));
}

static GByteArray *
array_from_bytes (GBytes *bytes)
{
  return _hbase_byte_array_from_bytes (bytes);
}

/* The smallest key above @key: @key + "\0". */
static GByteArray *
key_after (GBytes *key)
{
  GByteArray *array = array_from_bytes (key);
  guint8 zero = 0;

  return g_byte_array_append (array, &zero, 1);
}

/* A key below @key such that few or no keys lie between them (NULL: the
 * table's start).  Exact when @key ends in 0x00. */
static GByteArray *
key_below (GBytes *key)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (key, &len);
  GByteArray *array;
  guint8 last;

  if (len == 0 || (len == 1 && data[0] == 0))
    return NULL;
  array = g_byte_array_sized_new (len + BELOW_PADDING);
  g_byte_array_append (array, data, len - 1);
  last = data[len - 1];
  if (last == 0)
    return array;
  last--;
  g_byte_array_append (array, &last, 1);
  for (guint i = 0; i < BELOW_PADDING; i++)
    {
      guint8 ff = 0xff;
      g_byte_array_append (array, &ff, 1);
    }
  return array;
}

static void
set_row (GByteArray **field, gboolean *isset, GByteArray *value)
{
  if (*field != NULL)
    g_byte_array_unref (*field);
  *field = value;
  *isset = value != NULL;
}

/**
 * hbase_prefix_stop_row:
 * @prefix: (nullable): a row key prefix
 *
 * The smallest key greater than every key starting with @prefix: @prefix
 * without its trailing 0xFF bytes, its last byte incremented.  Used as the
 * (exclusive) stop row of a prefix scan.
 *
 * Returns: (transfer full) (nullable): the stop row, or %NULL when there is
 *   none (@prefix is %NULL, empty or all 0xFF bytes: scan to the table's end)
 *
 * Since: 0.1
 */
GBytes *
hbase_prefix_stop_row (GBytes *prefix)
{
  const guint8 *data;
  guint8 *stop;
  gsize len;

  if (prefix == NULL)
    return NULL;
  data = g_bytes_get_data (prefix, &len);
  while (len > 0 && data[len - 1] == 0xff)
    len--;
  if (len == 0)
    return NULL;
  stop = g_malloc (len);
  memcpy (stop, data, len);
  stop[len - 1]++;
  return g_bytes_new_take (stop, len);
}

/* --- calls --------------------------------------------------------------- */

typedef struct {
  const GByteArray *table;
  const HbaseThriftTScan *scan;
  gint32 id;
} OpenCall;

static gboolean
open_once (Service *service, gpointer user_data, GError **error)
{
  OpenCall *call = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_open_scanner (service, &call->id, call->table, call->scan,
                                                      &io, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, NULL);
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  gint32 id;
  gint32 n_rows;
  GPtrArray *rows;      /* HBaseRow *, of the attempt that succeeded */
} FetchCall;

static gboolean
fetch_once (Service *service, gpointer user_data, GError **error)
{
  FetchCall *call = user_data;

  g_clear_pointer (&call->rows, g_ptr_array_unref);
  return _hbase_result_reader_get_scanner_rows (service, call->id, call->n_rows, &call->rows,
                                                error);
}

static gboolean
close_once (Service *service, gpointer user_data, GError **error)
{
  const gint32 *id = user_data;
  g_autoptr(HbaseThriftTIOError) io = NULL;
  g_autoptr(HbaseThriftTIllegalArgument) ia = NULL;
  GError *call_error = NULL;

  if (!hbase_thrift_t_h_base_service_if_close_scanner (service, *id, &io, &ia, &call_error))
    {
      hbase_error_take_call_error (error, call_error, io, ia);
      return FALSE;
    }
  return TRUE;
}

/* Best effort: a scanner the gateway no longer knows is not an error, and
 * one it cannot close expires on its own after 60 s.  One attempt only, so
 * a dead gateway does not hold up the caller for long. */
static void
close_server_scanner (HBaseScanner *scanner)
{
  gint32 id = scanner->id;

  if (!scanner->open)
    return;
  scanner->open = FALSE;
  if (!_hbase_client_call_on (scanner->client, HBASE_CALL_DEFAULT | _HBASE_CALL_ONCE, &scanner->gateway,
                              close_once, &id, NULL, NULL))
    g_debug ("closing scanner %d failed; the gateway expires it", (int) id);
}

/* Drops what is buffered, so the next fetch starts from the server. */
static void
clear_buffer (HBaseScanner *scanner)
{
  g_ptr_array_set_size (scanner->ready, 0);   /* unrefs what was not returned */
  scanner->ready_next = 0;
  g_ptr_array_set_size (scanner->pending, 0);
}

static void
finish (HBaseScanner *scanner)
{
  scanner->finished = TRUE;
  close_server_scanner (scanner);
  g_clear_pointer (&scanner->native, _hbase_native_scanner_free);
  clear_buffer (scanner);
}

/* Forgets the server scanner (closing it if it may still exist) and
 * everything it sent that the caller has not seen; the next fetch opens a
 * new one just after the last row returned. */
static void
abandon_server_scanner (HBaseScanner *scanner, const GError *reason)
{
  if (g_error_matches (reason, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT))
    scanner->open = FALSE;   /* the gateway does not know it any more */
  else if (g_error_matches (reason, HBASE_ERROR, HBASE_ERROR_TIMEOUT))
    /* the gateway did not answer within the call's deadline: a close
     * would wait as long again; the gateway expires the scanner itself */
    scanner->open = FALSE;
  else
    close_server_scanner (scanner);
  clear_buffer (scanner);
  scanner->server_done = FALSE;
  if (scanner->last_row != NULL)
    {
      GBytes *last = hbase_row_get_key (scanner->last_row);

      if (scanner->reversed)
        narrow_upper (&scanner->upper, last, FALSE);
      else
        narrow_lower (&scanner->lower, last, FALSE);
    }
}

/* Failures after which a new server scanner resumes the scan: a broken
 * connection (the gateway may or may not have moved the scanner on), an
 * expired scanner ("Invalid scanner Id"), or HBase's own scanner timeouts. */
static gboolean
should_reopen (const GError *error)
{
  /* the exception's whole text: the message is only its first line */
  const char *text = hbase_error_get_server_trace (error) != NULL ? hbase_error_get_server_trace (error)
                                                                  : error->message;

  if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_CONNECTION) ||
      g_error_matches (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT))
    return TRUE;
  return g_error_matches (error, HBASE_ERROR, HBASE_ERROR_IO) &&
         (strstr (text, "UnknownScannerException") != NULL ||
          strstr (text, "ScannerTimeoutException") != NULL ||
          strstr (text, "OutOfOrderScannerNextException") != NULL);
}

/* Opens a server scanner for what is left of the range and the limit. */
static gboolean
open_server_scanner (HBaseScanner *scanner, GCancellable *cancellable, GError **error)
{
  HbaseThriftTScan *scan = scanner->scan;
  gboolean inexact_start = FALSE;
  OpenCall call = { scanner->table_name, scan, -1 };
  guint gateway;

  if (range_is_empty (&scanner->lower, &scanner->upper))
    {
      scanner->server_done = TRUE;
      return TRUE;
    }
  if (!scanner->reversed)
    {
      const Bound *lower = &scanner->lower, *upper = &scanner->upper;

      set_row (&scan->startRow, &scan->__isset_startRow,
               lower->key == NULL ? NULL :
               lower->inclusive ? array_from_bytes (lower->key) : key_after (lower->key));
      set_row (&scan->stopRow, &scan->__isset_stopRow,
               upper->key == NULL ? NULL :
               upper->inclusive ? key_after (upper->key) : array_from_bytes (upper->key));
    }
  else
    {
      const Bound *lower = &scanner->lower, *upper = &scanner->upper;

      /* the start row is inclusive: for "below K", start at K and drop K */
      set_row (&scan->startRow, &scan->__isset_startRow,
               upper->key == NULL ? NULL : array_from_bytes (upper->key));
      inexact_start = upper->key != NULL && !upper->inclusive;
      /* the stop row is exclusive: for "from K down", stop just below K */
      set_row (&scan->stopRow, &scan->__isset_stopRow,
               lower->key == NULL ? NULL :
               lower->inclusive ? key_below (lower->key) : array_from_bytes (lower->key));
    }
  if (!scanner->reversed && scan->startRow != NULL && scan->stopRow != NULL &&
      compare_keys (scan->startRow->data, scan->startRow->len,
                    scan->stopRow->data, scan->stopRow->len) >= 0)
    {
      /* e.g. after K and before K + "\0": no key fits */
      scanner->server_done = TRUE;
      return TRUE;
    }
  /* with batch set the gateway's limit does not count whole rows (limit 7
   * gave 4 rows, the last cut short): only the client enforces it then */
  if (scanner->limit > 0 && !scanner->stitch)
    {
      guint64 left = (guint64) (scanner->limit - scanner->returned) + (inexact_start ? 1 : 0);

      scan->limit = (gint32) MIN (left, (guint64) G_MAXINT32);
      scan->__isset_limit = TRUE;
    }

  gateway = HBASE_ANY_GATEWAY;
  if (!_hbase_client_call_on (scanner->client, HBASE_CALL_IDEMPOTENT | HBASE_CALL_READ_ONLY, &gateway,
                              open_once, &call, cancellable, error))
    return FALSE;
  scanner->gateway = gateway;
  scanner->id = call.id;
  scanner->open = TRUE;
  scanner->server_done = FALSE;
  return TRUE;
}

/* The pieces of the pending row, joined into one row, join the ready ones. */
static void
flush_pending (HBaseScanner *scanner)
{
  GPtrArray *pending = scanner->pending;

  if (pending->len == 1)
    g_ptr_array_add (scanner->ready, g_steal_pointer (&pending->pdata[0]));
  else if (pending->len > 1)
    g_ptr_array_add (scanner->ready,
                     _hbase_row_new_concat ((HBaseRow *const *) pending->pdata, pending->len));
  g_ptr_array_set_size (pending, 0);
}

/* Takes one row of a fetch; FALSE when it lies past the range's end. */
static gboolean
take_result (HBaseScanner *scanner, HBaseRow *row)
{
  const guint8 *key;
  gsize len, pending_len;
  gboolean before, after;

  if (!_hbase_row_has_key (row))
    {
      hbase_row_unref (row);
      return TRUE;
    }
  key = _hbase_row_peek_key (row, &len);
  before = scanner->reversed ? !below_upper (&scanner->upper, key, len)
                             : !above_lower (&scanner->lower, key, len);
  after = scanner->reversed ? !above_lower (&scanner->lower, key, len)
                            : !below_upper (&scanner->upper, key, len);
  if (before || after)
    {
      hbase_row_unref (row);
      return !after;
    }
  if (!scanner->stitch)
    {
      g_ptr_array_add (scanner->ready, row);
      return TRUE;
    }
  if (scanner->pending->len > 0)
    {
      const guint8 *pending_key = _hbase_row_peek_key (scanner->pending->pdata[0], &pending_len);

      /* a piece of another row: the pending one is complete */
      if (compare_keys (key, len, pending_key, pending_len) != 0)
        flush_pending (scanner);
    }
  g_ptr_array_add (scanner->pending, row);
  return TRUE;
}

static gboolean
fetch (HBaseScanner *scanner, GCancellable *cancellable, GError **error)
{
  FetchCall call = { scanner->id, (gint32) scanner->caching, NULL };
  gboolean more = TRUE;

  if (!_hbase_client_call_on (scanner->client, HBASE_CALL_READ_ONLY, &scanner->gateway, fetch_once,
                              &call, cancellable, error))
    {
      g_clear_pointer (&call.rows, g_ptr_array_unref);
      return FALSE;
    }
  if (call.rows->len == 0)
    more = FALSE;
  for (guint i = 0; i < call.rows->len; i++)
    {
      HBaseRow *row = g_steal_pointer (&call.rows->pdata[i]);

      if (more)
        more = take_result (scanner, row);
      else
        hbase_row_unref (row);
    }
  g_ptr_array_set_free_func (call.rows, NULL);   /* every element was taken */
  g_ptr_array_unref (call.rows);
  if (!more)
    {
      scanner->server_done = TRUE;
      close_server_scanner (scanner);
    }
  return TRUE;
}

/* The next rows of the native scanner into the buffer; at its end (or
 * past the range) the scan is done. */
static gboolean
native_fetch (HBaseScanner *scanner, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) rows = _hbase_native_scanner_next (scanner->native, cancellable, error);
  gboolean more;

  if (rows == NULL)
    return FALSE;
  more = rows->len > 0;
  for (guint i = 0; i < rows->len && more; i++)
    more = take_result (scanner, _hbase_table_native_row (((HBaseNativeRow *) rows->pdata[i])->cells));
  if (!more)
    {
      scanner->server_done = TRUE;
      g_clear_pointer (&scanner->native, _hbase_native_scanner_free);
    }
  return TRUE;
}

/* The native scanner of the scan, or FALSE with HBASE_ERROR_NOT_SUPPORTED
 * for a filter string. */
static gboolean
native_open (HBaseScanner *scanner, const HBaseScanOptions *options, GError **error)
{
  const HBaseReadOptions *read = &options->read;
  const Bound *start = options->reversed ? &scanner->upper : &scanner->lower;
  const Bound *stop = options->reversed ? &scanner->lower : &scanner->upper;
  g_autoptr(GPtrArray) list = NULL;
  g_autoptr(GPtrArray) columns = NULL;
  g_autoptr(GBytes) filter = NULL;
  HBaseNativeScanSpec spec = { 0 };

  if (!_hbase_filter_native_form (read->typed_filter,
                                  read->filter != NULL || read->filter_bytes != NULL, &filter,
                                  error))
    return FALSE;
  list = _hbase_read_options_column_list (read);
  columns = _hbase_table_native_columns (list);
  /* the range as it is: the server takes inclusive and exclusive bounds,
   * and take_result() checks every row against both all the same */
  spec.start_row = start->key;
  spec.include_start = start->key == NULL || start->inclusive;
  spec.stop_row = stop->key;
  spec.include_stop = stop->key != NULL && stop->inclusive;
  spec.reversed = options->reversed;
  spec.columns = columns;
  spec.max_versions = read->max_versions;
  if (read->min_timestamp != 0 || read->max_timestamp != 0)
    {
      spec.min_ts = read->min_timestamp;
      spec.max_ts = read->max_timestamp != 0 ? read->max_timestamp : G_MAXINT64;
    }
  spec.caching = scanner->caching;
  spec.batch = options->batch;
  spec.limit = options->limit;
  scanner->native = _hbase_native_scanner_new_full (_hbase_table_native_client (scanner->table),
                                                    hbase_table_get_name (scanner->table), &spec);
  _hbase_native_scanner_set_filter (scanner->native, filter);
  return TRUE;
}

/* After a native fetch failed with @reason, one a new server scanner can
 * resume from: what the caller has not seen is dropped and the native
 * scanner starts again just after the last row returned (with what is
 * left of the limit). */
static void
native_resume (HBaseScanner *scanner, const GError *reason)
{
  const Bound *start;

  abandon_server_scanner (scanner, reason);
  if (range_is_empty (&scanner->lower, &scanner->upper))
    {
      scanner->server_done = TRUE;
      return;
    }
  start = scanner->reversed ? &scanner->upper : &scanner->lower;
  _hbase_native_scanner_restart (scanner->native, start->key, start->key == NULL || start->inclusive,
                                 scanner->limit > 0 ? scanner->limit - scanner->returned : 0);
}

/* --- the public API ------------------------------------------------------ */

/**
 * hbase_table_scan:
 * @table: a table
 * @options: (nullable): what to scan; %NULL for every row of the table
 * @error: return location for an error
 *
 * Prepares a scan of @table.  Nothing is sent until the first
 * hbase_scanner_next(), which also reports failures to open the scan (a
 * missing table, a malformed filter).  An empty range is valid: the scan
 * yields no rows.
 *
 * Returns: (transfer full) (nullable): the scanner, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT when @options are invalid (or
 *   %HBASE_ERROR_NOT_SUPPORTED for a scan with a filter string on the native
 *   backend)
 *
 * Since: 0.1
 */
HBaseScanner *
hbase_table_scan (HBaseTable *table, const HBaseScanOptions *options, GError **error)
{
  static const HBaseScanOptions defaults = HBASE_SCAN_OPTIONS_INIT;
  const HBaseReadOptions *read;
  HBaseScanner *scanner;
  HbaseThriftTScan *scan;
  GPtrArray *columns;

  if (!_hbase_table_check (table, error))
    return NULL;
  if (options == NULL)
    options = &defaults;
  read = &options->read;
  if (!_hbase_read_options_check (read, error))
    return NULL;
  if (options->limit > G_MAXINT32 || options->caching > G_MAXINT32 ||
      options->batch > G_MAXINT32)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "scan limit, caching and batch must be at most %d", G_MAXINT32);
      return NULL;
    }

  scanner = g_object_new (HBASE_TYPE_SCANNER, NULL);
  scanner->table = g_object_ref (table);
  scanner->client = g_object_ref (hbase_table_get_client (table));
  scanner->table_name = _hbase_byte_array_from_string (hbase_table_get_name (table));
  scanner->reversed = options->reversed;
  scanner->limit = options->limit;
  scanner->caching = options->caching > 0 ? options->caching : DEFAULT_CACHING;
  scanner->stitch = options->batch > 0;
  scanner->ready = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  scanner->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);

  /* the range: [start, stop) forward, [stop, start] reversed, narrowed by
   * the prefix's [prefix, stop row of the prefix) */
  if (!options->reversed)
    {
      narrow_lower (&scanner->lower, options->start_row, TRUE);
      narrow_upper (&scanner->upper, options->stop_row, FALSE);
    }
  else
    {
      narrow_upper (&scanner->upper, options->start_row, TRUE);
      narrow_lower (&scanner->lower, options->stop_row, FALSE);
    }
  if (!is_empty_key (options->prefix))
    {
      g_autoptr(GBytes) prefix_stop = hbase_prefix_stop_row (options->prefix);

      narrow_lower (&scanner->lower, options->prefix, TRUE);
      if (prefix_stop != NULL)
        narrow_upper (&scanner->upper, prefix_stop, FALSE);
    }
  if (range_is_empty (&scanner->lower, &scanner->upper))
    scanner->finished = TRUE;

  scanner->scan = scan = g_object_new (HBASE_THRIFT_TYPE_T_SCAN, NULL);
  scan->caching = (gint32) scanner->caching;
  scan->__isset_caching = TRUE;
  if (options->batch > 0)
    {
      scan->batchSize = (gint32) options->batch;
      scan->__isset_batchSize = TRUE;
    }
  if (options->reversed)
    {
      scan->reversed = TRUE;
      scan->__isset_reversed = TRUE;
    }
  columns = _hbase_read_options_columns (read);
  if (columns != NULL)
    {
      g_ptr_array_unref (scan->columns);
      scan->columns = columns;
      scan->__isset_columns = TRUE;
    }
  if (read->max_versions > 0)
    {
      scan->maxVersions = (gint32) MIN (read->max_versions, (guint) G_MAXINT32);
      scan->__isset_maxVersions = TRUE;
    }
  if (read->min_timestamp != 0 || read->max_timestamp != 0)
    {
      scan->timeRange->minStamp = read->min_timestamp;
      scan->timeRange->maxStamp = read->max_timestamp != 0 ? read->max_timestamp : G_MAXINT64;
      scan->__isset_timeRange = TRUE;
    }
  if (read->filter != NULL || read->filter_bytes != NULL || read->typed_filter != NULL)
    {
      g_autoptr(GBytes) filter = _hbase_read_options_filter (read);

      scan->filterString = _hbase_byte_array_from_bytes (filter);
      scan->__isset_filterString = TRUE;
    }
  if (G_UNLIKELY (_hbase_client_get_backend (scanner->client) != HBASE_BACKEND_THRIFT2) &&
      !native_open (scanner, options, error))
    {
      g_object_unref (scanner);
      return NULL;
    }
  return scanner;
}

HBaseRow *
_hbase_scanner_next_row (HBaseScanner *scanner, GCancellable *cancellable, GError **error)
{
  guint reopens = 0;

  if (scanner->table == NULL)
    {
      _hbase_illegal (error, "this HBaseScanner was not made by hbase_table_scan(), "
                             "the only way to make one that scans");
      return NULL;
    }

  for (;;)
    {
      HBaseRow *row;
      g_autoptr(GError) local = NULL;

      if (scanner->finished)
        return NULL;
      if (scanner->limit > 0 && scanner->returned >= scanner->limit)
        {
          finish (scanner);
          return NULL;
        }
      row = NULL;
      if (scanner->ready_next < scanner->ready->len)
        {
          row = g_steal_pointer (&scanner->ready->pdata[scanner->ready_next++]);
          if (scanner->ready_next == scanner->ready->len)
            {
              g_ptr_array_set_size (scanner->ready, 0);   /* all NULL by now */
              scanner->ready_next = 0;
            }
        }
      if (row != NULL)
        {
          if (scanner->last_row != NULL)
            hbase_row_unref (scanner->last_row);
          scanner->last_row = hbase_row_ref (row);
          scanner->returned++;
          return row;
        }
      if (scanner->server_done)
        {
          if (scanner->pending->len > 0)
            {
              flush_pending (scanner);
              continue;
            }
          finish (scanner);
          return NULL;
        }
      if (G_UNLIKELY (scanner->native != NULL))
        {
          if (native_fetch (scanner, cancellable, &local))
            continue;
          if (!_hbase_native_scan_error_resumable (local) || ++reopens > MAX_REOPENS ||
              g_cancellable_is_cancelled (cancellable))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          g_debug ("scan of %s: %s; resuming with a new scanner",
                   hbase_table_get_name (scanner->table), local->message);
          native_resume (scanner, local);
          continue;
        }
      if (!scanner->open)
        {
          if (!open_server_scanner (scanner, cancellable, error))
            return NULL;
          continue;
        }
      if (fetch (scanner, cancellable, &local))
        continue;
      abandon_server_scanner (scanner, local);
      if (!should_reopen (local) || ++reopens > MAX_REOPENS ||
          g_cancellable_is_cancelled (cancellable))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      g_debug ("scan of %s: %s; resuming with a new scanner",
               hbase_table_get_name (scanner->table), local->message);
    }
}

HBaseNativeScanner *
_hbase_scanner_get_native (HBaseScanner *scanner)
{
  return scanner->native;
}

HBaseClient *
_hbase_scanner_get_client (HBaseScanner *scanner)
{
  return scanner->client;
}

gboolean
_hbase_scanner_get_server_id (HBaseScanner *scanner, gint32 *id)
{
  if (scanner == NULL || !scanner->open)
    return FALSE;
  *id = scanner->id;
  return TRUE;
}
