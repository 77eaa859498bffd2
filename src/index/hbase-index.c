/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index.c: opening an index (definitions stored in HBase), the
 * write hooks that maintain it, the dirty mark, and the helpers queries
 * and maintenance share (reading row records, repairing rows).
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
#include <unistd.h>

#include "hbase-index-private.h"
#include "../table/hbase-mutation-private.h"
#include "../table/hbase-table-private.h"

#define META_FAMILY "d"

/* --- the core ---------------------------------------------------------------------------- */

IndexCore *
_hbase_index_core_ref (IndexCore *core)
{
  g_atomic_ref_count_inc (&core->ref_count);
  return core;
}

void
_hbase_index_core_unref (IndexCore *core)
{
  if (core == NULL || !g_atomic_ref_count_dec (&core->ref_count))
    return;
  g_clear_object (&core->client);
  g_free (core->table_name);
  g_free (core->version);
  g_free (core->base);
  g_free (core->key_state);
  g_free (core->key_seq);
  g_free (core->key_rec);
  g_free (core->key_fix);
  g_clear_object (&core->meta);
  g_clear_object (&core->plain);
  _hbase_index_pool_free (core->pool);
  g_free (core->token_prefix);
  g_mutex_clear (&core->lock);
  g_hash_table_unref (core->calls);
  for (guint c = 0; core->entry_cache != NULL && c < core->spec->columns->len; c++)
    g_hash_table_unref (core->entry_cache[c]);
  g_free (core->entry_cache);
  g_mutex_clear (&core->cache_lock);
  g_free (core->dirty_mark);
  hbase_index_spec_free (core->spec);
  g_free (core);
}

static void
core_unref_notify (gpointer core)
{
  _hbase_index_core_unref (core);
}

char **
_hbase_index_columns (const HBaseIndexSpec *spec)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  char **columns;

  for (guint i = 0; i < spec->columns->len; i++)
    {
      const IndexColumn *column = g_ptr_array_index (spec->columns, i);

      g_autofree char *name = g_strdup_printf ("%s:%s", column->family, column->qualifier);

      g_strv_builder_add (builder, name);
    }
  columns = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return columns;
}

/* --- definitions in HBase -------------------------------------------------------------- */

static GBytes *
text_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

static gboolean
ensure_meta_table (HBaseClient *client, const char *meta_table, GCancellable *cancellable,
                   GError **error)
{
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  gboolean exists = FALSE;
  g_autoptr(GError) local = NULL;

  if (!hbase_admin_table_exists (client, meta_table, &exists, cancellable, error))
    return FALSE;
  if (exists)
    return TRUE;
  family.name = META_FAMILY;
  family.max_versions = 1;
  if (hbase_admin_create_table (client, meta_table, &family, 1, NULL, cancellable, &local))
    return TRUE;
  /* another client may have created it meanwhile */
  if (hbase_admin_table_exists (client, meta_table, &exists, cancellable, NULL) && exists)
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/**
 * hbase_index_define:
 * @client: a client
 * @table: the indexed table ("name" or "namespace:name")
 * @spec: its index definitions
 * @meta_table: (nullable): where definitions are kept, %NULL for
 *   %HBASE_INDEX_DEFAULT_META_TABLE (created when missing)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Stores the definitions of @table's index in HBase, the source of truth
 * every client reads them from (Redis may lose its data; HBase does not).
 * Each definition gets a new version: the index must then be built with
 * hbase_index_rebuild() before queries use it, and clients that opened the
 * index with older definitions see their writes fail with
 * %HBASE_INDEX_ERROR_CHANGED once the rebuild has started.
 *
 * Returns: %TRUE on success
 */
gboolean
hbase_index_define (HBaseClient *client, const char *table, const HBaseIndexSpec *spec,
                    const char *meta_table, GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseTable) meta = NULL;
  g_autoptr(HBaseTable) data = NULL;
  g_autoptr(HBaseMutation) put = NULL;
  g_autoptr(GBytes) row = NULL;
  g_autoptr(GBytes) spec_bytes = NULL;
  g_autoptr(GBytes) version_bytes = NULL;
  g_autofree char *text = NULL;
  g_autofree char *version = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);
  if (meta_table == NULL)
    meta_table = HBASE_INDEX_DEFAULT_META_TABLE;
  if (spec->columns->len == 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "the index definitions of %s name no column", table);
      return FALSE;
    }
  data = hbase_table_new (client, table, error);
  if (data == NULL || !ensure_meta_table (client, meta_table, cancellable, error))
    return FALSE;
  meta = hbase_table_new (client, meta_table, error);
  if (meta == NULL)
    return FALSE;
  text = hbase_index_spec_to_data (spec);
  version = g_uuid_string_random ();
  row = text_bytes (table);
  spec_bytes = text_bytes (text);
  version_bytes = text_bytes (version);
  put = hbase_mutation_new_put (row);
  hbase_mutation_put (put, META_FAMILY, "spec", spec_bytes);
  hbase_mutation_put (put, META_FAMILY, "version", version_bytes);
  return hbase_table_apply (meta, put, cancellable, error);
}

