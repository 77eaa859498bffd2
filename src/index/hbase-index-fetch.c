/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-fetch.c: the candidate rows of a query fetched from HBase
 * (get-multiple batches on up to FETCH_THREADS threads), each checked
 * against the query again, and read repair of the rows whose entries were
 * found stale. */
#include "config.h"

#include "hbase-index-query-private.h"

/* The columns to read: the requested ones and every indexed column (to
 * check the rows and repair their entries); NULL for whole rows. */
char **
_hbase_index_read_columns (IndexCore *core, const char *const *requested)
{
  GStrvBuilder *builder;
  g_auto(GStrv) indexed = NULL;
  char **columns;

  if (requested == NULL)
    return NULL;
  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) requested);
  indexed = _hbase_index_columns (core->spec);
  g_strv_builder_addv (builder, (const char **) indexed);
  columns = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return columns;
}

/* One get-multiple of a fetch. */
typedef struct {
  GPtrArray *keys;
  GPtrArray *rows;
  GError *error;
} Fetch;

/* The get-multiples of a fetch, taken in turn by up to FETCH_THREADS
 * workers: no worker waits for another's batch (no rounds). */
typedef struct {
  HBaseTable *table;
  const char *const *columns;
  GCancellable *cancellable;
  Fetch *fetches;
  guint n_fetches;
  gint next;              /* the next fetch to take (atomic) */
  gint failed;            /* set once one failed: the others stop (atomic) */
} FetchWork;

static gpointer
fetch_worker (gpointer data)
{
  FetchWork *work = data;
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  guint f;

  read.columns = work->columns;
  while (!g_atomic_int_get (&work->failed) &&
         (f = (guint) g_atomic_int_add (&work->next, 1)) < work->n_fetches)
    {
      Fetch *fetch = &work->fetches[f];

      fetch->rows = hbase_table_get_multiple (work->table, fetch->keys, &read, work->cancellable,
                                              &fetch->error);
      if (fetch->rows == NULL)
        g_atomic_int_set (&work->failed, 1);
    }
  return NULL;
}

#define FETCH_THREADS 4

/* The rows of @keys, in order, @batch_rows per get-multiple, up to
 * FETCH_THREADS of them at once. */
static GPtrArray *
fetch_all (QueryCtx *ctx, GPtrArray *keys, guint batch_rows, const char *const *columns,
           GCancellable *cancellable, GError **error)
{
  FetchWork work = { ctx->core->plain, columns, cancellable, NULL, 0, 0, 0 };
  GThread *threads[FETCH_THREADS] = { NULL };
  guint n_threads;
  GPtrArray *rows = g_ptr_array_new_full (keys->len, (GDestroyNotify) hbase_row_unref);
  GError *first_error = NULL;

  work.n_fetches = (keys->len + batch_rows - 1) / batch_rows;
  work.fetches = g_new0 (Fetch, MAX (work.n_fetches, 1));
  for (guint f = 0; f < work.n_fetches; f++)
    {
      work.fetches[f].keys = g_ptr_array_new ();
      for (guint i = f * batch_rows; i < keys->len && i < (f + 1) * batch_rows; i++)
        g_ptr_array_add (work.fetches[f].keys, g_ptr_array_index (keys, i));
    }
  n_threads = MIN (work.n_fetches, FETCH_THREADS);
  if (n_threads <= 1)
    fetch_worker (&work);
  else
    {
      for (guint t = 0; t < n_threads; t++)
        threads[t] = g_thread_new ("hbase-index-fetch", fetch_worker, &work);
      for (guint t = 0; t < n_threads; t++)
        g_thread_join (threads[t]);
    }
  for (guint f = 0; f < work.n_fetches; f++)
    {
      Fetch *fetch = &work.fetches[f];

      if (fetch->rows != NULL && first_error == NULL)
        for (guint i = 0; i < fetch->rows->len; i++)
          g_ptr_array_add (rows, hbase_row_ref (g_ptr_array_index (fetch->rows, i)));
      else if (fetch->error != NULL && first_error == NULL)
        first_error = g_steal_pointer (&fetch->error);
      g_clear_error (&fetch->error);
      g_clear_pointer (&fetch->rows, g_ptr_array_unref);
      g_ptr_array_unref (fetch->keys);
    }
  g_free (work.fetches);
  if (first_error != NULL)
    {
      g_propagate_error (error, first_error);
      g_ptr_array_unref (rows);
      return NULL;
    }
  return rows;
}

/* Read repair of rows a query found stale: each is read again after a
 * snapshot of its record (a write of the row pending then, or started
 * after, makes the repair only add, never remove), and corrected when
 * still stale. */
static void
repair_stale (QueryCtx *ctx, Node *root, GPtrArray *stale, GCancellable *cancellable)
{
  g_autoptr(GPtrArray) all_snapshots = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) snapshots = g_ptr_array_new ();
  g_autoptr(GPtrArray) still = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) columns = _hbase_index_columns (ctx->core->spec);
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  guint repaired = 0;

  all_snapshots = _hbase_index_snapshot_rows (ctx->core, stale, FALSE, &error);
  read.columns = (const char *const *) columns;
  if (all_snapshots != NULL)
    rows = hbase_table_get_multiple (ctx->core->plain, stale, &read, cancellable, &error);
  if (rows == NULL)
    {
      g_debug ("index of %s: read repair failed: %s", ctx->core->table_name, error->message);
      return;
    }
  for (guint i = 0; i < rows->len; i++)
    {
      HBaseRow *row = g_ptr_array_index (rows, i);

      if (!hbase_row_is_empty (row) && _hbase_index_node_matches_row (root, row))
        continue;   /* written meanwhile: it matches now */
      g_ptr_array_add (keys, g_ptr_array_index (stale, i));
      g_ptr_array_add (still, row);
      g_ptr_array_add (snapshots, g_ptr_array_index (all_snapshots, i));
    }
  if (keys->len > 0 &&
      !_hbase_index_repair_rows (ctx->core, keys, still, snapshots, NULL, FALSE, &repaired, NULL,
                                 &error))
    g_debug ("index of %s: read repair failed: %s", ctx->core->table_name, error->message);
  ctx->stats.repaired += repaired;
}

/* Fetches @keys, keeps the rows that match (up to @max in @into), and
 * repairs the entries of the others. */
gboolean
_hbase_index_fetch_rows (QueryCtx *ctx, Node *root, GPtrArray *keys, const char *const *columns,
                         guint batch_rows, GPtrArray *into, guint max, GBytes **last,
                         GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) stale = g_ptr_array_new ();

  rows = fetch_all (ctx, keys, batch_rows, columns, cancellable, error);
  if (rows == NULL)
    return FALSE;
  ctx->stats.fetched += rows->len;
  for (guint i = 0; i < rows->len; i++)
    {
      HBaseRow *row = g_ptr_array_index (rows, i);

      if (!hbase_row_is_empty (row) && _hbase_index_node_matches_row (root, row))
        {
          if (into->len < max)
            {
              g_ptr_array_add (into, hbase_row_ref (row));
              *last = g_ptr_array_index (keys, i);
            }
          continue;
        }
      ctx->stats.stale++;
      g_ptr_array_add (stale, g_ptr_array_index (keys, i));
    }
  /* best effort: the answer is right either way */
  if (stale->len > 0)
    repair_stale (ctx, root, stale, cancellable);
  return TRUE;
}
