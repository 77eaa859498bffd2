/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-hooks.c: the write hooks that maintain the index.
 *
 * Every write of the indexed table handle goes through two hooks:
 *  - before: the entries of the values the write sets are added to Redis
 *    and the change is recorded as pending in each row's record (one Lua
 *    call for the whole write, pipelined with nothing else);
 *  - after: the outcome is stored once for the write (rows whose change
 *    needs no cleanup settle lazily from it), and the rows that had other
 *    values, overlapping writers or values known only now (increments,
 *    appends) are settled at once: stale entries removed.
 * See docs/index-consistency.md. */
#include "config.h"

#include <string.h>

#include "hbase-index-hooks-private.h"

/* --- the write hooks ------------------------------------------------------------------------ */

/* The entries of every value a write sets, grouped by key: the keys of
 * exact sets with their members (row keys), and per indexed column its
 * sorted set's entry, row pairs. */
typedef struct {
  GHashTable *sets;       /* GBytes key -> GPtrArray of GBytes rows */
  GPtrArray *set_order;   /* GBytes keys, first seen first */
  GPtrArray **zsets;      /* per column: IndexEntry, GBytes row, ... */
  guint n_columns;
} Adds;

static void
adds_clear (Adds *adds)
{
  g_hash_table_unref (adds->sets);
  g_ptr_array_unref (adds->set_order);
  for (guint c = 0; c < adds->n_columns; c++)
    g_clear_pointer (&adds->zsets[c], g_ptr_array_unref);
  g_free (adds->zsets);
}

static void
adds_collect (IndexCore *core, GPtrArray *rows, Adds *adds)
{
  adds->sets = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                      (GDestroyNotify) g_ptr_array_unref);
  adds->set_order = g_ptr_array_new ();
  adds->n_columns = core->spec->columns->len;
  adds->zsets = g_new0 (GPtrArray *, adds->n_columns);
  for (guint r = 0; r < rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (rows, r);

      for (guint o = 0; o < change->ops->len; o++)
        {
          RowOp *op = g_ptr_array_index (change->ops, o);
          guint c = 0;

          while (g_ptr_array_index (core->spec->columns, c) != op->column)
            c++;
          for (guint v = 0; v < op->vals->len; v++)
            {
              IndexEntry *entry = g_ptr_array_index (op->vals, v);

              if (strchr (entry->flags, 'x') != NULL)
                {
                  /* entries from the core's cache carry their key */
                  g_autoptr(GBytes) key = entry->exact_key != NULL
                                          ? g_bytes_ref (entry->exact_key)
                                          : _hbase_index_exact_key (core->base, op->column->name,
                                                                    entry->value);
                  GPtrArray *members = g_hash_table_lookup (adds->sets, key);

                  if (members == NULL)
                    {
                      members = g_ptr_array_new ();
                      /* the table's reference keeps the key alive */
                      g_hash_table_insert (adds->sets, g_bytes_ref (key), members);
                      g_ptr_array_add (adds->set_order, key);
                    }
                  g_ptr_array_add (members, change->row);
                }
              if (strchr (entry->flags, 'z') != NULL)
                {
                  if (adds->zsets[c] == NULL)
                    adds->zsets[c] = g_ptr_array_new ();
                  g_ptr_array_add (adds->zsets[c], entry);
                  g_ptr_array_add (adds->zsets[c], change->row);
                }
            }
        }
    }
}

static void
batch_zmember (RedisBatch *batch, IndexEntry *entry, GBytes *row)
{
  gsize key_len, row_len;
  const void *key = g_bytes_get_data (entry->sortkey, &key_len);
  const void *row_data = g_bytes_get_data (row, &row_len);

  _hbase_index_batch_arg2 (batch, key, key_len, row_data, row_len);
}

#define ADD_CHUNK 1000

