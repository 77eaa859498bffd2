/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-verify.c: the index compared with the table, in two passes.
 *
 * "scan" reads every row of the table (indexed columns only) and checks
 * that each value has its set member, sorted-set member (with the right
 * score) and record entry: what is not there is missing.  "check" walks
 * Redis (the sets, the sorted sets and the records) and reads the rows
 * each entry names: an entry whose row does not have that value is
 * extra. */
#include "config.h"

#include <string.h>

#include "hbase-index-maintenance-private.h"

/* --- helpers of the two passes ----------------------------------------------------------- */

static char *
show_bytes (GBytes *bytes)
{
  GString *out = g_string_new (NULL);
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  for (gsize i = 0; i < len && i < 64; i++)
    if (data[i] >= 0x20 && data[i] < 0x7f && data[i] != '\\')
      g_string_append_c (out, (char) data[i]);
    else
      g_string_append_printf (out, "\\x%02x", data[i]);
  if (len > 64)
    g_string_append (out, "...");
  return g_string_free (out, FALSE);
}

static void
example (Work *work, const char *what, GBytes *row, const IndexColumn *column, GBytes *value)
{
  g_autofree char *row_text = NULL;
  g_autofree char *value_text = NULL;

  if (work->report->examples->len > work->max_examples)
    return;
  row_text = show_bytes (row);
  value_text = value != NULL ? show_bytes (value) : g_strdup ("");
  g_ptr_array_insert (work->report->examples, (gint) work->report->examples->len - 1,
                      g_strdup_printf ("%s: row \"%s\", index %s, value \"%s\"", what, row_text,
                                       column->name, value_text));
}

GPtrArray *
_hbase_index_fix_row (Work *work, GBytes *row)
{
  GPtrArray *orphans;

  if (work->fix == NULL)
    return NULL;
  orphans = g_hash_table_lookup (work->fix, row);
  if (orphans == NULL)
    {
      orphans = g_ptr_array_new_with_free_func (_hbase_index_entry_free);
      g_hash_table_insert (work->fix, g_bytes_ref (row), orphans);
    }
  return orphans;
}

static gboolean
report_extra_once (Work *work, GBytes *row, const char *name, GBytes *value)
{
  GByteArray *id = g_byte_array_new ();
  GBytes *key;

  g_byte_array_append (id, g_bytes_get_data (row, NULL), (guint) g_bytes_get_size (row));
  g_byte_array_append (id, (const guint8 *) "", 1);
  g_byte_array_append (id, (const guint8 *) name, (guint) strlen (name) + 1);
  g_byte_array_append (id, g_bytes_get_data (value, NULL), (guint) g_bytes_get_size (value));
  key = g_byte_array_free_to_bytes (id);
  if (g_hash_table_contains (work->reported, key))
    {
      g_bytes_unref (key);
      return FALSE;
    }
  g_hash_table_add (work->reported, key);
  return TRUE;
}

static const IndexEntry *
find_entry (GPtrArray *entries, const char *name, GBytes *value)
{
  for (guint i = 0; i < entries->len; i++)
    {
      const IndexEntry *entry = g_ptr_array_index (entries, i);

      if (strcmp (entry->column->name, name) == 0 && g_bytes_equal (entry->value, value))
        return entry;
    }
  return NULL;
}

static gboolean
record_has (IndexRecord *record, const char *name, GBytes *value)
{
  for (guint i = 0; record != NULL && i < record->entries->len; i++)
    {
      RecordEntry *entry = g_ptr_array_index (record->entries, i);

      if (strcmp (entry->name, name) == 0 && g_bytes_equal (entry->value, value))
        return TRUE;
    }
  return FALSE;
}

static gboolean
scores_equal (const char *a, const char *b)
{
  return g_ascii_strtod (a, NULL) == g_ascii_strtod (b, NULL);
}

static GBytes *
zmember (const IndexEntry *entry, GBytes *row)
{
  GByteArray *member = g_byte_array_new ();

  g_byte_array_append (member, g_bytes_get_data (entry->sortkey, NULL),
                       (guint) g_bytes_get_size (entry->sortkey));
  g_byte_array_append (member, g_bytes_get_data (row, NULL), (guint) g_bytes_get_size (row));
  return g_byte_array_free_to_bytes (member);
}

/* --- pass 1: every HBase row has its entries ------------------------------------------------ */

/* Learns the stored outcome of the writes the records name as pending
 * (token -> TRUE when known). */