static gboolean
read_definitions (HBaseClient *client, const char *table, const char *meta_table,
                  HBaseIndexSpec **spec, char **version, GCancellable *cancellable,
                  GError **error)
{
  g_autoptr(HBaseTable) meta = hbase_table_new (client, meta_table, error);
  g_autoptr(HBaseRow) row = NULL;
  g_autoptr(GBytes) key = text_bytes (table);
  g_autoptr(GError) local = NULL;
  g_autofree char *text = NULL;
  GBytes *spec_bytes, *version_bytes;

  if (meta == NULL)
    return FALSE;
  row = hbase_table_get (meta, key, NULL, cancellable, &local);
  if (row == NULL && g_error_matches (local, HBASE_ERROR, HBASE_ERROR_NOT_FOUND))
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX,
                   "table %s has no index (no definitions table %s)", table, meta_table);
      return FALSE;
    }
  if (row == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  spec_bytes = hbase_row_lookup (row, META_FAMILY, "spec");
  version_bytes = hbase_row_lookup (row, META_FAMILY, "version");
  if (spec_bytes == NULL || version_bytes == NULL)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX,
                   "table %s has no index definitions in %s", table, meta_table);
      return FALSE;
    }
  text = g_strndup (g_bytes_get_data (spec_bytes, NULL), g_bytes_get_size (spec_bytes));
  *spec = hbase_index_spec_new_from_data (text, error);
  if (*spec == NULL)
    return FALSE;
  *version = g_strndup (g_bytes_get_data (version_bytes, NULL), g_bytes_get_size (version_bytes));
  return TRUE;
}

/**
 * hbase_index_get_definitions:
 * @client: a client
 * @table: the indexed table
 * @meta_table: (nullable): where definitions are kept, %NULL for
 *   %HBASE_INDEX_DEFAULT_META_TABLE
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Returns: (transfer full) (nullable): the stored definitions, or %NULL
 *   with %HBASE_INDEX_ERROR_NO_INDEX when there are none
 */
HBaseIndexSpec *
hbase_index_get_definitions (HBaseClient *client, const char *table, const char *meta_table,
                             GCancellable *cancellable, GError **error)
{
  HBaseIndexSpec *spec = NULL;
  g_autofree char *version = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), NULL);
  if (!read_definitions (client, table, meta_table != NULL ? meta_table
                                                           : HBASE_INDEX_DEFAULT_META_TABLE,
                         &spec, &version, cancellable, error))
    return NULL;
  return spec;
}

/* --- the dirty mark -------------------------------------------------------------------------- */

gboolean
_hbase_index_read_dirty_mark (IndexCore *core, gboolean fresh, char **mark,
                              GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) key = NULL;
  g_autoptr(HBaseRow) row = NULL;
  const char *const columns[] = { META_FAMILY ":dirty", NULL };
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  gint64 now = g_get_monotonic_time ();
  GBytes *value;

  g_mutex_lock (&core->lock);
  if (!fresh && core->dirty_check_interval_ms > 0 && core->dirty_checked_at != 0 &&
      now - core->dirty_checked_at < (gint64) core->dirty_check_interval_ms * 1000)
    {
      *mark = g_strdup (core->dirty_mark);
      g_mutex_unlock (&core->lock);
      return TRUE;
    }
  g_mutex_unlock (&core->lock);

  key = text_bytes (core->table_name);
  read.columns = columns;
  row = hbase_table_get (core->meta, key, &read, cancellable, error);
  if (row == NULL)
    return FALSE;
  value = hbase_row_lookup (row, META_FAMILY, "dirty");
  *mark = value != NULL ? g_strndup (g_bytes_get_data (value, NULL), g_bytes_get_size (value))
                        : NULL;
  g_mutex_lock (&core->lock);
  core->dirty_checked_at = now;
  g_free (core->dirty_mark);
  core->dirty_mark = g_strdup (*mark);
  g_mutex_unlock (&core->lock);
  return TRUE;
}

gboolean
_hbase_index_mark_dirty (IndexCore *core, const char *reason, GCancellable *cancellable,
                         GError **error)
{
  g_autoptr(GBytes) key = text_bytes (core->table_name);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (key);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *when = g_date_time_format_iso8601 (now);
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *text = g_strdup_printf ("%s %s %s", when, id, reason);
  g_autoptr(GBytes) value = text_bytes (text);
  gboolean log;

  hbase_mutation_put (put, META_FAMILY, "dirty", value);
  if (!hbase_table_apply (core->meta, put, cancellable, error))
    return FALSE;
  g_mutex_lock (&core->lock);
  core->dirty_checked_at = g_get_monotonic_time ();
  g_free (core->dirty_mark);
  core->dirty_mark = g_strdup (text);
  /* once every 10 s at most: during an outage every write marks it */
  log = core->dirty_logged_at == 0 || core->dirty_checked_at - core->dirty_logged_at > 10 * G_USEC_PER_SEC;
  if (log)
    core->dirty_logged_at = core->dirty_checked_at;
  g_mutex_unlock (&core->lock);
  if (log)
    g_message ("index of %s marked dirty: %s", core->table_name, reason);
  return TRUE;
}

gboolean
_hbase_index_clear_dirty_mark (IndexCore *core, const char *mark, gboolean *cleared,
                               GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) key = text_bytes (core->table_name);
  g_autoptr(GBytes) value = text_bytes (mark);
  g_autoptr(HBaseCondition) same = hbase_condition_new (META_FAMILY, "dirty", HBASE_COMPARE_EQUAL,
                                                        value);
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  HBaseMutation *remove = hbase_mutation_new_delete (key);

  hbase_mutation_delete_column (remove, META_FAMILY, "dirty");
  g_ptr_array_add (changes, remove);
  if (!hbase_table_check_and_mutate (core->meta, same, changes, cleared, cancellable, error))
    return FALSE;
  g_mutex_lock (&core->lock);
  core->dirty_checked_at = 0;
  g_mutex_unlock (&core->lock);
  return TRUE;
}

