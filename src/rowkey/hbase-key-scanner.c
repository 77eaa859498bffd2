/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-scanner.c: HBaseKeyScanner, a scan of a key range fanned out
 * over salt buckets and merged in key order (a k-way merge), and
 * hbase_key_query_run(), pages of it.
 *
 * One stream per bucket, each an HBaseScanner on the bucket's row range.
 * Fetch jobs run on a GThreadPool of the scanner's own: a job takes up to
 * @caching rows from its stream's HBaseScanner (about one round trip) and
 * queues them.  The consumer keeps a binary min-heap of the streams whose
 * queue is not empty, keyed by the unsalted key of their first row.  A row
 * can only be returned when every stream that is not finished has a row
 * queued (the one it lacks could be smaller), so a stream whose queue runs
 * dry leaves the heap until its next batch arrives; a stream whose queue
 * falls below half a batch is fetched ahead, so the wait is rare.  At most
 * one job per stream is queued or running, which also keeps each
 * HBaseScanner to one thread at a time, and a stream never holds more than
 * about 1.5 batches.
 *
 * A failed fetch is reported by the next hbase_key_scanner_next(); the
 * stream's HBaseScanner resumes after its last row, so calling again
 * continues without losing or repeating rows. */
#include "config.h"

#include <string.h>

#include "hbase-rowkey-private.h"
#include "../table/hbase-table-private.h"
#include "../connection/hbase-client-async-private.h"

#define DEFAULT_CACHING 100

typedef struct _HBaseKeyScanner Scanner;

typedef struct {
  Scanner *owner;
  guint index;
  HBaseScanner *scanner;
  GPtrArray *rows;      /* HBaseRow *, fetched; those from @head on are not yet merged */
  guint head;
  gboolean fetching;    /* a job is queued or running */
  gboolean done;        /* the scanner has no more rows */
  GError *error;        /* the last fetch failed */
} Stream;

struct _HBaseKeyScanner {
  GObject parent_instance;
  GMutex lock;
  GCond changed;
  Stream *streams;
  guint n_streams;
  GThreadPool *pool;
  GCancellable *cancellable;   /* cancelled when the scanner is freed */
  HBaseClient *client;         /* of the table: its workers run next_async */
  gboolean closing;
  gsize skip;                  /* bucket bytes before the unsalted key */
  guint limit;
  guint returned;
  guint batch;
  gboolean started;
  gboolean finished;
  /* min-heap of streams with rows queued */
  guint *heap;
  guint heap_len;
  /* streams out of the heap that are not finished */
  guint *pending;
  guint n_pending;
};

/* --- the heap -------------------------------------------------------------- */

/* The rows of a stream waiting to be merged (no GQueue: its links would be
 * allocated on the fetching thread and freed on the merging one, once per
 * row). */
static inline guint
stream_length (const Stream *stream)
{
  return stream->rows->len - stream->head;
}

static inline HBaseRow *
stream_peek (const Stream *stream)
{
  return stream->rows->pdata[stream->head];
}

static HBaseRow *
stream_pop (Stream *stream)
{
  HBaseRow *row = stream->rows->pdata[stream->head++];

  if (stream->head == stream->rows->len)
    {
      g_ptr_array_set_size (stream->rows, 0);
      stream->head = 0;
    }
  return row;
}

/* Appends @fetched; drops the merged slots first when they are most of the
 * array. */
static void
stream_append (Stream *stream, GPtrArray *fetched)
{
  if (stream->head > 0 && stream->head >= stream_length (stream))
    {
      guint left = stream_length (stream);

      memmove (stream->rows->pdata, stream->rows->pdata + stream->head, left * sizeof (gpointer));
      g_ptr_array_set_size (stream->rows, left);
      stream->head = 0;
    }
  for (guint i = 0; i < fetched->len; i++)
    g_ptr_array_add (stream->rows, fetched->pdata[i]);
  g_ptr_array_set_size (fetched, 0);
}