static gboolean
load_outcomes (Work *work, GPtrArray *records, GHashTable *outcomes, GError **error)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) tokens = g_ptr_array_new ();
  g_autoptr(redisReply) reply = NULL;

  for (guint i = 0; i < records->len; i++)
    {
      IndexRecord *record = g_ptr_array_index (records, i);

      for (guint t = 0; record != NULL && t < record->tokens->len; t++)
        {
          char *token = g_ptr_array_index (record->tokens, t);

          if (!g_hash_table_contains (outcomes, token))
            {
              g_hash_table_insert (outcomes, g_strdup (token), GINT_TO_POINTER (FALSE));
              g_ptr_array_add (tokens, token);
            }
        }
    }
  if (tokens->len == 0)
    return TRUE;
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "MGET");
  for (guint t = 0; t < tokens->len; t++)
    {
      g_autofree char *key = g_strdup_printf ("%s:t:%s", work->core->base,
                                              (char *) g_ptr_array_index (tokens, t));

      _hbase_index_batch_str (batch, key);
    }
  reply = _hbase_index_redis_command (work->core->pool, batch, error);
  return reply != NULL && _hbase_index_parse_outcomes (reply, tokens, outcomes, error);
}

gboolean
_hbase_index_parse_outcomes (redisReply *reply, GPtrArray *tokens, GHashTable *outcomes, GError **error)
{
  if (!_hbase_index_reply_array (reply, "MGET", tokens->len, tokens->len, REPLY_STRING | REPLY_NIL, error))
    return FALSE;
  for (guint t = 0; t < tokens->len; t++)
    if (reply->element[t]->type == REDIS_REPLY_STRING &&
        (reply->element[t]->str[0] == 'A' || reply->element[t]->str[0] == 'N'))
      g_hash_table_insert (outcomes, g_strdup (g_ptr_array_index (tokens, t)), GINT_TO_POINTER (TRUE));
  return TRUE;
}

/* No change of the record is in flight or in doubt: the pending ones
 * only wait to be settled from their stored outcome. */
static gboolean
settled (IndexRecord *record, GHashTable *outcomes)
{
  if (record->n_in_doubt > 0)
    return FALSE;
  for (guint t = 0; t < record->tokens->len; t++)
    if (!GPOINTER_TO_INT (g_hash_table_lookup (outcomes, g_ptr_array_index (record->tokens, t))))
      return FALSE;
  return TRUE;
}

static gboolean
check_rows (Work *work, GPtrArray *rows, GError **error)
{
  IndexCore *core = work->core;
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) actual = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;
  g_autoptr(GHashTable) outcomes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint next = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      HBaseRow *row = g_ptr_array_index (rows, i);

      g_ptr_array_add (keys, hbase_row_get_key (row));
      g_ptr_array_add (actual, _hbase_index_row_entries (core->spec, row));
    }
  records = _hbase_index_read_records (core, keys, error);
  if (records == NULL || !load_outcomes (work, records, outcomes, error))
    return FALSE;
  for (guint i = 0; i < rows->len; i++)
    {
      GPtrArray *entries = g_ptr_array_index (actual, i);
      GBytes *key = g_ptr_array_index (keys, i);

      for (guint e = 0; e < entries->len; e++)
        {
          const IndexEntry *entry = g_ptr_array_index (entries, e);

          if (entry->column->flags & HBASE_INDEX_EXACT)
            {
              g_autoptr(GBytes) set = _hbase_index_exact_key (core->base, entry->column->name,
                                                              entry->value);

              _hbase_index_batch_command (batch);
              _hbase_index_batch_str (batch, "SISMEMBER");
              _hbase_index_batch_bytes (batch, set);
              _hbase_index_batch_bytes (batch, key);
            }
          if (entry->column->flags & HBASE_INDEX_RANGE)
            {
              g_autofree char *zset = _hbase_index_range_key (core->base, entry->column->name);
              g_autoptr(GBytes) member = zmember (entry, key);

              _hbase_index_batch_command (batch);
              _hbase_index_batch_str (batch, "ZSCORE");
              _hbase_index_batch_str (batch, zset);
              _hbase_index_batch_bytes (batch, member);
            }
        }
    }
  if (_hbase_index_batch_n_commands (batch) > 0)
    {
      replies = _hbase_index_redis_run (core->pool, batch, error);
      if (replies == NULL)
        return FALSE;
    }
  for (guint i = 0; i < rows->len; i++)
    {
      GPtrArray *entries = g_ptr_array_index (actual, i);
      GBytes *key = g_ptr_array_index (keys, i);
      IndexRecord *record = g_ptr_array_index (records, i);
      gboolean wrong = FALSE;

      work->report->rows++;
      for (guint e = 0; e < entries->len; e++)
        {
          const IndexEntry *entry = g_ptr_array_index (entries, e);
          gboolean missing = !record_has (record, entry->column->name, entry->value);

          work->report->entries++;
          if (entry->column->flags & HBASE_INDEX_EXACT)
            {
              redisReply *reply = g_ptr_array_index (replies, next++);
              long long is_member;

              if (!_hbase_index_reply_integer (reply, "SISMEMBER", &is_member, error))
                return FALSE;
              missing |= is_member != 1;
            }
          if (entry->column->flags & HBASE_INDEX_RANGE)
            {
              redisReply *reply = g_ptr_array_index (replies, next++);
              const char *score;

              if (!_hbase_index_reply_string (reply, "ZSCORE", TRUE, FALSE, &score, NULL, error))
                return FALSE;
              missing |= score == NULL || !scores_equal (score, entry->score);
            }
          if (missing)
            {
              work->report->missing++;
              example (work, "missing", key, entry->column, entry->value);
              wrong = TRUE;
            }
        }
      /* values the record lists that the row does not have */
      for (guint r = 0; record != NULL && r < record->entries->len; r++)
        {
          RecordEntry *listed = g_ptr_array_index (record->entries, r);

          if (find_entry (entries, listed->name, listed->value) == NULL)
            {
              const IndexColumn *column = _hbase_index_spec_find (core->spec, listed->name);

              if (column != NULL && report_extra_once (work, key, listed->name, listed->value))
                {
                  work->report->extra++;
                  example (work, "extra", key, column, listed->value);
                }
              wrong = TRUE;
            }
        }
      if (record != NULL && (record->needs_fix || !settled (record, outcomes)))
        {
          work->report->in_doubt++;
          if (work->options->assume_quiescent)
            wrong = TRUE;
        }
      if (wrong)
        _hbase_index_fix_row (work, key);
    }
  return TRUE;
}