/* --- the write hooks ------------------------------------------------------------------------ */

/* What a write changes in one index of one row. */
typedef struct {
  const IndexColumn *column;
  gboolean keep_old;      /* an older value may survive (explicit timestamps) */
  gboolean unknown;       /* the value is known only after (increment, ...) */
  gboolean resolved;      /* ... and was learned */
  gboolean touched;       /* by a mutation already */
  GPtrArray *vals;        /* IndexEntry: values the write sets */
  GPtrArray *res;         /* IndexEntry: values learned after the write */
} RowOp;

typedef struct {
  GBytes *row;
  GPtrArray *ops;         /* RowOp */
  GArray *mutations;      /* guint: the row's mutations in the call */
  gboolean eager;
  HBaseWriteOutcome outcome;
} RowChange;

typedef struct {
  char *token;
  GPtrArray *rows;        /* RowChange */
  char *gen;
} CallState;

static void
row_op_free (gpointer data)
{
  RowOp *op = data;

  g_ptr_array_unref (op->vals);
  g_ptr_array_unref (op->res);
  g_free (op);
}

static void
row_change_free (gpointer data)
{
  RowChange *change = data;

  g_bytes_unref (change->row);
  g_ptr_array_unref (change->ops);
  g_array_unref (change->mutations);
  g_free (change);
}

static void
call_state_free (gpointer data)
{
  CallState *state = data;

  g_free (state->token);
  g_ptr_array_unref (state->rows);
  g_free (state->gen);
  g_free (state);
}

static RowOp *
row_op_get (RowChange *change, const IndexColumn *column)
{
  RowOp *op;

  for (guint i = 0; i < change->ops->len; i++)
    {
      op = g_ptr_array_index (change->ops, i);
      if (op->column == column)
        return op;
    }
  op = g_new0 (RowOp, 1);
  op->column = column;
  op->vals = g_ptr_array_new_with_free_func (_hbase_index_entry_free);
  op->res = g_ptr_array_new_with_free_func (_hbase_index_entry_free);
  g_ptr_array_add (change->ops, op);
  return op;
}

static gboolean
entries_have (GPtrArray *entries, const IndexEntry *entry)
{
  for (guint i = 0; i < entries->len; i++)
    if (g_bytes_equal (((IndexEntry *) g_ptr_array_index (entries, i))->value, entry->value))
      return TRUE;
  return FALSE;
}

static void
entries_add (GPtrArray *entries, IndexEntry *entry)
{
  if (entry == NULL)
    return;
  if (entries_have (entries, entry))
    _hbase_index_entry_free (entry);
  else
    g_ptr_array_add (entries, entry);
}

#define ENTRY_CACHE_MAX 4096

/* The entry of @value in column @c (a new reference), or NULL when the
 * value is not indexable; bulk loads repeat values, so entries and their
 * packed form are made once and shared. */
static IndexEntry *
cached_entry (IndexCore *core, guint c, GBytes *value)
{
  const IndexColumn *column = g_ptr_array_index (core->spec->columns, c);
  GHashTable *cache = core->entry_cache[c];
  IndexEntry *entry;
  gpointer found;
  gboolean known;

  g_mutex_lock (&core->cache_lock);
  known = g_hash_table_lookup_extended (cache, value, NULL, &found);
  entry = known && found != NULL ? _hbase_index_entry_ref (found) : NULL;
  g_mutex_unlock (&core->cache_lock);
  if (known)
    return entry;
  entry = _hbase_index_entry_new (column, g_bytes_get_data (value, NULL), g_bytes_get_size (value));
  if (entry != NULL)
    _hbase_index_entry_blob (entry);   /* made before it is shared */
  g_mutex_lock (&core->cache_lock);
  if (g_hash_table_size (cache) >= ENTRY_CACHE_MAX)
    g_hash_table_remove_all (cache);
  g_hash_table_insert (cache, g_bytes_ref (value), entry != NULL ? _hbase_index_entry_ref (entry) : NULL);
  g_mutex_unlock (&core->cache_lock);
  return entry;
}

/* What @mutation does to column @c: touched or not, and how. */
static gboolean
mutation_effect (IndexCore *core, HBaseMutation *mutation, guint c, GPtrArray *vals,
                 gboolean *keep_old, gboolean *unknown)
{
  const IndexColumn *column = g_ptr_array_index (core->spec->columns, c);
  gboolean touched = FALSE;
  gint64 mutation_ts = _hbase_mutation_get_timestamp (mutation);
  guint n = _hbase_mutation_get_n_entries (mutation);

  if (hbase_mutation_get_kind (mutation) == HBASE_MUTATION_DELETE && n == 0)
    {
      touched = TRUE;     /* the whole row */
      *keep_old |= mutation_ts != -1;
    }
  for (guint i = 0; i < n; i++)
    {
      GBytes *family, *qualifier, *value;
      gint64 timestamp;
      HBaseMutationEntryKind kind = _hbase_mutation_get_entry (mutation, i, &family, &qualifier,
                                                               &value, &timestamp);
      gboolean same_family = g_bytes_equal (family, column->family_bytes);
      gboolean same_column = same_family && g_bytes_equal (qualifier, column->qualifier_bytes);

      switch (kind)
        {
        case _HBASE_MUTATION_ENTRY_PUT:
          if (!same_column)
            break;
          touched = TRUE;
          /* a value that does not parse as the column's type is not indexed */
          entries_add (vals, cached_entry (core, c, value));
          /* an explicit version may be older than the newest one */
          *keep_old |= timestamp != -1 || mutation_ts != -1;
          break;
        case _HBASE_MUTATION_ENTRY_DELETE_FAMILY:
          if (!same_family)
            break;
          touched = TRUE;
          *keep_old |= mutation_ts != -1;
          break;
        case _HBASE_MUTATION_ENTRY_DELETE_COLUMN:
          if (!same_column)
            break;
          touched = TRUE;
          *keep_old |= mutation_ts != -1;
          break;
        case _HBASE_MUTATION_ENTRY_DELETE_VERSION:
        case _HBASE_MUTATION_ENTRY_INCREMENT:
        case _HBASE_MUTATION_ENTRY_APPEND:
        default:
          /* a version delete may bring an older version back */
          if (!same_column)
            break;
          touched = TRUE;
          *unknown = TRUE;
          break;
        }
    }
  return touched;
}

