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