gboolean
_hbase_index_scan_table (Work *work, gboolean (*each) (Work *, GPtrArray *, GError **), GCancellable *cancellable,
                         GError **error)
{
  IndexCore *core = work->core;
  g_auto(GStrv) columns = _hbase_index_columns (core->spec);
  HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  GError *local = NULL;
  HBaseRow *row;

  scan.caching = work->batch_rows;
  scan.read.columns = (const char *const *) columns;
  scanner = hbase_table_scan (core->plain, &scan, error);
  if (scanner == NULL)
    return FALSE;
  for (;;)
    {
      hbase_scanner_next (scanner, &row, cancellable, &local);
      if (row != NULL)
        g_ptr_array_add (rows, row);
      if (local != NULL)
        {
          g_propagate_error (error, local);
          return FALSE;
        }
      if ((row == NULL && rows->len > 0) || rows->len >= work->batch_rows)
        {
          if (!each (work, rows, error))
            return FALSE;
          g_ptr_array_set_size (rows, 0);
          _hbase_index_progress (work);
        }
      if (row == NULL)
        break;
    }
  _hbase_index_progress (work);
  return TRUE;
}

/* --- pass 2: every Redis entry is in HBase ----------------------------------------------------- */

/* An entry Redis holds, to check against its row. */
typedef struct {
  GBytes *row;
  IndexEntry *entry;      /* what it stands for (flags: the part) */
  char *score;            /* sorted-set entries: the score Redis holds */
  gboolean from_record;
} Claim;

static void
claim_free (gpointer data)
{
  Claim *claim = data;

  g_bytes_unref (claim->row);
  _hbase_index_entry_free (claim->entry);
  g_free (claim->score);
  g_free (claim);
}