/* The index changes of a write, one RowChange per row in first-seen
 * order; rows whose indexed columns the write does not touch are left
 * out. */
static GPtrArray *
compute_changes (IndexCore *core, GPtrArray *mutations)
{
  g_autoptr(GHashTable) by_row = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  g_autoptr(GPtrArray) vals = g_ptr_array_new_with_free_func (_hbase_index_entry_free);
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_change_free);

  for (guint m = 0; m < mutations->len; m++)
    {
      HBaseMutation *mutation = g_ptr_array_index (mutations, m);
      GBytes *key = hbase_mutation_get_row (mutation);
      RowChange *change = g_hash_table_lookup (by_row, key);

      for (guint c = 0; c < core->spec->columns->len; c++)
        {
          const IndexColumn *column = g_ptr_array_index (core->spec->columns, c);
          gboolean keep_old = FALSE, unknown = FALSE;
          RowOp *op;

          g_ptr_array_set_size (vals, 0);
          if (!mutation_effect (core, mutation, c, vals, &keep_old, &unknown))
            continue;
          if (change == NULL)
            {
              change = g_new0 (RowChange, 1);
              change->row = g_bytes_ref (key);
              change->ops = g_ptr_array_new_with_free_func (row_op_free);
              change->mutations = g_array_new (FALSE, FALSE, sizeof (guint));
              g_hash_table_insert (by_row, key, change);
              g_ptr_array_add (rows, change);
            }
          op = row_op_get (change, column);
          /* several mutations of one call set the column: which one HBase
           * kept depends on timestamps (a delete masks a put of the same
           * millisecond): the value is read after the write */
          op->unknown |= unknown || op->touched;
          op->touched = TRUE;
          op->keep_old |= keep_old;
          while (vals->len > 0)
            entries_add (op->vals, g_ptr_array_steal_index (vals, 0));
        }
      if (change != NULL)
        {
          guint last = change->mutations->len > 0
                       ? g_array_index (change->mutations, guint, change->mutations->len - 1) : G_MAXUINT;

          if (last != m)
            g_array_append_val (change->mutations, m);
        }
    }
  return rows;
}

static void
op_flags (const RowOp *op, char flags[4])
{
  guint n = 0;

  if (op->keep_old)
    flags[n++] = 'k';
  if (op->unknown)
    flags[n++] = 'u';
  if (op->resolved)
    flags[n++] = 'r';
  flags[n] = '\0';
}

/* A row's ops as the Lua script takes them: '>I1' count, then per op
 * '>I1c0I1c0I2' name, flags, count of values, and the values. */
static GByteArray *
ops_bytes (RowChange *change)
{
  GByteArray *out = g_byte_array_new ();
  guint8 n_ops = (guint8) change->ops->len;

  g_byte_array_append (out, &n_ops, 1);
  for (guint o = 0; o < change->ops->len; o++)
    {
      RowOp *op = g_ptr_array_index (change->ops, o);
      guint8 name_len = (guint8) strlen (op->column->name);
      char flags[4];
      guint8 flags_len;

      op_flags (op, flags);
      flags_len = (guint8) strlen (flags);
      g_byte_array_append (out, &name_len, 1);
      g_byte_array_append (out, (const guint8 *) op->column->name, name_len);
      g_byte_array_append (out, &flags_len, 1);
      if (flags_len > 0)
        g_byte_array_append (out, (const guint8 *) flags, flags_len);
      _hbase_index_append_list (out, op->vals);
    }
  return out;
}

static void
batch_ops (RedisBatch *batch, RowChange *change)
{
  g_autoptr(GByteArray) out = ops_bytes (change);

  _hbase_index_batch_arg (batch, out->data, out->len);
}

/* The values a row's change writes, '>I2' count and entries. */
static GByteArray *
written_bytes (RowChange *change)
{
  g_autoptr(GPtrArray) written = g_ptr_array_new ();
  GByteArray *out = g_byte_array_new ();

  for (guint o = 0; o < change->ops->len; o++)
    g_ptr_array_extend (written, ((RowOp *) g_ptr_array_index (change->ops, o))->vals, NULL, NULL);
  _hbase_index_append_list (out, written);
  return out;
}

/* The values learned after the write: per op '>I2' count, entries. */
static void
batch_learned (RedisBatch *batch, RowChange *change)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();

  for (guint o = 0; o < change->ops->len; o++)
    _hbase_index_append_list (out, ((RowOp *) g_ptr_array_index (change->ops, o))->res);
  _hbase_index_batch_arg (batch, out->data, out->len);
}