static int
compare_heads (Scanner *scanner, guint a, guint b)
{
  HBaseRow *ra = stream_peek (&scanner->streams[a]);
  HBaseRow *rb = stream_peek (&scanner->streams[b]);
  gsize la, lb;
  const guint8 *ka = g_bytes_get_data (hbase_row_get_key (ra), &la);
  const guint8 *kb = g_bytes_get_data (hbase_row_get_key (rb), &lb);
  gsize skip = scanner->skip;
  int cmp;

  /* compare the unsalted keys (every key of a bucket has its byte) */
  if (la >= skip && lb >= skip)
    {
      ka += skip;
      kb += skip;
      la -= skip;
      lb -= skip;
    }
  cmp = memcmp (ka, kb, MIN (la, lb));
  if (cmp == 0)
    cmp = la < lb ? -1 : la > lb ? 1 : 0;
  if (cmp == 0)
    cmp = a < b ? -1 : a > b ? 1 : 0;
  return cmp;
}

static void
heap_push (Scanner *scanner, guint stream)
{
  guint i = scanner->heap_len++;

  scanner->heap[i] = stream;
  while (i > 0)
    {
      guint parent = (i - 1) / 2;

      if (compare_heads (scanner, scanner->heap[i], scanner->heap[parent]) >= 0)
        break;
      scanner->heap[i] = scanner->heap[parent];
      scanner->heap[parent] = stream;
      i = parent;
    }
}

static guint
heap_pop (Scanner *scanner)
{
  guint top = scanner->heap[0];
  guint i = 0;

  scanner->heap[0] = scanner->heap[--scanner->heap_len];
  for (;;)
    {
      guint left = 2 * i + 1, right = left + 1, smallest = i;

      if (left < scanner->heap_len &&
          compare_heads (scanner, scanner->heap[left], scanner->heap[smallest]) < 0)
        smallest = left;
      if (right < scanner->heap_len &&
          compare_heads (scanner, scanner->heap[right], scanner->heap[smallest]) < 0)
        smallest = right;
      if (smallest == i)
        break;
      {
        guint swap = scanner->heap[i];

        scanner->heap[i] = scanner->heap[smallest];
        scanner->heap[smallest] = swap;
      }
      i = smallest;
    }
  return top;
}

/* --- fetching -------------------------------------------------------------- */

/* Runs on a pool thread. */
static void
fetch_job (gpointer data, gpointer user_data)
{
  Stream *stream = data;
  Scanner *scanner = user_data;
  g_autoptr(GPtrArray) fetched = g_ptr_array_sized_new (scanner->batch);
  GError *error = NULL;
  gboolean done = FALSE;

  for (guint i = 0; i < scanner->batch; i++)
    {
      HBaseRow *row;

      if (g_atomic_int_get (&scanner->closing))
        break;
      if (!hbase_scanner_next (stream->scanner, &row, scanner->cancellable, &error))
        break;
      if (row == NULL)
        {
          done = TRUE;
          break;
        }
      g_ptr_array_add (fetched, row);
    }

  g_mutex_lock (&scanner->lock);
  stream_append (stream, fetched);
  if (done)
    stream->done = TRUE;
  if (error != NULL)
    {
      g_clear_error (&stream->error);
      stream->error = error;
    }
  stream->fetching = FALSE;
  g_cond_broadcast (&scanner->changed);
  g_mutex_unlock (&scanner->lock);
}

/* With the lock held. */
static void
schedule (Scanner *scanner, Stream *stream)
{
  if (stream->fetching || stream->done || scanner->closing)
    return;
  stream->fetching = TRUE;
  g_thread_pool_push (scanner->pool, stream, NULL);
}

static void
wake (GCancellable *cancellable, gpointer data)
{
  Scanner *scanner = data;

  g_mutex_lock (&scanner->lock);
  g_cond_broadcast (&scanner->changed);
  g_mutex_unlock (&scanner->lock);
}

/* --- the object ---------------------------------------------------------------- */

G_DEFINE_FINAL_TYPE (HBaseKeyScanner, hbase_key_scanner, G_TYPE_OBJECT)

static HBaseRow *next_row (HBaseKeyScanner *scanner, GCancellable *cancellable, GError **error);

/* Stops the fetches in flight (waiting for the round trips under way) and
 * closes every bucket's scan. */