/* The adds as SADD and ZADD commands of a pipeline. */
static void
adds_commands (IndexCore *core, RedisBatch *batch, Adds *adds)
{
  for (guint k = 0; k < adds->set_order->len; k++)
    {
      GBytes *key = g_ptr_array_index (adds->set_order, k);
      GPtrArray *members = g_hash_table_lookup (adds->sets, key);

      for (guint m = 0; m < members->len; m++)
        {
          if (m % ADD_CHUNK == 0)
            {
              _hbase_index_batch_command (batch);
              _hbase_index_batch_str (batch, "SADD");
              _hbase_index_batch_bytes (batch, key);
            }
          _hbase_index_batch_bytes (batch, g_ptr_array_index (members, m));
        }
    }
  for (guint c = 0; c < adds->n_columns; c++)
    {
      g_autofree char *key = NULL;

      if (adds->zsets[c] == NULL)
        continue;
      key = _hbase_index_range_key (core->base,
                                    ((IndexColumn *) g_ptr_array_index (core->spec->columns, c))->name);
      for (guint m = 0; m < adds->zsets[c]->len; m += 2)
        {
          IndexEntry *entry = g_ptr_array_index (adds->zsets[c], m);

          if (m % (2 * ADD_CHUNK) == 0)
            {
              _hbase_index_batch_command (batch);
              _hbase_index_batch_str (batch, "ZADD");
              _hbase_index_batch_str (batch, key);
            }
          _hbase_index_batch_str (batch, entry->score);
          batch_zmember (batch, entry, g_ptr_array_index (adds->zsets[c], m + 1));
        }
    }
}

/* The adds as the Lua script's "before" takes them. */
static void
adds_section (IndexCore *core, RedisBatch *batch, Adds *adds)
{
  guint n_zsets = 0;

  _hbase_index_batch_uint (batch, adds->set_order->len);
  for (guint k = 0; k < adds->set_order->len; k++)
    {
      GBytes *key = g_ptr_array_index (adds->set_order, k);
      GPtrArray *members = g_hash_table_lookup (adds->sets, key);

      _hbase_index_batch_bytes (batch, key);
      _hbase_index_batch_uint (batch, members->len);
      for (guint m = 0; m < members->len; m++)
        _hbase_index_batch_bytes (batch, g_ptr_array_index (members, m));
    }
  for (guint c = 0; c < adds->n_columns; c++)
    n_zsets += adds->zsets[c] != NULL;
  _hbase_index_batch_uint (batch, n_zsets);
  for (guint c = 0; c < adds->n_columns; c++)
    {
      g_autofree char *key = NULL;

      if (adds->zsets[c] == NULL)
        continue;
      key = _hbase_index_range_key (core->base,
                                    ((IndexColumn *) g_ptr_array_index (core->spec->columns, c))->name);
      _hbase_index_batch_str (batch, key);
      _hbase_index_batch_uint (batch, adds->zsets[c]->len);
      for (guint m = 0; m < adds->zsets[c]->len; m += 2)
        {
          IndexEntry *entry = g_ptr_array_index (adds->zsets[c], m);

          _hbase_index_batch_str (batch, entry->score);
          batch_zmember (batch, entry, g_ptr_array_index (adds->zsets[c], m + 1));
        }
    }
}

static char *
new_token (IndexCore *core)
{
  return g_strdup_printf ("%s.%" G_GINT64_FORMAT, core->token_prefix,
                          (gint64) g_atomic_pointer_add (&core->token_counter, 1));
}

static gboolean
row_has_unknown (RowChange *change)
{
  for (guint o = 0; o < change->ops->len; o++)
    if (((RowOp *) g_ptr_array_index (change->ops, o))->unknown)
      return TRUE;
  return FALSE;
}

static gboolean
on_redis_down (IndexCore *core, GError *redis_error, GCancellable *cancellable, GError **error)
{
  g_autoptr(GError) local = redis_error;
  g_autoptr(GError) mark_error = NULL;
  g_autofree char *reason = NULL;

  if (core->on_redis_down == HBASE_INDEX_REDIS_DOWN_FAIL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local),
                                  "not written: the index of %s could not be updated: ",
                                  core->table_name);
      return FALSE;
    }
  reason = g_strdup_printf ("a write went through without its index entries: %s", local->message);
  if (_hbase_index_mark_dirty (core, reason, cancellable, &mark_error))
    return TRUE;
  g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
               "not written: the index of %s could not be updated (%s) nor marked dirty (%s)",
               core->table_name, local->message, mark_error->message);
  return FALSE;
}