static void
batch_list (RedisBatch *batch, GPtrArray *entries)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();

  _hbase_index_append_list (out, entries);
  _hbase_index_batch_arg (batch, out->data, out->len);
}

static void
put_be64 (GByteArray *out, guint64 value)
{
  guint64 be = GUINT64_TO_BE (value);

  g_byte_array_append (out, (const guint8 *) &be, 8);
}

/* The record of a row the index has no record of, with this change
 * pending: byte for byte what the Lua script writes for it (see
 * hbase-index.lua): seq 0, E the values written, no candidates, nothing
 * to read again, one pending change. */
static GByteArray *
fresh_record (RowChange *change, const char *token, double deadline)
{
  g_autoptr(GByteArray) written = written_bytes (change);
  g_autoptr(GByteArray) ops = ops_bytes (change);
  GByteArray *out = g_byte_array_sized_new (written->len + ops->len + 64);
  const guint8 tag = 'R', no_candidates[3] = { 0xff, 0xff, 0x00 }, one[2] = { 0x00, 0x01 };
  guint8 token_len = (guint8) strlen (token), zero = 0;
  guint32 ops_len = GUINT32_TO_BE (ops->len);
  double seq = 0.0;
  guint64 bits;

  g_byte_array_append (out, &tag, 1);
  memcpy (&bits, &seq, 8);
  put_be64 (out, bits);
  g_byte_array_append (out, written->data, written->len);
  g_byte_array_append (out, no_candidates, 3);
  g_byte_array_append (out, one, 2);
  g_byte_array_append (out, &token_len, 1);
  g_byte_array_append (out, (const guint8 *) token, token_len);
  memcpy (&bits, &deadline, 8);
  put_be64 (out, bits);
  g_byte_array_append (out, &zero, 1);    /* not contended */
  g_byte_array_append (out, &zero, 1);    /* no outcome */
  g_byte_array_append (out, (const guint8 *) &ops_len, 4);
  g_byte_array_append (out, ops->data, ops->len);
  return out;
}

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
                  g_autoptr(GBytes) key = _hbase_index_exact_key (core->base, op->column->name,
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
  gsize key_len = g_bytes_get_size (entry->sortkey), row_len = g_bytes_get_size (row);
  g_autofree guint8 *member = g_malloc (key_len + row_len);

  memcpy (member, g_bytes_get_data (entry->sortkey, NULL), key_len);
  memcpy (member + key_len, g_bytes_get_data (row, NULL), row_len);
  _hbase_index_batch_arg (batch, member, key_len + row_len);
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
      g_autoptr(GByteArray) written = written_bytes (change);

      _hbase_index_batch_bytes (batch, change->row);
      _hbase_index_batch_str (batch, row_has_unknown (change) ? "u" : "");
      _hbase_index_batch_arg (batch, written->data, written->len);
      batch_ops (batch, change);
    }
  adds_section (core, batch, adds);
  reply = _hbase_index_redis_command (core->pool, batch, error);
  if (reply == NULL)
    return FALSE;
  if (reply->type != REDIS_REPLY_ARRAY || reply->elements != 2 ||
      reply->element[0]->type != REDIS_REPLY_STRING || reply->element[1]->type != REDIS_REPLY_STRING ||
      reply->element[1]->len != rows->len)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "unexpected reply of the index script");
      return FALSE;
    }
  for (guint r = 0; r < rows->len; r++)
    ((RowChange *) g_ptr_array_index (rows, r))->eager = reply->element[1]->str[r] == '1';
  if (gen != NULL)
    *gen = g_strndup (reply->element[0]->str, reply->element[0]->len);
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
  redisReply *state;
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
      g_autoptr(GByteArray) record = fresh_record (change, token, deadline);

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
  for (guint i = 0; i < replies->len; i++)
    if (_hbase_index_reply_error (g_ptr_array_index (replies, i), error))
      return FALSE;
  state = g_ptr_array_index (replies, 0);
  if (state->element[0]->type == REDIS_REPLY_STRING && strcmp (state->element[0]->str, core->version) != 0)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_CHANGED,
                   "the index definitions changed since this client opened the index");
      return FALSE;
    }
  *gen = g_strdup (state->element[1]->type == REDIS_REPLY_STRING ? state->element[1]->str : "0");
  for (guint r = 0; r < rows->len; r++)
    {
      RowChange *change = g_ptr_array_index (rows, r);
      redisReply *created = g_ptr_array_index (replies, first_record + r);

      if (created->integer == 1)
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
  g_autoptr(GPtrArray) rows = compute_changes (core, mutations);
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

          entries_add (op->res, _hbase_index_entry_new (op->column, g_bytes_get_data (value, NULL),
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
      batch_ops (batch, change);
      batch_learned (batch, change);
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
  if (reply != NULL && (reply->type == REDIS_REPLY_STRING || reply->type == REDIS_REPLY_STATUS) &&
      g_strcmp0 (reply->str, "GEN") == 0)
    {
      /* the index was cleared (rebuilt) meanwhile: settle every row */
      g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();

      g_clear_pointer (&reply, freeReplyObject);
      batch_after (core, batch, state, default_outcome, TRUE);
      reply = _hbase_index_redis_command (core->pool, batch, &error);
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
  call_state_free (state);
}

static const HBaseTableWriteHooks index_hooks = { hook_before, hook_after };

/* --- opening ----------------------------------------------------------------------------------- */

/**
 * hbase_index_open:
 * @client: a client
 * @table: the indexed table ("name" or "namespace:name")
 * @options: (nullable): how to reach Redis and what to do when it is
 *   down; %NULL for the defaults
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Opens the index of @table: reads its definitions from HBase (see
 * hbase_index_define()) and returns a handle whose table
 * (hbase_index_get_table()) keeps the index up to date on every write.
 * Redis is not contacted until it is needed.
 *
 * Returns: (transfer full) (nullable): the index, or %NULL with
 *   %HBASE_INDEX_ERROR_NO_INDEX when @table has no definitions
 */
HBaseIndex *
hbase_index_open (HBaseClient *client, const char *table, const HBaseIndexOptions *options,
                  GCancellable *cancellable, GError **error)
{
  HBaseIndexOptions defaults = HBASE_INDEX_OPTIONS_INIT;
  const char *meta_table;
  IndexCore *core;
  HBaseIndex *index;
  HBaseIndexSpec *spec = NULL;
  char *version = NULL;
  g_autofree char *id = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), NULL);
  if (options == NULL)
    options = &defaults;
  meta_table = options->meta_table != NULL ? options->meta_table : HBASE_INDEX_DEFAULT_META_TABLE;
  if (table == NULL || !_hbase_check_table_name (table, error) ||
      !read_definitions (client, table, meta_table, &spec, &version, cancellable, error))
    return NULL;

  core = g_new0 (IndexCore, 1);
  g_atomic_ref_count_init (&core->ref_count);
  core->client = g_object_ref (client);
  core->table_name = g_strdup (table);
  core->spec = spec;
  core->version = version;
  core->base = _hbase_index_key_base (spec, table);
  core->key_state = _hbase_index_key (core->base, "state");
  core->key_seq = _hbase_index_key (core->base, "seq");
  core->key_rec = _hbase_index_key (core->base, "r");
  core->key_fix = _hbase_index_key (core->base, "f");
  core->meta = hbase_table_new (client, meta_table, NULL);
  core->plain = hbase_table_new (client, table, NULL);
  core->pool = _hbase_index_pool_new (options);
  core->on_redis_down = options->on_redis_down;
  core->when_dirty = options->when_dirty;
  core->lease_ms = options->lease_ms != 0 ? options->lease_ms : 300000;
  core->dirty_check_interval_ms = options->dirty_check_interval_ms;
  core->trust_redis_restarts = options->trust_redis_restarts;
  id = g_uuid_string_random ();
  core->token_prefix = g_strdup_printf ("%.8s%d", id, (int) getpid ());
  g_mutex_init (&core->lock);
  core->calls = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, call_state_free);
  g_mutex_init (&core->cache_lock);
  core->entry_cache = g_new0 (GHashTable *, spec->columns->len);
  for (guint c = 0; c < spec->columns->len; c++)
    core->entry_cache[c] = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                  (GDestroyNotify) g_bytes_unref,
                                                  _hbase_index_entry_free);

  index = g_new0 (HBaseIndex, 1);
  index->core = core;
  index->table = hbase_table_new (client, table, NULL);
  _hbase_table_set_write_hooks (index->table, &index_hooks, _hbase_index_core_ref (core),
                                core_unref_notify);
  return index;
}

