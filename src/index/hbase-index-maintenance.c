/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-maintenance.c: verify (scan HBase, compare with Redis,
 * report missing and extra entries), rebuild (clear and refill from a
 * scan, with concurrent writers), repair (verify, then correct the rows
 * found wrong; rebuild when Redis lost the index) and drop.
 *
 * Verify has two passes.  "scan" reads every row of the table (indexed
 * columns only) and checks that each value has its set member, sorted-set
 * member (with the right score) and record entry: what is not there is
 * missing.  "check" walks Redis (the sets, the sorted sets and the
 * records) and reads the rows each entry names: an entry whose row does
 * not have that value is extra. */
#include "config.h"

#include <string.h>

#include "hbase-index-private.h"

/* --- reports -------------------------------------------------------------------------------- */

struct _HBaseIndexReport {
  guint64 rows;
  guint64 entries;
  guint64 missing;
  guint64 extra;
  guint64 in_doubt;
  guint64 repaired;
  gboolean rebuilt;
  char *note;
  GPtrArray *examples;    /* char *, NULL-terminated */
};

G_DEFINE_BOXED_TYPE (HBaseIndexReport, hbase_index_report, hbase_index_report_copy,
                     hbase_index_report_free)

static HBaseIndexReport *
report_new (void)
{
  HBaseIndexReport *report = g_new0 (HBaseIndexReport, 1);

  report->examples = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (report->examples, NULL);
  return report;
}

/**
 * hbase_index_report_copy:
 * @report: a report
 *
 * Returns: (transfer full): a copy
 */
HBaseIndexReport *
hbase_index_report_copy (const HBaseIndexReport *report)
{
  HBaseIndexReport *copy = report_new ();

  g_return_val_if_fail (report != NULL, NULL);
  copy->rows = report->rows;
  copy->entries = report->entries;
  copy->missing = report->missing;
  copy->extra = report->extra;
  copy->in_doubt = report->in_doubt;
  copy->repaired = report->repaired;
  copy->rebuilt = report->rebuilt;
  copy->note = g_strdup (report->note);
  g_ptr_array_set_size (copy->examples, 0);
  for (guint i = 0; i < report->examples->len; i++)
    g_ptr_array_add (copy->examples, g_strdup (g_ptr_array_index (report->examples, i)));
  return copy;
}

/**
 * hbase_index_report_free:
 * @report: (nullable) (transfer full): a report
 */
void
hbase_index_report_free (HBaseIndexReport *report)
{
  if (report == NULL)
    return;
  g_ptr_array_unref (report->examples);
  g_free (report->note);
  g_free (report);
}

/**
 * hbase_index_report_get_rows:
 * @report: a report
 *
 * Returns: HBase rows read
 */
guint64
hbase_index_report_get_rows (const HBaseIndexReport *report)
{
  return report->rows;
}

/**
 * hbase_index_report_get_entries:
 * @report: a report
 *
 * Returns: index entries the rows should have (verify, repair) or were
 *   given (rebuild)
 */
guint64
hbase_index_report_get_entries (const HBaseIndexReport *report)
{
  return report->entries;
}

/**
 * hbase_index_report_get_missing:
 * @report: a report
 *
 * Returns: values of HBase rows without their index entry (queries would
 *   miss those rows)
 */
guint64
hbase_index_report_get_missing (const HBaseIndexReport *report)
{
  return report->missing;
}

/**
 * hbase_index_report_get_extra:
 * @report: a report
 *
 * Returns: index entries whose row does not have that value (queries
 *   fetch and drop those rows)
 */
guint64
hbase_index_report_get_extra (const HBaseIndexReport *report)
{
  return report->extra;
}

/**
 * hbase_index_report_get_in_doubt:
 * @report: a report
 *
 * Returns: rows with index changes still pending (a write in flight, or
 *   one whose outcome is unknown and whose lease has not ended); a repair
 *   leaves those it could not settle
 */
guint64
hbase_index_report_get_in_doubt (const HBaseIndexReport *report)
{
  return report->in_doubt;
}

/**
 * hbase_index_report_get_repaired:
 * @report: a report
 *
 * Returns: rows a repair made exact
 */
guint64
hbase_index_report_get_repaired (const HBaseIndexReport *report)
{
  return report->repaired;
}

/**
 * hbase_index_report_get_rebuilt:
 * @report: a report
 *
 * Returns: whether the index was rebuilt from scratch
 */
gboolean
hbase_index_report_get_rebuilt (const HBaseIndexReport *report)
{
  return report->rebuilt;
}

/**
 * hbase_index_report_is_consistent:
 * @report: a report of hbase_index_verify()
 *
 * Returns: %TRUE when nothing was missing nor extra
 */
gboolean
hbase_index_report_is_consistent (const HBaseIndexReport *report)
{
  return report->missing == 0 && report->extra == 0;
}