/* The Lua "before" for @rows (RowChange), @adds the entries of the values
 * written.  Sets each row's eager flag and @gen (nullable); FALSE with
 * @error when Redis failed or refused. */
static gboolean
lua_before (IndexCore *core, GPtrArray *rows, const char *token, Adds *adds, char **gen,
            GError **error)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(redisReply) reply = NULL;

  _hbase_index_batch_script (batch, core->base, "before");
  _hbase_index_batch_str (batch, token);
  _hbase_index_batch_uint (batch, core->lease_ms);
  _hbase_index_batch_str (batch, core->version);
  _hbase_index_batch_uint (batch, rows->len);
  for (guint r = 0; r < rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (rows, r);
      g_autoptr(GByteArray) written = _hbase_index_written_bytes (change);

      _hbase_index_batch_bytes (batch, change->row);
      _hbase_index_batch_str (batch, row_has_unknown (change) ? "u" : "");
      _hbase_index_batch_arg (batch, written->data, written->len);
      _hbase_index_batch_ops (batch, change);
    }
  adds_section (core, batch, adds);
  reply = _hbase_index_redis_command (core->pool, batch, error);
  if (reply == NULL)
    return FALSE;
  {
    g_autofree gboolean *eager = g_new0 (gboolean, rows->len + 1);
    g_autofree char *got_gen = NULL;

    if (!_hbase_index_parse_before (reply, rows->len, eager, &got_gen, error))
      return FALSE;
    for (guint r = 0; r < rows->len; r++)
      ((RowChange *) g_ptr_array_index (rows, r))->eager = eager[r];
    if (gen != NULL)
      *gen = g_steal_pointer (&got_gen);
  }
  return TRUE;
}

gboolean
_hbase_index_parse_before (redisReply *reply, guint n_rows, gboolean *eager, char **gen,
                           GError **error)
{
  const char *flags;

  if (!_hbase_index_reply_array (reply, "the index script (before)", 2, 2, REPLY_STRING, error))
    return FALSE;
  if (reply->element[1]->len != n_rows)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "unexpected reply of Redis to the index script (before): expected a flag for "
                   "each of %u rows, got %zu", n_rows, reply->element[1]->len);
      return FALSE;
    }
  flags = reply->element[1]->str;
  for (guint r = 0; r < n_rows; r++)
    eager[r] = flags[r] == '1';
  *gen = g_strndup (reply->element[0]->str, MIN (reply->element[0]->len, 64));
  return TRUE;
}

/* Writes of more rows take the pipeline: rows the index has no record of
 * (inserts) need no script. */
#define PIPELINE_MIN_ROWS 8

/* The pipeline "before": each row's record created if it has none
 * (HSETNX, atomic per row), then the entries of every value written; rows
 * that had a record go through the Lua "before".  The record comes first
 * so that a repair meeting the new entries always sees the write pending
 * (and only adds); the Lua step adds its rows' entries again, since one
 * a concurrent write removed in between (it was a stale value then) would
 * otherwise be recorded without being in the sets.  Sets @gen; FALSE with
 * @error. */
static gboolean
pipeline_before (IndexCore *core, GPtrArray *rows, const char *token, char **gen, GError **error)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;
  g_autoptr(GPtrArray) slow = g_ptr_array_new ();
  double deadline = (double) (_hbase_index_pool_redis_now_ms (core->pool) + core->lease_ms);
  g_autofree gboolean *created = NULL;
  guint first_record;
  gboolean ok;
  Adds adds;

  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "HMGET");
  _hbase_index_batch_str (batch, core->key_state);
  _hbase_index_batch_str (batch, "version");
  _hbase_index_batch_str (batch, "gen");
  first_record = _hbase_index_batch_n_commands (batch);
  for (guint r = 0; r < rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (rows, r);
      g_autoptr(GByteArray) record = _hbase_index_fresh_record (change, token, deadline);

      _hbase_index_batch_command (batch);
      _hbase_index_batch_str (batch, "HSETNX");
      _hbase_index_batch_str (batch, core->key_rec);
      _hbase_index_batch_bytes (batch, change->row);
      _hbase_index_batch_arg (batch, record->data, record->len);
    }
  adds_collect (core, rows, &adds);
  adds_commands (core, batch, &adds);
  adds_clear (&adds);
  for (guint r = 0; r < rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (rows, r);
      char score[32];

      if (!row_has_unknown (change))
        continue;
      g_snprintf (score, sizeof score, "%.0f", deadline);
      _hbase_index_batch_command (batch);
      _hbase_index_batch_str (batch, "ZADD");
      _hbase_index_batch_str (batch, core->key_fix);
      _hbase_index_batch_str (batch, "LT");
      _hbase_index_batch_str (batch, score);
      _hbase_index_batch_bytes (batch, change->row);
    }
  replies = _hbase_index_redis_run (core->pool, batch, error);
  if (replies == NULL)
    return FALSE;
  created = g_new0 (gboolean, rows->len + 1);
  if (!_hbase_index_parse_pipeline_before (replies, first_record, rows->len, core->version, gen,
                                           created, error))
    return FALSE;
  for (guint r = 0; r < rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (rows, r);

      if (created[r])
        change->eager = row_has_unknown (change);
      else
        g_ptr_array_add (slow, change);
    }
  if (slow->len == 0)
    return TRUE;
  adds_collect (core, slow, &adds);
  ok = lua_before (core, slow, token, &adds, NULL, error);
  adds_clear (&adds);
  return ok;
}