/**
 * hbase_index_free:
 * @index: (nullable) (transfer full): an index
 *
 * Closes the index.  Its table handle (if referenced elsewhere) keeps
 * maintaining the index.
 */
void
hbase_index_free (HBaseIndex *index)
{
  if (index == NULL)
    return;
  g_clear_object (&index->table);
  _hbase_index_core_unref (index->core);
  g_free (index);
}

/**
 * hbase_index_get_table:
 * @index: an index
 *
 * The handle on the indexed table whose writes maintain the index: use it
 * (and write buffers made on it) for every write of the table.
 *
 * Returns: (transfer none): the table
 */
HBaseTable *
hbase_index_get_table (HBaseIndex *index)
{
  g_return_val_if_fail (index != NULL, NULL);
  return index->table;
}

/**
 * hbase_index_get_spec:
 * @index: an index
 *
 * Returns: (transfer none): the definitions it was opened with
 */
const HBaseIndexSpec *
hbase_index_get_spec (HBaseIndex *index)
{
  g_return_val_if_fail (index != NULL, NULL);
  return index->core->spec;
}

/* --- state ------------------------------------------------------------------------------------ */

HBaseIndexState
_hbase_index_state_of_reply (IndexCore *core, redisReply *reply, char **reason)
{
  redisReply *status, *version, *run;
  g_autofree char *run_id = NULL;

  if (reply == NULL || reply->type != REDIS_REPLY_ARRAY || reply->elements != 3)
    {
      *reason = g_strdup ("unexpected reply from Redis");
      return HBASE_INDEX_STATE_UNREACHABLE;
    }
  status = reply->element[0];
  version = reply->element[1];
  run = reply->element[2];
  if (status->type != REDIS_REPLY_STRING)
    {
      *reason = g_strdup ("Redis holds no index of the table (never built, or Redis lost it): "
                          "rebuild or repair it");
      return HBASE_INDEX_STATE_NOT_BUILT;
    }
  if (version->type != REDIS_REPLY_STRING || strcmp (version->str, core->version) != 0)
    {
      *reason = g_strdup ("Redis holds an index of other definitions: rebuild it");
      return HBASE_INDEX_STATE_NOT_BUILT;
    }
  if (strcmp (status->str, "ready") != 0)
    {
      *reason = g_strdup ("the index is being rebuilt");
      return HBASE_INDEX_STATE_BUILDING;
    }
  run_id = _hbase_index_pool_run_id (core->pool);
  if (!core->trust_redis_restarts && run_id != NULL &&
      (run->type != REDIS_REPLY_STRING || strcmp (run->str, run_id) != 0))
    {
      *reason = g_strdup ("Redis restarted since the index was last built or repaired and may "
                          "have lost its last writes: repair it");
      return HBASE_INDEX_STATE_RESTARTED;
    }
  return HBASE_INDEX_STATE_READY;
}