static void
hbase_key_scanner_finalize (GObject *object)
{
  Scanner *scanner = HBASE_KEY_SCANNER (object);

  g_atomic_int_set (&scanner->closing, TRUE);
  g_cancellable_cancel (scanner->cancellable);
  if (scanner->pool != NULL)
    g_thread_pool_free (scanner->pool, TRUE, TRUE);
  for (guint i = 0; i < scanner->n_streams; i++)
    {
      Stream *stream = &scanner->streams[i];

      if (stream->rows != NULL)
        {
          for (guint r = stream->head; r < stream->rows->len; r++)
            hbase_row_unref (stream->rows->pdata[r]);
          g_ptr_array_unref (stream->rows);
        }
      g_clear_error (&stream->error);
      g_clear_object (&stream->scanner);
    }
  g_free (scanner->streams);
  g_free (scanner->heap);
  g_free (scanner->pending);
  g_clear_object (&scanner->cancellable);
  g_clear_object (&scanner->client);
  g_cond_clear (&scanner->changed);
  g_mutex_clear (&scanner->lock);
  G_OBJECT_CLASS (hbase_key_scanner_parent_class)->finalize (object);
}

static void
hbase_key_scanner_class_init (HBaseKeyScannerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hbase_key_scanner_finalize;
}

static void
hbase_key_scanner_init (HBaseKeyScanner *scanner)
{
  g_mutex_init (&scanner->lock);
  g_cond_init (&scanner->changed);
}

/* --- the public API ---------------------------------------------------------- */

/**
 * hbase_key_scanner_new:
 * @table: the table
 * @schema: the schema of its row keys
 * @options: (nullable): what to scan; %NULL for every row
 * @error: return location for an error
 *
 * Prepares a scan of @options' range.  Each bucket's scan is opened when
 * the first row is asked for; failures to open show then.
 *
 * Returns: (transfer full) (nullable): the scanner, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Since: 0.1
 */
HBaseKeyScanner *
hbase_key_scanner_new (HBaseTable                *table,
                       HBaseKeySchema            *schema,
                       const HBaseKeyScanOptions *options,
                       GError                   **error)
{
  static const HBaseKeyScanOptions defaults = HBASE_KEY_SCAN_OPTIONS_INIT;
  g_autoptr(GArray) ranges = NULL;
  Scanner *scanner;
  guint parallelism;

  if (!_hbase_table_check (table, error))
    return NULL;
  if (schema == NULL)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "hbase_key_scanner_new needs a table and a key schema");
      return NULL;
    }
  if (options == NULL)
    options = &defaults;
  if (options->limit > G_MAXINT32 || options->caching > G_MAXINT32)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "scan limit and caching must be at most %d", G_MAXINT32);
      return NULL;
    }
  ranges = _hbase_key_schema_row_ranges (schema, options->range, options->after, error);
  if (ranges == NULL)
    return NULL;

  scanner = g_object_new (HBASE_TYPE_KEY_SCANNER, NULL);
  scanner->cancellable = g_cancellable_new ();
  scanner->client = g_object_ref (hbase_table_get_client (table));
  scanner->skip = hbase_key_schema_get_n_buckets (schema) > 0 ? 1 : 0;
  scanner->limit = options->limit;
  scanner->batch = options->caching > 0 ? options->caching : DEFAULT_CACHING;
  scanner->n_streams = ranges->len;
  scanner->streams = g_new0 (Stream, MAX (ranges->len, 1));
  scanner->heap = g_new (guint, MAX (ranges->len, 1));
  scanner->pending = g_new (guint, MAX (ranges->len, 1));
  for (guint i = 0; i < ranges->len; i++)
    {
      _HBaseRowRange *range = &g_array_index (ranges, _HBaseRowRange, i);
      HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
      Stream *stream = &scanner->streams[i];

      scan.start_row = range->start;
      scan.stop_row = range->stop;
      scan.limit = options->limit;
      scan.caching = scanner->batch;
      scan.read = options->read;
      stream->owner = scanner;
      stream->index = i;
      stream->rows = g_ptr_array_new ();
      stream->scanner = hbase_table_scan (table, &scan, error);
      if (stream->scanner == NULL)
        {
          scanner->n_streams = i + 1;
          g_object_unref (scanner);
          return NULL;
        }
      scanner->pending[scanner->n_pending++] = i;
    }
  parallelism = options->parallelism;
  if (parallelism == 0)
    parallelism = hbase_config_get_pool_size (hbase_client_get_config (hbase_table_get_client (table)));
  parallelism = CLAMP (parallelism, 1, MAX (scanner->n_streams, 1));
  scanner->pool = g_thread_pool_new (fetch_job, scanner, (gint) parallelism, FALSE, NULL);
  if (scanner->n_streams == 0)
    scanner->finished = TRUE;
  return scanner;
}