static gboolean
check_claims (Work *work, GPtrArray *claims, GCancellable *cancellable, GError **error)
{
  IndexCore *core = work->core;
  g_autoptr(GHashTable) index = g_hash_table_new (g_bytes_hash, g_bytes_equal);
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) rows = NULL;
  g_auto(GStrv) columns = _hbase_index_columns (core->spec);
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;

  if (claims->len == 0)
    return TRUE;
  for (guint i = 0; i < claims->len; i++)
    {
      Claim *claim = g_ptr_array_index (claims, i);

      if (!g_hash_table_contains (index, claim->row))
        {
          g_hash_table_insert (index, claim->row, GUINT_TO_POINTER (keys->len));
          g_ptr_array_add (keys, claim->row);
        }
    }
  read.columns = (const char *const *) columns;
  rows = hbase_table_get_multiple (core->plain, keys, &read, cancellable, error);
  if (rows == NULL)
    return FALSE;
  for (guint i = 0; i < claims->len; i++)
    {
      Claim *claim = g_ptr_array_index (claims, i);
      HBaseRow *row = g_ptr_array_index (rows, GPOINTER_TO_UINT (g_hash_table_lookup (index, claim->row)));
      g_autoptr(GPtrArray) actual = _hbase_index_row_entries (core->spec, row);
      const IndexEntry *match = find_entry (actual, claim->entry->column->name, claim->entry->value);
      GPtrArray *orphans;

      if (match != NULL && (claim->score == NULL || scores_equal (claim->score, match->score)))
        continue;
      if (report_extra_once (work, claim->row, claim->entry->column->name, claim->entry->value))
        {
          work->report->extra++;
          example (work, "extra", claim->row, claim->entry->column, claim->entry->value);
        }
      orphans = _hbase_index_fix_row (work, claim->row);
      if (orphans != NULL && !claim->from_record && match == NULL)
        {
          g_ptr_array_add (orphans, claim->entry);
          claim->entry = NULL;
        }
    }
  return TRUE;
}

static gboolean
flush_claims (Work *work, GPtrArray *claims, GCancellable *cancellable, GError **error)
{
  gboolean ok;

  if (claims->len < work->batch_rows)
    return TRUE;
  ok = check_claims (work, claims, cancellable, error);
  g_ptr_array_set_size (claims, 0);
  _hbase_index_progress (work);
  return ok;
}

/* Runs SCAN-like @command (SCAN, SSCAN, ZSCAN, HSCAN) to the end, calling
 * @each with every batch of elements. */
gboolean
_hbase_index_walk (Work *work, const char *command, GBytes *key, const char *match,
                   gboolean (*each) (Work *, GBytes *, redisReply *, GPtrArray *, GError **), GPtrArray *claims,
                   GCancellable *cancellable, GError **error)
{
  g_autofree char *cursor = g_strdup ("0");

  do
    {
      g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
      g_autoptr(redisReply) reply = NULL;

      _hbase_index_batch_command (batch);
      _hbase_index_batch_str (batch, command);
      if (key != NULL)
        _hbase_index_batch_bytes (batch, key);
      _hbase_index_batch_str (batch, cursor);
      if (match != NULL)
        {
          _hbase_index_batch_str (batch, "MATCH");
          _hbase_index_batch_str (batch, match);
        }
      _hbase_index_batch_str (batch, "COUNT");
      _hbase_index_batch_uint (batch, work->batch_rows);
      reply = _hbase_index_redis_command (work->core->pool, batch, error);
      g_clear_pointer (&cursor, g_free);
      /* SSCAN and SCAN give members or keys, HSCAN and ZSCAN pairs; COUNT
       * is a hint, which a real Redis may exceed a little */
      if (reply == NULL ||
          !_hbase_index_reply_scan (reply, command, strcmp (command, "HSCAN") == 0 || strcmp (command, "ZSCAN") == 0,
                                    HBASE_INDEX_REPLY_MAX_ELEMENTS, &cursor, error))
        return FALSE;
      if (!each (work, key, reply->element[1], claims, error) ||
          (claims != NULL && !flush_claims (work, claims, cancellable, error)))
        return FALSE;
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }
  while (strcmp (cursor, "0") != 0);
  return TRUE;
}

static gboolean
each_member (Work *work, GBytes *key, redisReply *elements, GPtrArray *claims, GError **error)
{
  gsize key_len;
  const guint8 *key_data = g_bytes_get_data (key, &key_len);
  g_autoptr(GBytes) canonical = g_bytes_new (key_data + work->walk_prefix_len,
                                             key_len - work->walk_prefix_len);

  for (size_t i = 0; i < elements->elements; i++)
    {
      Claim *claim;
      IndexEntry *entry = _hbase_index_entry_new (work->walk_column, g_bytes_get_data (canonical, NULL),
                                                  g_bytes_get_size (canonical));

      if (entry == NULL)
        continue;
      entry->flags = "x";
      claim = g_new0 (Claim, 1);
      claim->row = g_bytes_new (elements->element[i]->str, elements->element[i]->len);
      claim->entry = entry;
      g_ptr_array_add (claims, claim);
    }
  return TRUE;
}

static gboolean
each_key (Work *work, GBytes *key, redisReply *elements, GPtrArray *claims, GError **error)
{
  for (size_t i = 0; i < elements->elements; i++)
    g_ptr_array_add (work->walk_keys, g_bytes_new (elements->element[i]->str,
                                                 elements->element[i]->len));
  return TRUE;
}

