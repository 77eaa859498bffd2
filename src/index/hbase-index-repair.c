/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-repair.c: the row records read from Redis, and rows'
 * entries repaired from what HBase holds (exactly, or only adding while a
 * write of the row may be in flight), as queries and maintenance use
 * them. */
#include "config.h"

#include "hbase-index-private.h"

/* --- records and repairs ------------------------------------------------------------------- */

static void
batch_list (RedisBatch *batch, GPtrArray *entries)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();

  _hbase_index_append_list (out, entries);
  _hbase_index_batch_arg (batch, out->data, out->len);
}

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
  if (replies == NULL || !_hbase_index_parse_records (replies, keys->len, 1000, records, error))
    return NULL;
  return g_steal_pointer (&records);
}

gboolean
_hbase_index_parse_records (GPtrArray *replies, guint n_keys, guint chunk, GPtrArray *records,
                            GError **error)
{
  guint left = n_keys;

  if (chunk == 0 || replies->len != (n_keys + chunk - 1) / chunk)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "Redis answered %u commands of %u", replies->len, (n_keys + chunk - 1) / MAX (chunk, 1));
      return FALSE;
    }
  for (guint c = 0; c < replies->len; c++)
    {
      redisReply *reply = g_ptr_array_index (replies, c);
      guint n = MIN (left, chunk);

      if (!_hbase_index_reply_array (reply, "HMGET", n, n, REPLY_STRING | REPLY_NIL, error))
        return FALSE;
      left -= n;
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
                  return FALSE;
                }
            }
          g_ptr_array_add (records, record);
        }
    }
  return TRUE;
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
      if (reply == NULL || !_hbase_index_parse_snapshot (reply, end - start, snapshots, error))
        return NULL;
    }
  return g_steal_pointer (&snapshots);
}

gboolean
_hbase_index_parse_snapshot (redisReply *reply, guint n, GPtrArray *snapshots, GError **error)
{
  if (!_hbase_index_reply_array (reply, "the index script (snapshot)", n, n, REPLY_STRING, error))
    return FALSE;
  for (size_t i = 0; i < reply->elements; i++)
    g_ptr_array_add (snapshots, g_strndup (reply->element[i]->str, reply->element[i]->len));
  return TRUE;
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
      if (reply == NULL || !_hbase_index_parse_repair (reply, end - start, repaired, results, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
_hbase_index_parse_repair (redisReply *reply, guint n, guint *repaired, GString *results,
                           GError **error)
{
  const char *flags;
  gsize len;

  if (!_hbase_index_reply_string (reply, "the index script (repair)", FALSE, TRUE, &flags, &len, error))
    return FALSE;
  if (len != n)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
                   "unexpected reply of Redis to the index script (repair): expected a flag for "
                   "each of %u rows, got %zu", n, len);
      return FALSE;
    }
  for (gsize i = 0; repaired != NULL && i < len; i++)
    *repaired += flags[i] == '1';
  if (results != NULL)
    g_string_append_len (results, flags, (gssize) len);
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
  if (replies == NULL ||
      !_hbase_index_parse_due (g_ptr_array_index (replies, 0), g_ptr_array_index (replies, 1), max,
                               keys, too_many, error))
    return FALSE;
  if (keys->len == 0 || *too_many)
    return TRUE;
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

gboolean
_hbase_index_parse_due (redisReply *due, redisReply *now, guint max, GPtrArray *keys,
                        gboolean *too_many, GError **error)
{
  gint64 now_ms;

  *too_many = FALSE;
  /* ZRANGE 0 max: at most max + 1 rows */
  if (!_hbase_index_reply_pairs (due, "ZRANGE", (gsize) max + 1, error) ||
      !_hbase_index_reply_time (now, &now_ms, error))
    return FALSE;
  for (size_t i = 0; i + 1 < due->elements; i += 2)
    {
      double score;

      if (!_hbase_index_reply_score (due->element[i + 1], "ZRANGE", &score, error))
        return FALSE;
      if (score <= (double) now_ms)
        g_ptr_array_add (keys, g_bytes_new (due->element[i]->str, due->element[i]->len));
    }
  if (due->elements / 2 > max && keys->len == max + 1)
    *too_many = TRUE;
  return TRUE;
}