gboolean
_hbase_index_parse_pipeline_before (GPtrArray *replies, guint first_record, guint n_rows,
                                    const char *version, char **gen, gboolean *created, GError **error)
{
  redisReply *state;

  if (replies->len < first_record + n_rows)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "Redis answered %u commands of %u", replies->len, first_record + n_rows);
      return FALSE;
    }
  /* the replies of the entries' SADD and ZADD are counts, not used */
  for (guint i = first_record + n_rows; i < replies->len; i++)
    if (!_hbase_index_reply_integer (g_ptr_array_index (replies, i), "SADD or ZADD", NULL, error))
      return FALSE;
  state = g_ptr_array_index (replies, 0);
  if (!_hbase_index_reply_array (state, "HMGET", 2, 2, REPLY_STRING | REPLY_NIL, error))
    return FALSE;
  for (guint r = 0; r < n_rows; r++)
    {
      long long value = 0;

      if (!_hbase_index_reply_integer (g_ptr_array_index (replies, first_record + r), "HSETNX",
                                       &value, error))
        return FALSE;
      created[r] = value == 1;
    }
  if (state->element[0]->type == REDIS_REPLY_STRING && strcmp (state->element[0]->str, version) != 0)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_CHANGED,
                   "the index definitions changed since this client opened the index");
      return FALSE;
    }
  *gen = state->element[1]->type == REDIS_REPLY_STRING
           ? g_strndup (state->element[1]->str, MIN (state->element[1]->len, 64))
           : g_strdup ("0");
  return TRUE;
}

/* Stores "not applied" for a write refused after its index changes were
 * (perhaps) recorded, so that they settle at once (best effort). */
static void
abandon_write (IndexCore *core, const char *token)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;
  g_autofree char *key = g_strdup_printf ("%s:t:%s", core->base, token);

  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "SET");
  _hbase_index_batch_str (batch, key);
  _hbase_index_batch_str (batch, "N");
  _hbase_index_batch_str (batch, "PX");
  _hbase_index_batch_uint (batch, 2 * (guint64) core->lease_ms + 60000);
  replies = _hbase_index_redis_run (core->pool, batch, NULL);
}

static gboolean
hook_before (HBaseTable *table, GPtrArray *mutations, gpointer user_data,
             GCancellable *cancellable, GError **error)
{
  IndexCore *core = user_data;
  g_autoptr(GPtrArray) rows = _hbase_index_compute_changes (core, mutations);
  g_autofree char *token = NULL;
  g_autofree char *gen = NULL;
  GError *local = NULL;
  gboolean ok;
  CallState *state;

  if (rows->len == 0)
    return TRUE;
  token = new_token (core);
  if (rows->len >= PIPELINE_MIN_ROWS)
    ok = pipeline_before (core, rows, token, &gen, &local);
  else
    {
      Adds adds;

      adds_collect (core, rows, &adds);
      ok = lua_before (core, rows, token, &adds, &gen, &local);
      adds_clear (&adds);
    }
  if (!ok)
    {
      if (g_error_matches (local, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_CHANGED))
        {
          abandon_write (core, token);
          g_propagate_prefixed_error (error, local, "not written: index of %s: ", core->table_name);
          return FALSE;
        }
      if (core->on_redis_down == HBASE_INDEX_REDIS_DOWN_FAIL)
        abandon_write (core, token);
      return on_redis_down (core, local, cancellable, error);
    }
  state = g_new0 (CallState, 1);
  state->token = g_steal_pointer (&token);
  state->rows = g_steal_pointer (&rows);
  state->gen = g_steal_pointer (&gen);
  g_mutex_lock (&core->lock);
  g_hash_table_insert (core->calls, mutations, state);
  g_mutex_unlock (&core->lock);
  return TRUE;
}

