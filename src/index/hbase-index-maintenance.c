/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-maintenance.c: the maintenance of an index: verify (compare
 * it with the table, see hbase-index-verify.c), rebuild (clear and refill
 * from a scan, with concurrent writers), repair (verify, then correct the
 * rows found wrong; rebuild when Redis lost the index) and drop. */
#include "config.h"

#include <string.h>

#include "hbase-index-maintenance-private.h"
#include "../table/hbase-table-private.h"

/* --- verify, rebuild, repair ------------------------------------------------------------------- */

void
_hbase_index_progress (Work *work)
{
  HBaseIndexProgress state = { .phase = NULL };

  if (work->options->progress == NULL)
    return;
  state.phase = work->phase;
  state.rows = work->report->rows;
  state.entries = work->report->entries;
  state.missing = work->report->missing;
  state.extra = work->report->extra;
  work->options->progress (&state, work->options->user_data);
}

static void
work_init (Work *work, HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
           HBaseIndexMaintenanceOptions *defaults)
{
  memset (work, 0, sizeof *work);
  if (options == NULL)
    {
      HBaseIndexMaintenanceOptions init = HBASE_INDEX_MAINTENANCE_OPTIONS_INIT;

      *defaults = init;
      options = defaults;
    }
  work->core = index->core;
  work->options = options;
  work->report = _hbase_index_report_new ();
  work->batch_rows = options->batch_rows != 0 ? options->batch_rows : 1000;
  work->max_examples = options->max_examples != 0 ? options->max_examples : 20;
  work->reported = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                          NULL);
}

static void
work_clear (Work *work)
{
  g_clear_pointer (&work->fix, g_hash_table_unref);
  g_clear_pointer (&work->reported, g_hash_table_unref);
  hbase_index_report_free (work->report);
}

/* Runs one maintenance pass (verify, rebuild, repair) with its report. */
static HBaseIndexReport *
run_pass (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
          gboolean (*pass) (Work *, GCancellable *, GError **), GCancellable *cancellable,
          GError **error)
{
  HBaseIndexMaintenanceOptions defaults;
  Work work;
  HBaseIndexReport *report = NULL;

  work_init (&work, index, options, &defaults);
  if (pass (&work, cancellable, error))
    report = g_steal_pointer (&work.report);
  work_clear (&work);
  return report;
}

/**
 * hbase_index_verify:
 * @index: an index
 * @options: (nullable): progress, batch size; %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Compares the index with the table: scans HBase and checks that every
 * value has its entries (missing), then walks Redis and checks that every
 * entry's row has that value (extra).  Changes nothing.  With writes going
 * on, rows written meanwhile may show as discrepancies; rows with changes
 * in flight are counted as in doubt.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error
 *
 * Since: 0.1
 */
HBaseIndexReport *
hbase_index_verify (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
                    GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (_hbase_index_is_opened (index), NULL);
  return run_pass (index, options, _hbase_index_verify, cancellable, error);
}

static gboolean
each_key_to_delete (Work *work, GBytes *key, redisReply *elements, GPtrArray *claims,
                    GError **error)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;

  if (elements->elements == 0)
    return TRUE;
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "UNLINK");
  for (size_t i = 0; i < elements->elements; i++)
    _hbase_index_batch_arg (batch, elements->element[i]->str, elements->element[i]->len);
  replies = _hbase_index_redis_run (work->core->pool, batch, error);
  return replies != NULL && _hbase_index_reply_integer (g_ptr_array_index (replies, 0), "UNLINK", NULL, error);
}

/* Deletes the index's keys but its state and write counter and starts a
 * new generation, atomically (the script's "clear"). */
static gboolean
clear_keys (Work *work, GError **error)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(redisReply) reply = NULL;
  g_autofree char *match = _hbase_index_key_pattern (work->core->base, NULL);

  _hbase_index_batch_script (batch, work->core->base, "clear");
  _hbase_index_batch_str (batch, match);
  reply = _hbase_index_redis_command (work->core->pool, batch, error);
  return reply != NULL && _hbase_index_reply_integer (reply, "the index script (clear)", NULL, error);
}