static gboolean
each_zmember (Work *work, GBytes *key, redisReply *elements, GPtrArray *claims, GError **error)
{
  for (size_t i = 0; i + 1 < elements->elements; i += 2)
    {
      GBytes *row = NULL;
      IndexEntry *entry = _hbase_index_entry_from_member (work->walk_column,
                                                          (const guint8 *) elements->element[i]->str,
                                                          elements->element[i]->len, &row);
      Claim *claim;

      if (entry == NULL)
        {
          g_clear_pointer (&row, g_bytes_unref);
          continue;
        }
      claim = g_new0 (Claim, 1);
      claim->row = row;
      claim->entry = entry;
      claim->score = g_strndup (elements->element[i + 1]->str, elements->element[i + 1]->len);
      g_ptr_array_add (claims, claim);
    }
  return TRUE;
}

static gboolean
each_record (Work *work, GBytes *key, redisReply *elements, GPtrArray *claims, GError **error)
{
  for (size_t i = 0; i + 1 < elements->elements; i += 2)
    {
      IndexRecord record;

      if (!_hbase_index_record_parse (elements->element[i + 1]->str, elements->element[i + 1]->len,
                                      &record))
        continue;
      for (guint e = 0; e < record.entries->len; e++)
        {
          RecordEntry *listed = g_ptr_array_index (record.entries, e);
          const IndexColumn *column = _hbase_index_spec_find (work->core->spec, listed->name);
          IndexEntry *entry;
          Claim *claim;

          if (column == NULL)
            continue;
          entry = _hbase_index_entry_new (column, g_bytes_get_data (listed->value, NULL),
                                          g_bytes_get_size (listed->value));
          if (entry == NULL)
            continue;
          claim = g_new0 (Claim, 1);
          claim->row = g_bytes_new (elements->element[i]->str, elements->element[i]->len);
          claim->entry = entry;
          claim->from_record = TRUE;
          g_ptr_array_add (claims, claim);
        }
      _hbase_index_record_clear (&record);
    }
  return TRUE;
}

static gboolean
check_redis (Work *work, GCancellable *cancellable, GError **error)
{
  IndexCore *core = work->core;
  g_autoptr(GPtrArray) claims = g_ptr_array_new_with_free_func (claim_free);
  gboolean ok = TRUE;

  work->phase = "check";
  for (guint c = 0; ok && c < core->spec->columns->len; c++)
    {
      const IndexColumn *column = g_ptr_array_index (core->spec->columns, c);

      if (column->flags & HBASE_INDEX_EXACT)
        {
          g_autofree char *prefix = g_strdup_printf ("%s:x:%s:", core->base, column->name);
          g_autofree char *x_name = g_strdup_printf ("x:%s:", column->name);
          g_autofree char *match = _hbase_index_key_pattern (core->base, x_name);

          work->walk_keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
          ok = _hbase_index_walk (work, "SCAN", NULL, match, each_key, NULL, cancellable, error);
          work->walk_column = column;
          work->walk_prefix_len = strlen (prefix);
          for (guint k = 0; ok && k < work->walk_keys->len; k++)
            ok = _hbase_index_walk (work, "SSCAN", g_ptr_array_index (work->walk_keys, k), NULL, each_member,
                                    claims, cancellable, error);
          g_clear_pointer (&work->walk_keys, g_ptr_array_unref);
        }
      if (ok && (column->flags & HBASE_INDEX_RANGE))
        {
          g_autofree char *zset = _hbase_index_range_key (core->base, column->name);
          g_autoptr(GBytes) key = g_bytes_new (zset, strlen (zset));

          work->walk_column = column;
          ok = _hbase_index_walk (work, "ZSCAN", key, NULL, each_zmember, claims, cancellable, error);
        }
    }
  if (ok)
    {
      g_autoptr(GBytes) records = g_bytes_new (core->key_rec, strlen (core->key_rec));

      ok = _hbase_index_walk (work, "HSCAN", records, NULL, each_record, claims, cancellable, error);
    }
  if (ok)
    ok = check_claims (work, claims, cancellable, error);
  _hbase_index_progress (work);
  return ok;
}

gboolean
_hbase_index_verify (Work *work, GCancellable *cancellable, GError **error)
{
  work->phase = "scan";
  return _hbase_index_scan_table (work, check_rows, cancellable, error) &&
         check_redis (work, cancellable, error);
}