static char
outcome_char (HBaseWriteOutcome outcome)
{
  return outcome == _HBASE_WRITE_APPLIED ? 'A' : outcome == _HBASE_WRITE_NOT_APPLIED ? 'N' : 'U';
}

static void
learn_from_row (IndexCore *core, RowChange *change, HBaseRow *row)
{
  for (guint o = 0; o < change->ops->len; o++)
    {
      RowOp *op = g_ptr_array_index (change->ops, o);
      const HBaseCell *cell;

      if (!op->unknown || op->resolved)
        continue;
      cell = row != NULL ? hbase_row_lookup_cell_bytes (row, op->column->family_bytes,
                                                        op->column->qualifier_bytes) : NULL;
      if (cell != NULL)
        {
          GBytes *value = hbase_cell_get_value (cell);

          if (op->res == NULL)
            op->res = g_ptr_array_new_with_free_func (_hbase_index_entry_free);
          _hbase_index_entries_add (op->res, _hbase_index_entry_new (op->column, g_bytes_get_data (value, NULL),
                                                                     g_bytes_get_size (value)));
        }
      op->resolved = TRUE;
    }
}

/* Values known only after the write: from the row an increment or append
 * returned, else read from HBase. */
static void
learn_values (IndexCore *core, CallState *state, HBaseRow *result)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) wanted = g_ptr_array_new ();
  g_autoptr(GPtrArray) read = NULL;
  g_auto(GStrv) columns = NULL;
  HBaseReadOptions options = HBASE_READ_OPTIONS_INIT;

  for (guint r = 0; r < state->rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (state->rows, r);

      if (!row_has_unknown (change) || change->outcome == _HBASE_WRITE_NOT_APPLIED)
        continue;
      if (result != NULL && change->outcome == _HBASE_WRITE_APPLIED &&
          g_bytes_equal (change->row, hbase_row_get_key (result)))
        learn_from_row (core, change, result);
      else
        {
          g_ptr_array_add (keys, change->row);
          g_ptr_array_add (wanted, change);
        }
    }
  if (keys->len == 0)
    return;
  columns = _hbase_index_columns (core->spec);
  options.columns = (const char *const *) columns;
  read = hbase_table_get_multiple (core->plain, keys, &options, NULL, NULL);
  /* when the read fails the values stay unknown: the rows are repaired
   * from the fix set */
  for (guint i = 0; read != NULL && i < read->len && i < wanted->len; i++)
    learn_from_row (core, g_ptr_array_index (wanted, i), g_ptr_array_index (read, i));
}

static void
batch_after (IndexCore *core, RedisBatch *batch, CallState *state, char default_outcome,
             gboolean all_rows)
{
  guint n = 0;

  for (guint r = 0; r < state->rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (state->rows, r);

      n += all_rows || change->eager;
    }
  _hbase_index_batch_script (batch, core->base, "after");
  _hbase_index_batch_str (batch, state->token);
  _hbase_index_batch_uint (batch, core->lease_ms);
  _hbase_index_batch_uint (batch, 2 * (guint64) core->lease_ms + 60000);
  _hbase_index_batch_str (batch, state->gen);
  if (default_outcome != 0)
    _hbase_index_batch_arg (batch, &default_outcome, 1);
  else
    _hbase_index_batch_str (batch, "");
  _hbase_index_batch_str (batch, all_rows ? "1" : "0");
  _hbase_index_batch_uint (batch, n);
  for (guint r = 0; r < state->rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (state->rows, r);
      char outcome = outcome_char (change->outcome);

      if (!all_rows && !change->eager)
        continue;
      _hbase_index_batch_bytes (batch, change->row);
      _hbase_index_batch_arg (batch, &outcome, 1);
      _hbase_index_batch_ops (batch, change);
      _hbase_index_batch_learned (batch, change);
    }
}