/* Deletes every key of the index, its state included (hbase_index_drop()). */
static gboolean
delete_keys (Work *work, GCancellable *cancellable, GError **error)
{
  g_autofree char *match = _hbase_index_key_pattern (work->core->base, NULL);

  return _hbase_index_walk (work, "SCAN", NULL, match, each_key_to_delete, NULL, cancellable, error);
}

static gboolean
add_rows (Work *work, GPtrArray *rows, GError **error)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();

  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr(GPtrArray) entries = _hbase_index_row_entries (work->core->spec,
                                                               g_ptr_array_index (rows, i));

      g_ptr_array_add (keys, hbase_row_get_key (g_ptr_array_index (rows, i)));
      work->report->entries += entries->len;
    }
  work->report->rows += rows->len;
  return _hbase_index_repair_rows (work->core, keys, rows, NULL, NULL, FALSE, NULL, NULL, error);
}

/* The same Redis process as @run_id (captured at the start) answers:
 * what was written meanwhile is still there. */
static gboolean
same_redis (Work *work, const char *run_id, GError **error)
{
  g_autofree char *now = _hbase_index_pool_run_id (work->core->pool);

  if (g_strcmp0 (now, run_id) == 0)
    return TRUE;
  g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
               "Redis restarted during the %s: run it again", work->phase);
  return FALSE;
}

static gboolean
rebuild (Work *work, GCancellable *cancellable, GError **error)
{
  IndexCore *core = work->core;
  g_autofree char *mark = NULL;
  g_autofree char *run_id = NULL;
  gboolean cleared = FALSE;

  if (!_hbase_index_read_dirty_mark (core, TRUE, &mark, cancellable, error) ||
      !_hbase_index_set_state (core, "building", FALSE, error))
    return FALSE;
  run_id = _hbase_index_pool_run_id (core->pool);
  work->phase = "clear";
  /* one atomic step with the new generation (the "clear" of the script),
   * not a walk over the keys: writers run meanwhile */
  if (!clear_keys (work, error))
    return FALSE;
  _hbase_index_progress (work);
  /* writers go on meanwhile: their "after" sees the new generation and
   * settles their rows again; the scan adds what it reads */
  work->phase = "scan";
  if (!_hbase_index_scan_table (work, add_rows, cancellable, error))
    return FALSE;
  work->phase = "rebuild";
  if (!same_redis (work, run_id, error) || !_hbase_index_set_state (core, "ready", FALSE, error))
    return FALSE;
  work->report->rebuilt = TRUE;
  if (mark != NULL && !_hbase_index_clear_dirty_mark (core, mark, &cleared, cancellable, error))
    return FALSE;
  if (mark != NULL && !cleared)
    work->report->note = g_strdup ("the index was marked dirty again during the rebuild: "
                                   "repair it again");
  return TRUE;
}

/**
 * hbase_index_rebuild:
 * @index: an index
 * @options: (nullable): progress, batch size; %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Builds the index from scratch: marks it as being rebuilt (queries follow
 * the #HBaseIndexDirtyPolicy meanwhile), deletes its Redis keys, scans the
 * table and adds every row's entries, then marks it ready and clears the
 * dirty mark (unless a write marked it again meanwhile).  Indexed writes
 * may go on during a rebuild.  Needed after hbase_index_define() and when
 * Redis lost the index.
 *
 * Returns: (transfer full) (nullable): the report (rows and entries), or
 *   %NULL with @error
 *
 * Since: 0.1
 */
HBaseIndexReport *
hbase_index_rebuild (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
                     GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (_hbase_index_is_opened (index), NULL);
  return run_pass (index, options, rebuild, cancellable, error);
}

static gboolean
each_fix_member (Work *work, GBytes *key, redisReply *elements, GPtrArray *claims, GError **error)
{
  for (size_t i = 0; i + 1 < elements->elements; i += 2)
    {
      g_autoptr(GBytes) row = g_bytes_new (elements->element[i]->str, elements->element[i]->len);

      _hbase_index_fix_row (work, row);
    }
  return TRUE;
}