static void
next_in_thread (GTask *task, gpointer source, gpointer data, GCancellable *cancellable)
{
  GError *error = NULL;
  HBaseRow *row = NULL;

  if (!hbase_key_scanner_next (source, &row, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, row, (GDestroyNotify) hbase_row_unref);
}

/**
 * hbase_key_scanner_next_async:
 * @scanner: a scanner
 * @cancellable: (nullable): a #GCancellable: stops waiting for the buckets
 * @callback: (scope async): called in the thread-default main context of
 *   the caller with the row
 * @user_data: data for @callback
 *
 * The next row in key order; see hbase_key_scanner_next().  Runs on the
 * worker threads of the client of the scanner's table; the call holds a
 * reference on @scanner, which must not be used otherwise until @callback
 * has run.  Finish with hbase_key_scanner_next_finish().
 *
 * Since: 0.1
 */
void
hbase_key_scanner_next_async (HBaseKeyScanner *scanner, GCancellable *cancellable,
                              GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (HBASE_IS_KEY_SCANNER (scanner));
  task = g_task_new (scanner, cancellable, callback, user_data);
  g_task_set_source_tag (task, hbase_key_scanner_next_async);
  if (scanner->client == NULL)
    next_in_thread (task, scanner, NULL, cancellable);   /* refused at once: no client */
  else
    _hbase_client_run_task (scanner->client, task, next_in_thread);
}

/**
 * hbase_key_scanner_next_finish:
 * @scanner: a scanner
 * @result: the result given to the callback
 * @row: (out) (transfer full) (optional) (nullable): the next row, or %NULL
 *   at the end
 * @error: return location for an error
 *
 * Finishes hbase_key_scanner_next_async(), with the convention of
 * hbase_key_scanner_next().
 *
 * Returns: %FALSE on error, %TRUE otherwise (also at the end)
 *
 * Since: 0.1
 */
gboolean
hbase_key_scanner_next_finish (HBaseKeyScanner *scanner, GAsyncResult *result, HBaseRow **row,
                               GError **error)
{
  GError *local = NULL;
  HBaseRow *next;

  if (row != NULL)
    *row = NULL;
  g_return_val_if_fail (g_task_is_valid (result, scanner), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == hbase_key_scanner_next_async,
                        FALSE);
  next = g_task_propagate_pointer (G_TASK (result), &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (row != NULL)
    *row = next;
  else if (next != NULL)
    hbase_row_unref (next);
  return TRUE;
}

/**
 * hbase_key_scanner_get_n_buckets:
 * @scanner: a scanner
 *
 * Gets how many scans @scanner runs in parallel and merges: one per salt
 * bucket that can hold the range.
 *
 * Returns: how many bucket scans it merges (1 for an unsalted schema, 0
 *   when the range is empty)
 *
 * Since: 0.1
 */
guint
hbase_key_scanner_get_n_buckets (HBaseKeyScanner *scanner)
{
  g_return_val_if_fail (HBASE_IS_KEY_SCANNER (scanner), 0);
  return scanner->n_streams;
}

/**
 * hbase_key_scanner_next:
 * @scanner: a scanner
 * @row: (out) (transfer full) (optional) (nullable): the next row, or %NULL
 *   at the end
 * @cancellable: (nullable): a #GCancellable: stops waiting for the buckets
 * @error: return location for an error
 *
 * Gets the next row in key order (unsalted keys), with the convention of
 * hbase_scanner_next(): %TRUE with @row set is a row, %TRUE with @row
 * %NULL is the end (and every later call says so again), %FALSE is an
 * error.  After an error (a bucket's fetch failed, @cancellable was
 * cancelled) calling again continues where it stopped: no row is lost or
 * repeated.
 *
 * Returns: %TRUE with @row set to the next row or to %NULL at the end;
 *   %FALSE with @error set
 *
 * Since: 0.1
 */
gboolean
hbase_key_scanner_next (HBaseKeyScanner *scanner, HBaseRow **row, GCancellable *cancellable,
                        GError **error)
{
  GError *local = NULL;
  HBaseRow *next;

  if (row != NULL)
    *row = NULL;
  if (!HBASE_IS_KEY_SCANNER (scanner))
    return _hbase_illegal (error, "hbase_key_scanner_next needs a key scanner");
  if (scanner->streams == NULL)
    return _hbase_illegal (error, "this HBaseKeyScanner was not made by hbase_key_scanner_new(), "
                                  "the only way to make one that scans");
  next = next_row (scanner, cancellable, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (row != NULL)
    *row = next;
  else if (next != NULL)
    hbase_row_unref (next);
  return TRUE;
}

/* The next row, or NULL at the end or with @error set. */
static HBaseRow *
next_row (HBaseKeyScanner *scanner, GCancellable *cancellable, GError **error)
{
  HBaseRow *row = NULL;
  gulong handler = 0;
  guint i;

  if (scanner->finished)
    return NULL;
  if (scanner->limit > 0 && scanner->returned >= scanner->limit)
    {
      scanner->finished = TRUE;
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  g_mutex_lock (&scanner->lock);
  if (!scanner->started)
    {
      scanner->started = TRUE;
      for (i = 0; i < scanner->n_pending; i++)
        schedule (scanner, &scanner->streams[scanner->pending[i]]);
    }
  /* every stream out of the heap must have a row or be finished */
  i = 0;
  while (i < scanner->n_pending)
    {
      Stream *stream = &scanner->streams[scanner->pending[i]];

      if (stream_length (stream) > 0)
        {
          heap_push (scanner, stream->index);
          scanner->pending[i] = scanner->pending[--scanner->n_pending];
          continue;
        }
      if (stream->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&stream->error));
          goto out;
        }
      if (stream->done)
        {
          scanner->pending[i] = scanner->pending[--scanner->n_pending];
          continue;
        }
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;
      schedule (scanner, stream);
      if (cancellable != NULL && handler == 0)
        {
          /* only now that we wait: a cancellation must wake us.  Not with
           * the lock held: wake() takes it, at once when already cancelled */
          g_mutex_unlock (&scanner->lock);
          handler = g_cancellable_connect (cancellable, G_CALLBACK (wake), scanner, NULL);
          g_mutex_lock (&scanner->lock);
        }
      else
        g_cond_wait (&scanner->changed, &scanner->lock);
      i = 0;   /* look at every pending stream again */
    }
  if (scanner->heap_len == 0)
    {
      scanner->finished = TRUE;
      goto out;
    }
  {
    guint index = heap_pop (scanner);
    Stream *stream = &scanner->streams[index];

    row = stream_pop (stream);
    if (stream_length (stream) > 0)
      heap_push (scanner, index);
    else if (!stream->done)
      scanner->pending[scanner->n_pending++] = index;
    /* fetch ahead */
    if (stream_length (stream) < (scanner->batch + 1) / 2)
      schedule (scanner, stream);
    scanner->returned++;
  }

out:
  g_mutex_unlock (&scanner->lock);
  if (handler != 0)
    g_cancellable_disconnect (cancellable, handler);
  return row;
}

/* --- paged queries ------------------------------------------------------------- */

#define TOKEN_PREFIX "k1."

static char *
token_from_key (GBytes *key, gsize skip)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (key, &len);
  g_autofree char *base64 = g_base64_encode (data + MIN (skip, len), len - MIN (skip, len));

  /* URL-safe, without padding */
  for (char *p = base64; *p != '\0'; p++)
    if (*p == '+')
      *p = '-';
    else if (*p == '/')
      *p = '_';
  for (gsize n = strlen (base64); n > 0 && base64[n - 1] == '='; n--)
    base64[n - 1] = '\0';
  return g_strconcat (TOKEN_PREFIX, base64, NULL);
}

static GBytes *
key_from_token (const char *token, GError **error)
{
  g_autofree char *base64 = NULL;
  gsize len, n;
  guchar *data;

  if (!g_str_has_prefix (token, TOKEN_PREFIX))
    goto bad;
  base64 = g_strdup (token + strlen (TOKEN_PREFIX));
  n = strlen (base64);
  for (gsize i = 0; i < n; i++)
    {
      char c = base64[i];

      if (c == '-')
        base64[i] = '+';
      else if (c == '_')
        base64[i] = '/';
      else if (!g_ascii_isalnum (c))
        goto bad;
    }
  if (n % 4 == 1)
    goto bad;
  {
    g_autofree char *padded = g_strnfill ((4 - n % 4) % 4, '=');
    g_autofree char *full = g_strconcat (base64, padded, NULL);

    data = g_base64_decode (full, &len);
  }
  return g_bytes_new_take (data, len);

bad:
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
               "\"%s\" is not a page token of hbase_key_query_run()", token);
  return NULL;
}