/**
 * hbase_index_report_get_examples:
 * @report: a report
 *
 * Returns: (transfer none) (array zero-terminated=1): some discrepancies
 *   in words
 */
const char *const *
hbase_index_report_get_examples (const HBaseIndexReport *report)
{
  return (const char *const *) report->examples->pdata;
}

/**
 * hbase_index_report_to_string:
 * @report: a report
 *
 * The report as lines of "key: value", for a command-line tool.
 *
 * Returns: (transfer full): the text
 */
char *
hbase_index_report_to_string (const HBaseIndexReport *report)
{
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "rows: %" G_GUINT64_FORMAT "\n", report->rows);
  g_string_append_printf (out, "entries: %" G_GUINT64_FORMAT "\n", report->entries);
  g_string_append_printf (out, "missing: %" G_GUINT64_FORMAT "\n", report->missing);
  g_string_append_printf (out, "extra: %" G_GUINT64_FORMAT "\n", report->extra);
  g_string_append_printf (out, "in doubt: %" G_GUINT64_FORMAT "\n", report->in_doubt);
  g_string_append_printf (out, "repaired: %" G_GUINT64_FORMAT "\n", report->repaired);
  g_string_append_printf (out, "rebuilt: %s\n", report->rebuilt ? "yes" : "no");
  if (report->note != NULL)
    g_string_append_printf (out, "note: %s\n", report->note);
  for (guint i = 0; i + 1 < report->examples->len; i++)
    g_string_append_printf (out, "example: %s\n", (char *) g_ptr_array_index (report->examples, i));
  return g_string_free (out, FALSE);
}

/* --- shared helpers ------------------------------------------------------------------------- */

typedef struct {
  IndexCore *core;
  const HBaseIndexMaintenanceOptions *options;
  HBaseIndexReport *report;
  guint batch_rows;
  guint max_examples;
  GHashTable *fix;        /* GBytes row -> GPtrArray of orphan IndexEntry */
  GHashTable *reported;   /* "row\0name\0value" extras already counted */
  const char *phase;
  /* what the walk over Redis is at */
  const IndexColumn *walk_column;
  gsize walk_prefix_len;  /* of "base:x:NAME:" */
  GPtrArray *walk_keys;   /* GBytes: set keys found by SCAN */
} Work;

static void
progress (Work *work)
{
  HBaseIndexProgress state;

  if (work->options->progress == NULL)
    return;
  state.phase = work->phase;
  state.rows = work->report->rows;
  state.entries = work->report->entries;
  state.missing = work->report->missing;
  state.extra = work->report->extra;
  work->options->progress (&state, work->options->user_data);
}

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

static GPtrArray *
fix_row (Work *work, GBytes *row)
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
  if (reply == NULL)
    return FALSE;
  for (guint t = 0; t < tokens->len && t < reply->elements; t++)
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

              if (_hbase_index_reply_error (reply, error))
                return FALSE;
              missing |= reply->integer != 1;
            }
          if (entry->column->flags & HBASE_INDEX_RANGE)
            {
              redisReply *reply = g_ptr_array_index (replies, next++);

              if (_hbase_index_reply_error (reply, error))
                return FALSE;
              missing |= reply->type != REDIS_REPLY_STRING || !scores_equal (reply->str, entry->score);
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
        fix_row (work, key);
    }
  return TRUE;
}

static gboolean
scan_table (Work *work, gboolean (*each) (Work *, GPtrArray *, GError **), GCancellable *cancellable,
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
      row = hbase_scanner_next (scanner, cancellable, &local);
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
          progress (work);
        }
      if (row == NULL)
        break;
    }
  progress (work);
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
      orphans = fix_row (work, claim->row);
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
  progress (work);
  return ok;
}

/* Runs SCAN-like @command (SCAN, SSCAN, ZSCAN, HSCAN) to the end, calling
 * @each with every batch of elements. */
static gboolean
walk (Work *work, const char *command, GBytes *key, const char *match,
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
      if (reply == NULL)
        return FALSE;
      g_free (cursor);
      cursor = g_strndup (reply->element[0]->str, reply->element[0]->len);
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
          g_autofree char *match = g_strdup_printf ("%s*", prefix);

          work->walk_keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
          ok = walk (work, "SCAN", NULL, match, each_key, NULL, cancellable, error);
          work->walk_column = column;
          work->walk_prefix_len = strlen (prefix);
          for (guint k = 0; ok && k < work->walk_keys->len; k++)
            ok = walk (work, "SSCAN", g_ptr_array_index (work->walk_keys, k), NULL, each_member,
                       claims, cancellable, error);
          g_clear_pointer (&work->walk_keys, g_ptr_array_unref);
        }
      if (ok && (column->flags & HBASE_INDEX_RANGE))
        {
          g_autofree char *zset = _hbase_index_range_key (core->base, column->name);
          g_autoptr(GBytes) key = g_bytes_new (zset, strlen (zset));

          work->walk_column = column;
          ok = walk (work, "ZSCAN", key, NULL, each_zmember, claims, cancellable, error);
        }
    }
  if (ok)
    {
      g_autoptr(GBytes) records = g_bytes_new (core->key_rec, strlen (core->key_rec));

      ok = walk (work, "HSCAN", records, NULL, each_record, claims, cancellable, error);
    }
  if (ok)
    ok = check_claims (work, claims, cancellable, error);
  progress (work);
  return ok;
}