/* Repairs the rows in work->fix exactly; returns those left. */
static gboolean
fix_rows (Work *work, guint *left, GCancellable *cancellable, GError **error)
{
  IndexCore *core = work->core;
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) orphans = g_ptr_array_new ();
  g_auto(GStrv) columns = _hbase_index_columns (core->spec);
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  GHashTableIter iter;
  gpointer key, value;

  *left = 0;
  read.columns = (const char *const *) columns;
  g_hash_table_iter_init (&iter, work->fix);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_ptr_array_add (keys, key);
      g_ptr_array_add (orphans, value);
    }
  for (guint start = 0; start < keys->len; start += work->batch_rows)
    {
      g_autoptr(GPtrArray) chunk = g_ptr_array_new ();
      g_autoptr(GPtrArray) chunk_orphans = g_ptr_array_new ();
      g_autoptr(GPtrArray) snapshots = NULL;
      g_autoptr(GPtrArray) rows = NULL;
      g_autoptr(GString) results = g_string_new (NULL);
      guint repaired = 0;

      for (guint i = start; i < keys->len && i < start + work->batch_rows; i++)
        {
          g_ptr_array_add (chunk, g_ptr_array_index (keys, i));
          g_ptr_array_add (chunk_orphans, g_ptr_array_index (orphans, i));
        }
      snapshots = _hbase_index_snapshot_rows (core, chunk, work->options->assume_quiescent, error);
      if (snapshots == NULL)
        return FALSE;
      rows = hbase_table_get_multiple (core->plain, chunk, &read, cancellable, error);
      if (rows == NULL ||
          !_hbase_index_repair_rows (core, chunk, rows, snapshots, chunk_orphans,
                                     work->options->assume_quiescent, &repaired, results, error))
        return FALSE;
      work->report->repaired += repaired;
      for (guint i = 0; i < chunk->len; i++)
        if (i < results->len && results->str[i] == '1')
          g_hash_table_remove (work->fix, g_ptr_array_index (chunk, i));
      _hbase_index_progress (work);
    }
  *left = g_hash_table_size (work->fix);
  return TRUE;
}

static gboolean
repair (Work *work, GCancellable *cancellable, GError **error)
{
  IndexCore *core = work->core;
  g_autofree char *mark = NULL;
  g_autofree char *reason = NULL;
  g_autofree char *run_id = NULL;
  g_autoptr(GError) local = NULL;
  HBaseIndexState state;
  guint left = 0;

  /* Redis lost the index, or it was never (fully) built: rebuild */
  state = _hbase_index_usable (core, TRUE, &reason, cancellable, &local);
  if (local != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  if (state == HBASE_INDEX_STATE_UNREACHABLE)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS, "%s", reason);
      return FALSE;
    }
  if (state == HBASE_INDEX_STATE_NOT_BUILT || state == HBASE_INDEX_STATE_BUILDING)
    return rebuild (work, cancellable, error);
  /* otherwise (ready, dirty, or Redis restarted): verify and fix */

  run_id = _hbase_index_pool_run_id (core->pool);
  if (!_hbase_index_read_dirty_mark (core, TRUE, &mark, cancellable, error))
    return FALSE;
  work->fix = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                     (GDestroyNotify) g_ptr_array_unref);
  if (!_hbase_index_verify (work, cancellable, error))
    return FALSE;
  /* and the rows writers left to be read again */
  {
    g_autofree char *fix_key = g_strdup (core->key_fix);
    g_autoptr(GBytes) key = g_bytes_new (fix_key, strlen (fix_key));

    if (!_hbase_index_walk (work, "ZSCAN", key, NULL, each_fix_member, NULL, cancellable, error))
      return FALSE;
  }
  work->phase = "fix";
  for (guint attempt = 0; attempt < 5 && g_hash_table_size (work->fix) > 0; attempt++)
    {
      if (attempt > 0)
        g_usleep (100000 * attempt);   /* rows being written: try again shortly */
      if (!fix_rows (work, &left, cancellable, error))
        return FALSE;
    }
  work->report->in_doubt = left;
  if (left > 0)
    {
      work->report->note = g_strdup_printf ("%u rows have index changes in flight and were left "
                                            "as they are (they settle when their writers end or "
                                            "their lease does)", left);
      return TRUE;
    }
  /* checked against this Redis process */
  work->phase = "repair";
  if (!same_redis (work, run_id, error) || !_hbase_index_set_state (core, "ready", FALSE, error))
    return FALSE;
  if (mark != NULL)
    {
      gboolean cleared = FALSE;

      if (!_hbase_index_clear_dirty_mark (core, mark, &cleared, cancellable, error))
        return FALSE;
      if (!cleared)
        work->report->note = g_strdup ("the index was marked dirty again during the repair: "
                                       "repair it again");
    }
  return TRUE;
}