/**
 * hbase_key_query_run:
 * @table: the table
 * @schema: the schema of its row keys
 * @query: the query
 * @next_page_token: (out) (optional) (nullable) (transfer full): where to
 *   store the token of the next page, %NULL when this page is the last
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * One page of rows of @query's range, in key order, with its filter: at
 * most @limit rows after the page token's row.  The token holds the last
 * key of the page, so the next page resumes right after it even when rows
 * were written or deleted in between.  The gateway is asked for @limit + 1
 * rows (TScan.limit), so the last page has no token.
 *
 * Returns: (transfer container) (element-type HBaseRow) (nullable): the rows,
 *   or %NULL with @error set (%HBASE_ERROR_ILLEGAL_ARGUMENT for a bad
 *   range, filter or token)
 *
 * Since: 0.1
 */
GPtrArray *
hbase_key_query_run (HBaseTable           *table,
                     HBaseKeySchema       *schema,
                     const HBaseKeyQuery  *query,
                     char                **next_page_token,
                     GCancellable         *cancellable,
                     GError              **error)
{
  static const HBaseKeyQuery defaults = HBASE_KEY_QUERY_INIT;
  HBaseKeyScanOptions options = HBASE_KEY_SCAN_OPTIONS_INIT;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GBytes) filter = NULL;
  g_autoptr(HBaseKeyScanner) scanner = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  HBaseRow *row;
  GError *local = NULL;

  if (next_page_token != NULL)
    *next_page_token = NULL;
  if (query == NULL)
    query = &defaults;
  if (query->limit >= G_MAXINT32)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "a page holds at most %d rows", G_MAXINT32 - 1);
      return NULL;
    }
  if (query->page_token != NULL && (after = key_from_token (query->page_token, error)) == NULL)
    return NULL;
  if (query->filter != NULL && (filter = hbase_filter_to_bytes (query->filter, error)) == NULL)
    return NULL;
  options.range = query->range;
  options.after = after;
  options.limit = query->limit > 0 ? query->limit + 1 : 0;
  options.caching = query->limit > 0 ? MIN (query->limit + 1, 1000) : 0;
  options.read.columns = query->columns;
  /* the filter itself: its rendering on the Thrift2 backend, HBase's
   * filter messages on the native one */
  options.read.typed_filter = query->filter;
  scanner = hbase_key_scanner_new (table, schema, &options, error);
  if (scanner == NULL)
    return NULL;
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  while (hbase_key_scanner_next (scanner, &row, cancellable, &local) && row != NULL)
    {
      if (query->limit > 0 && rows->len == query->limit)
        {
          /* there is more: the token resumes after the page's last row */
          if (next_page_token != NULL)
            *next_page_token = token_from_key (hbase_row_get_key (rows->pdata[rows->len - 1]),
                                               hbase_key_schema_get_n_buckets (schema) > 0 ? 1 : 0);
          hbase_row_unref (row);
          break;
        }
      g_ptr_array_add (rows, row);
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      if (next_page_token != NULL)
        g_clear_pointer (next_page_token, g_free);
      return NULL;
    }
  return g_steal_pointer (&rows);
}