static void
hook_after (HBaseTable *table, GPtrArray *mutations, const HBaseWriteOutcome *outcomes,
            HBaseRow *result, gpointer user_data)
{
  IndexCore *core = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(redisReply) reply = NULL;
  CallState *state = NULL;
  gboolean same = TRUE, unknown = FALSE;
  char default_outcome = 0;
  gboolean gen_changed = FALSE;

  g_mutex_lock (&core->lock);
  g_hash_table_steal_extended (core->calls, mutations, NULL, (gpointer *) &state);
  g_mutex_unlock (&core->lock);
  if (state == NULL)
    return;   /* nothing indexed, or written while Redis was down */

  for (guint r = 0; r < state->rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (state->rows, r);

      change->outcome = outcomes[g_array_index (change->mutations, guint, 0)];
      for (guint m = 1; m < change->mutations->len; m++)
        if (outcomes[g_array_index (change->mutations, guint, m)] != change->outcome)
          change->outcome = _HBASE_WRITE_UNKNOWN;   /* partly applied */
      if (row_has_unknown (change))
        {
          unknown = TRUE;
          change->eager = TRUE;
        }
      if (r > 0 && change->outcome != ((RowChange *) g_ptr_array_index (state->rows, 0))->outcome)
        same = FALSE;
    }
  if (unknown)
    learn_values (core, state, result);
  if (same)
    default_outcome = outcome_char (((RowChange *) g_ptr_array_index (state->rows, 0))->outcome);

  {
    g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();

    batch_after (core, batch, state, default_outcome, default_outcome == 0);
    reply = _hbase_index_redis_command (core->pool, batch, &error);
  }
  if (reply != NULL && !_hbase_index_parse_after (reply, &gen_changed, &error))
    g_clear_pointer (&reply, freeReplyObject);
  if (reply != NULL && gen_changed)
    {
      /* the index was cleared (rebuilt) meanwhile: settle every row */
      g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();

      g_clear_pointer (&reply, freeReplyObject);
      batch_after (core, batch, state, default_outcome, TRUE);
      reply = _hbase_index_redis_command (core->pool, batch, &error);
      if (reply != NULL && !_hbase_index_parse_after (reply, &gen_changed, &error))
        g_clear_pointer (&reply, freeReplyObject);
    }
  if (reply == NULL)
    {
      /* the entries written before stay (a superset, so queries stay
       * right) and settle at the end of the lease; values learned only
       * now could not be indexed: the index may miss them */
      if (unknown)
        {
          g_autofree char *reason = g_strdup_printf ("values learned after a write could not be "
                                                     "indexed: %s", error->message);
          g_autoptr(GError) mark_error = NULL;

          if (!_hbase_index_mark_dirty (core, reason, NULL, &mark_error))
            g_warning ("index of %s: %s, and it could not be marked dirty: %s",
                       core->table_name, reason, mark_error->message);
        }
      else
        g_debug ("index of %s: write outcome not recorded (%s); it settles when its lease ends",
                 core->table_name, error->message);
    }
  _hbase_index_call_state_free (state);
}

gboolean
_hbase_index_parse_after (redisReply *reply, gboolean *gen_changed, GError **error)
{
  const char *text;
  gsize len;

  if (!_hbase_index_reply_string (reply, "the index script (after)", FALSE, TRUE, &text, &len, error))
    return FALSE;
  *gen_changed = len == 3 && memcmp (text, "GEN", 3) == 0;
  if (!*gen_changed && !(len == 2 && memcmp (text, "OK", 2) == 0))
    {
      g_autofree char *said = _hbase_index_sanitise (text, len);

      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "unexpected reply of Redis to the index script (after): expected OK or GEN, "
                   "got \"%s\"", said);
      return FALSE;
    }
  return TRUE;
}

const HBaseTableWriteHooks _hbase_index_write_hooks = { hook_before, hook_after };