gboolean
_hbase_index_set_state (IndexCore *core, const char *status, gboolean new_gen, GError **error)
{
  g_autoptr(RedisBatch) ping = _hbase_index_batch_new ();
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(redisReply) pong = NULL;
  g_autoptr(GPtrArray) replies = NULL;
  g_autofree char *run_id = NULL;

  /* a connection first: its server's run_id is the one checked */
  _hbase_index_batch_command (ping);
  _hbase_index_batch_str (ping, "PING");
  pong = _hbase_index_redis_command (core->pool, ping, error);
  if (pong == NULL)
    return FALSE;
  run_id = _hbase_index_pool_run_id (core->pool);
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "HSET");
  _hbase_index_batch_str (batch, core->key_state);
  _hbase_index_batch_str (batch, "status");
  _hbase_index_batch_str (batch, status);
  _hbase_index_batch_str (batch, "version");
  _hbase_index_batch_str (batch, core->version);
  _hbase_index_batch_str (batch, "run");
  _hbase_index_batch_str (batch, run_id != NULL ? run_id : "");
  if (new_gen)
    {
      _hbase_index_batch_command (batch);
      _hbase_index_batch_str (batch, "HINCRBY");
      _hbase_index_batch_str (batch, core->key_state);
      _hbase_index_batch_str (batch, "gen");
      _hbase_index_batch_str (batch, "1");
    }
  replies = _hbase_index_redis_run (core->pool, batch, error);
  if (replies == NULL)
    return FALSE;
  for (guint i = 0; i < replies->len; i++)
    if (_hbase_index_reply_error (g_ptr_array_index (replies, i), error))
      return FALSE;
  return TRUE;
}

HBaseIndexState
_hbase_index_usable (IndexCore *core, gboolean fresh, char **reason, GCancellable *cancellable,
                     GError **error)
{
  g_autofree char *mark = NULL;
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(redisReply) reply = NULL;
  g_autoptr(GError) local = NULL;

  *reason = NULL;
  if (!_hbase_index_read_dirty_mark (core, fresh, &mark, cancellable, error))
    return HBASE_INDEX_STATE_UNREACHABLE;
  if (mark != NULL)
    {
      *reason = g_strdup_printf ("the index is marked dirty: %s", mark);
      return HBASE_INDEX_STATE_DIRTY;
    }
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "HMGET");
  _hbase_index_batch_str (batch, core->key_state);
  _hbase_index_batch_str (batch, "status");
  _hbase_index_batch_str (batch, "version");
  _hbase_index_batch_str (batch, "run");
  reply = _hbase_index_redis_command (core->pool, batch, &local);
  if (reply == NULL)
    {
      *reason = g_strdup (local->message);
      return HBASE_INDEX_STATE_UNREACHABLE;
    }
  return _hbase_index_state_of_reply (core, reply, reason);
}

/**
 * hbase_index_get_state:
 * @index: an index
 * @state: (out): whether queries can use it
 * @reason: (out) (optional) (transfer full) (nullable): why not, in words
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Reads the dirty mark from HBase and the index's state from Redis.
 *
 * Returns: %FALSE only when HBase could not be read
 */
gboolean
hbase_index_get_state (HBaseIndex *index, HBaseIndexState *state, char **reason,
                       GCancellable *cancellable, GError **error)
{
  g_autofree char *why = NULL;
  GError *local = NULL;

  g_return_val_if_fail (index != NULL && state != NULL, FALSE);
  *state = _hbase_index_usable (index->core, TRUE, &why, cancellable, &local);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  if (reason != NULL)
    *reason = g_steal_pointer (&why);
  return TRUE;
}

/* --- records and repairs ------------------------------------------------------------------- */

void
_hbase_index_record_free (gpointer data)
{
  IndexRecord *record = data;

  if (record == NULL)
    return;
  _hbase_index_record_clear (record);
  g_free (record);
}

GPtrArray *
_hbase_index_read_records (IndexCore *core, GPtrArray *keys, GError **error)
{
  g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func (_hbase_index_record_free);
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;

  for (guint i = 0; i < keys->len; i += 1000)
    {
      _hbase_index_batch_command (batch);
      _hbase_index_batch_str (batch, "HMGET");
      _hbase_index_batch_str (batch, core->key_rec);
      for (guint j = i; j < keys->len && j < i + 1000; j++)
        _hbase_index_batch_bytes (batch, g_ptr_array_index (keys, j));
    }
  if (keys->len == 0)
    return g_steal_pointer (&records);
  replies = _hbase_index_redis_run (core->pool, batch, error);
  if (replies == NULL)
    return NULL;
  for (guint c = 0; c < replies->len; c++)
    {
      redisReply *reply = g_ptr_array_index (replies, c);

      if (_hbase_index_reply_error (reply, error))
        return NULL;
      for (size_t e = 0; e < reply->elements; e++)
        {
          redisReply *value = reply->element[e];
          IndexRecord *record = NULL;

          if (value->type == REDIS_REPLY_STRING)
            {
              record = g_new0 (IndexRecord, 1);
              if (!_hbase_index_record_parse (value->str, value->len, record))
                {
                  g_free (record);
                  g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                               "a row record of the index is malformed");
                  return NULL;
                }
            }
          g_ptr_array_add (records, record);
        }
    }
  return g_steal_pointer (&records);
}