/**
 * hbase_index_repair:
 * @index: an index
 * @options: (nullable): progress, batch size, whether writes are known
 *   to be stopped; %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Makes the index equal to the table: when Redis lost the index (or it was
 * never built) it is rebuilt; otherwise it is verified and every row found
 * wrong (and every row left to be read again) is read from HBase and its
 * entries replaced, unless a write of the row is in flight.  Clears the
 * dirty mark when everything was repaired and no write marked it again
 * meanwhile.  The report gives what verify found and what was repaired.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error
 *
 * Since: 0.1
 */
HBaseIndexReport *
hbase_index_repair (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
                    GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (_hbase_index_is_opened (index), NULL);
  return run_pass (index, options, repair, cancellable, error);
}

/* Removes the table's index mark (a table dropped meanwhile has none). */
static gboolean
unmark (HBaseIndex *index, GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) local = NULL;

  if (_hbase_table_set_index_mark (index->core->plain, NULL, NULL, cancellable, &local) ||
      g_error_matches (local, HBASE_ERROR, HBASE_ERROR_NOT_FOUND))
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/* The table's definitions under its other spelling ("NAME" and
 * "default:NAME" are one table), if any: they would otherwise be read as
 * the index's definitions once these are deleted. */
static gboolean
drop_other_row (HBaseIndex *index, GCancellable *cancellable, GError **error)
{
  IndexCore *core = index->core;
  g_autofree char *normalized = _hbase_index_table_normalize (core->table_name);
  g_autofree char *legacy = _hbase_index_meta_legacy_row (core->table_name);
  const char *other = strcmp (core->meta_row, normalized) == 0 ? legacy : normalized;
  g_autoptr(GBytes) row = NULL;
  g_autoptr(HBaseMutation) remove = NULL;

  if (other == NULL || strcmp (other, core->meta_row) == 0)
    return TRUE;
  row = g_bytes_new (other, strlen (other));
  remove = hbase_mutation_new_delete (row);
  return hbase_table_apply (core->meta, remove, cancellable, error);
}

/**
 * hbase_index_drop:
 * @index: an index
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Deletes the index: every Redis key of it, its definitions in HBase and
 * the table's index mark (so plain handles may write to it again).  The
 * table's data is untouched.  Over framed transport it is refused with
 * %HBASE_ERROR_ILLEGAL_ARGUMENT before anything is deleted (see
 * hbase_index_define()).  Writes through @index's table fail
 * afterwards only if the table is indexed again; free @index.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_index_drop (HBaseIndex *index, GCancellable *cancellable, GError **error)
{
  HBaseIndexMaintenanceOptions defaults;
  Work work;
  gboolean ok;
  g_autoptr(GBytes) row = NULL;
  g_autoptr(HBaseMutation) remove = NULL;

  g_return_val_if_fail (_hbase_index_is_opened (index), FALSE);
  /* the mark cannot be removed over framed transport: refuse before
   * anything is deleted, not after the definitions and keys are gone */
  if (hbase_config_get_transport (hbase_client_get_config (index->core->client)) == HBASE_TRANSPORT_FRAMED)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "drop the index of table %s: not possible over framed transport (the HBase Thrift2 "
                   "gateway reads table attributes wrongly there, and the table's index mark must go); "
                   "use a buffered gateway", index->core->table_name);
      return FALSE;
    }
  work_init (&work, index, NULL, &defaults);
  work.phase = "drop";
  row = g_bytes_new (index->core->meta_row, strlen (index->core->meta_row));
  remove = hbase_mutation_new_delete (row);
  ok = hbase_table_apply (index->core->meta, remove, cancellable, error) &&
       drop_other_row (index, cancellable, error) &&
       delete_keys (&work, cancellable, error) &&
       unmark (index, cancellable, error);
  work_clear (&work);
  return ok;
}
