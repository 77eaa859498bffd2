/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-changes.c: what a write changes in the index: per row and
 * indexed column the values the write sets (or that are known only after
 * it: increments, appends, version deletes), and these changes encoded as
 * the Lua script takes them (see hbase-index.lua). */
#include "config.h"

#include <string.h>

#include "hbase-index-hooks-private.h"
#include "../table/hbase-mutation-private.h"

/* --- the changes of a write ------------------------------------------------------------ */

static void
row_op_free (gpointer data)
{
  RowOp *op = data;

  g_ptr_array_unref (op->vals);
  g_clear_pointer (&op->res, g_ptr_array_unref);
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

void
_hbase_index_call_state_free (gpointer data)
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
  /* op->res is made when a value is learned (rare: most writes set
   * their values) */
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

void
_hbase_index_entries_add (GPtrArray *entries, IndexEntry *entry)
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
    {
      /* made before it is shared */
      _hbase_index_entry_blob (entry);
      if (strchr (entry->flags, 'x') != NULL)
        entry->exact_key = _hbase_index_exact_key (core->base, column->name, entry->value);
    }
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
          _hbase_index_entries_add (vals, cached_entry (core, c, value));
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
GPtrArray *
_hbase_index_compute_changes (IndexCore *core, GPtrArray *mutations)
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
            _hbase_index_entries_add (op->vals, g_ptr_array_steal_index (vals, 0));
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

static void
put_be16 (GByteArray *out, guint value)
{
  guint8 be[2] = { (guint8) (value >> 8), (guint8) value };

  g_byte_array_append (out, be, 2);
}

static void
put_blob (GByteArray *out, IndexEntry *entry)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (_hbase_index_entry_blob (entry), &len);

  g_byte_array_append (out, data, (guint) len);
}

/* A row's ops as the Lua script takes them, appended to @out: '>I1'
 * count, then per op '>I1c0I1c0I2' name, flags, count of values, and the
 * values. */
static void
append_ops (GByteArray *out, RowChange *change)
{
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
}

void
_hbase_index_batch_ops (RedisBatch *batch, RowChange *change)
{
  g_autoptr(GByteArray) out = g_byte_array_sized_new (256);

  append_ops (out, change);
  _hbase_index_batch_arg (batch, out->data, out->len);
}

/* The values a row's change writes, '>I2' count and entries (as
 * _hbase_index_append_list() of all ops' values), appended to @out. */
static void
append_written (GByteArray *out, RowChange *change)
{
  guint n = 0;

  for (guint o = 0; o < change->ops->len; o++)
    n += ((RowOp *) g_ptr_array_index (change->ops, o))->vals->len;
  put_be16 (out, n);
  for (guint o = 0; o < change->ops->len; o++)
    {
      GPtrArray *vals = ((RowOp *) g_ptr_array_index (change->ops, o))->vals;

      for (guint v = 0; v < vals->len; v++)
        put_blob (out, g_ptr_array_index (vals, v));
    }
}

GByteArray *
_hbase_index_written_bytes (RowChange *change)
{
  GByteArray *out = g_byte_array_sized_new (256);

  append_written (out, change);
  return out;
}

/* The values learned after the write: per op '>I2' count, entries. */
void
_hbase_index_batch_learned (RedisBatch *batch, RowChange *change)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();

  for (guint o = 0; o < change->ops->len; o++)
    _hbase_index_append_list (out, ((RowOp *) g_ptr_array_index (change->ops, o))->res);
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
GByteArray *
_hbase_index_fresh_record (RowChange *change, const char *token, double deadline)
{
  GByteArray *out = g_byte_array_sized_new (512);
  const guint8 tag = 'R', no_candidates[3] = { 0xff, 0xff, 0x00 }, one[2] = { 0x00, 0x01 };
  guint8 token_len = (guint8) strlen (token), zero = 0, ops_len_be[4] = { 0, 0, 0, 0 };
  double seq = 0.0;
  guint64 bits;
  guint ops_at;
  guint32 ops_len;

  g_byte_array_append (out, &tag, 1);
  memcpy (&bits, &seq, 8);
  put_be64 (out, bits);
  append_written (out, change);
  g_byte_array_append (out, no_candidates, 3);
  g_byte_array_append (out, one, 2);
  g_byte_array_append (out, &token_len, 1);
  g_byte_array_append (out, (const guint8 *) token, token_len);
  memcpy (&bits, &deadline, 8);
  put_be64 (out, bits);
  g_byte_array_append (out, &zero, 1);    /* not contended */
  g_byte_array_append (out, &zero, 1);    /* no outcome */
  /* the ops' length, filled in once they are written after it */
  g_byte_array_append (out, ops_len_be, 4);
  ops_at = out->len;
  append_ops (out, change);
  ops_len = GUINT32_TO_BE (out->len - ops_at);
  memcpy (out->data + ops_at - 4, &ops_len, 4);
  return out;
}