/* --- verify, rebuild, repair ------------------------------------------------------------------- */

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
  work->report = report_new ();
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

static gboolean
verify (Work *work, GCancellable *cancellable, GError **error)
{
  work->phase = "scan";
  return scan_table (work, check_rows, cancellable, error) &&
         check_redis (work, cancellable, error);
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
 */
HBaseIndexReport *
hbase_index_verify (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
                    GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (index != NULL, NULL);
  return run_pass (index, options, verify, cancellable, error);
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
  return replies != NULL && !_hbase_index_reply_error (g_ptr_array_index (replies, 0), error);
}

/* Deletes the index's keys (except its state and counter in the "clear"
 * phase). */
/* Deletes the index's keys but its state and write counter and starts a
 * new generation, atomically (the script's "clear"). */
static gboolean
clear_keys (Work *work, GError **error)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(redisReply) reply = NULL;
  g_autofree char *match = g_strdup_printf ("%s:*", work->core->base);

  _hbase_index_batch_script (batch, work->core->base, "clear");
  _hbase_index_batch_str (batch, match);
  reply = _hbase_index_redis_command (work->core->pool, batch, error);
  if (reply == NULL)
    return FALSE;
  if (reply->type != REDIS_REPLY_INTEGER)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "unexpected reply of the index script (clear)%s%s",
                   reply->type == REDIS_REPLY_ERROR ? ": " : "",
                   reply->type == REDIS_REPLY_ERROR ? reply->str : "");
      return FALSE;
    }
  return TRUE;
}

/* Deletes every key of the index, its state included (hbase_index_drop()). */
static gboolean
delete_keys (Work *work, GCancellable *cancellable, GError **error)
{
  g_autofree char *match = g_strdup_printf ("%s:*", work->core->base);

  return walk (work, "SCAN", NULL, match, each_key_to_delete, NULL, cancellable, error);
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
  progress (work);
  /* writers go on meanwhile: their "after" sees the new generation and
   * settles their rows again; the scan adds what it reads */
  work->phase = "scan";
  if (!scan_table (work, add_rows, cancellable, error))
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
 */
HBaseIndexReport *
hbase_index_rebuild (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
                     GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (index != NULL, NULL);
  return run_pass (index, options, rebuild, cancellable, error);
}

static gboolean
each_fix_member (Work *work, GBytes *key, redisReply *elements, GPtrArray *claims, GError **error)
{
  for (size_t i = 0; i + 1 < elements->elements; i += 2)
    {
      g_autoptr(GBytes) row = g_bytes_new (elements->element[i]->str, elements->element[i]->len);

      fix_row (work, row);
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
      progress (work);
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
  if (!verify (work, cancellable, error))
    return FALSE;
  /* and the rows writers left to be read again */
  {
    g_autofree char *fix_key = g_strdup (core->key_fix);
    g_autoptr(GBytes) key = g_bytes_new (fix_key, strlen (fix_key));

    if (!walk (work, "ZSCAN", key, NULL, each_fix_member, NULL, cancellable, error))
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
 */
HBaseIndexReport *
hbase_index_repair (HBaseIndex *index, const HBaseIndexMaintenanceOptions *options,
                    GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (index != NULL, NULL);
  return run_pass (index, options, repair, cancellable, error);
}

/**
 * hbase_index_drop:
 * @index: an index
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Deletes the index: every Redis key of it and its definitions in HBase.
 * The table's data is untouched.  Writes through @index's table fail
 * afterwards only if the table is indexed again; free @index.
 *
 * Returns: %TRUE on success
 */
gboolean
hbase_index_drop (HBaseIndex *index, GCancellable *cancellable, GError **error)
{
  HBaseIndexMaintenanceOptions defaults;
  Work work;
  gboolean ok;
  g_autoptr(GBytes) row = NULL;
  g_autoptr(HBaseMutation) remove = NULL;

  g_return_val_if_fail (index != NULL, FALSE);
  work_init (&work, index, NULL, &defaults);
  work.phase = "drop";
  row = g_bytes_new (index->core->table_name, strlen (index->core->table_name));
  remove = hbase_mutation_new_delete (row);
  ok = hbase_table_apply (index->core->meta, remove, cancellable, error) &&
       delete_keys (&work, cancellable, error);
  work_clear (&work);
  return ok;
}