GPtrArray *
_hbase_index_snapshot_rows (IndexCore *core, GPtrArray *keys, gboolean abandon, GError **error)
{
  g_autoptr(GPtrArray) snapshots = g_ptr_array_new_with_free_func (g_free);

  for (guint start = 0; start < keys->len; start += 1000)
    {
      guint end = MIN (keys->len, start + 1000);
      g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
      g_autoptr(redisReply) reply = NULL;

      _hbase_index_batch_script (batch, core->base, "snapshot");
      _hbase_index_batch_str (batch, abandon ? "1" : "0");
      _hbase_index_batch_uint (batch, end - start);
      for (guint i = start; i < end; i++)
        _hbase_index_batch_bytes (batch, g_ptr_array_index (keys, i));
      reply = _hbase_index_redis_command (core->pool, batch, error);
      if (reply == NULL)
        return NULL;
      for (size_t i = 0; reply->type == REDIS_REPLY_ARRAY && i < reply->elements &&
                         reply->element[i]->type == REDIS_REPLY_STRING; i++)
        g_ptr_array_add (snapshots, g_strndup (reply->element[i]->str, reply->element[i]->len));
      if (snapshots->len != end)
        {
          g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                       "unexpected reply of the index script (snapshot)");
          return NULL;
        }
    }
  return g_steal_pointer (&snapshots);
}

#define REPAIR_CHUNK 500

gboolean
_hbase_index_repair_rows (IndexCore *core, GPtrArray *keys, GPtrArray *rows, GPtrArray *snapshots,
                          GPtrArray *orphans, gboolean abandon, guint *repaired, GString *results,
                          GError **error)
{
  if (repaired != NULL)
    *repaired = 0;
  for (guint start = 0; start < keys->len; start += REPAIR_CHUNK)
    {
      guint end = MIN (keys->len, start + REPAIR_CHUNK);
      g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
      g_autoptr(redisReply) reply = NULL;

      _hbase_index_batch_script (batch, core->base, "repair");
      _hbase_index_batch_str (batch, snapshots != NULL ? "exact" : "add");
      _hbase_index_batch_str (batch, abandon ? "1" : "0");
      _hbase_index_batch_uint (batch, end - start);
      for (guint i = start; i < end; i++)
        {
          HBaseRow *row = g_ptr_array_index (rows, i);
          g_autoptr(GPtrArray) actual = _hbase_index_row_entries (core->spec, row);
          GPtrArray *extra = orphans != NULL ? g_ptr_array_index (orphans, i) : NULL;

          _hbase_index_batch_bytes (batch, g_ptr_array_index (keys, i));
          _hbase_index_batch_str (batch, snapshots != NULL ? g_ptr_array_index (snapshots, i) : "");
          batch_list (batch, actual);
          batch_list (batch, extra);
        }
      reply = _hbase_index_redis_command (core->pool, batch, error);
      if (reply == NULL)
        return FALSE;
      if (reply->type != REDIS_REPLY_STRING && reply->type != REDIS_REPLY_STATUS)
        {
          g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                       "unexpected reply of the index script (repair)");
          return FALSE;
        }
      for (size_t i = 0; repaired != NULL && i < reply->len; i++)
        *repaired += reply->str[i] == '1';
      if (results != NULL)
        g_string_append_len (results, reply->str, (gssize) reply->len);
    }
  return TRUE;
}

gboolean
_hbase_index_repair_due (IndexCore *core, guint max, gboolean *too_many,
                         GCancellable *cancellable, GError **error)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) snapshots = NULL;
  g_auto(GStrv) columns = NULL;
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  redisReply *due, *now;
  double now_ms;

  *too_many = FALSE;
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "ZRANGE");
  _hbase_index_batch_str (batch, core->key_fix);
  _hbase_index_batch_str (batch, "0");
  _hbase_index_batch_uint (batch, max);
  _hbase_index_batch_str (batch, "WITHSCORES");
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "TIME");
  replies = _hbase_index_redis_run (core->pool, batch, error);
  if (replies == NULL)
    return FALSE;
  due = g_ptr_array_index (replies, 0);
  now = g_ptr_array_index (replies, 1);
  if (_hbase_index_reply_error (due, error) || _hbase_index_reply_error (now, error))
    return FALSE;
  now_ms = g_ascii_strtod (now->element[0]->str, NULL) * 1000.0 +
           g_ascii_strtod (now->element[1]->str, NULL) / 1000.0;
  for (size_t i = 0; i + 1 < due->elements; i += 2)
    if (g_ascii_strtod (due->element[i + 1]->str, NULL) <= now_ms)
      g_ptr_array_add (keys, g_bytes_new (due->element[i]->str, due->element[i]->len));
  if (keys->len == 0)
    return TRUE;
  if (due->elements / 2 > max && keys->len == max + 1)
    {
      *too_many = TRUE;
      return TRUE;
    }
  snapshots = _hbase_index_snapshot_rows (core, keys, FALSE, error);
  if (snapshots == NULL)
    return FALSE;
  columns = _hbase_index_columns (core->spec);
  read.columns = (const char *const *) columns;
  rows = hbase_table_get_multiple (core->plain, keys, &read, cancellable, error);
  if (rows == NULL)
    return FALSE;
  return _hbase_index_repair_rows (core, keys, rows, snapshots, NULL, FALSE, NULL, NULL, error);
}
