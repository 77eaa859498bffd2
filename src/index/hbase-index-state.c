/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-state.c: whether the index in Redis can answer queries
 * (ready, building, lost with a Redis restart, unreachable), as the
 * state hash says, and marking it checked against a Redis process. */
#include "config.h"

#include <string.h>

#include "hbase-index-private.h"

/* --- state ------------------------------------------------------------------------------------ */

HBaseIndexState
_hbase_index_state_parse (redisReply *reply, const char *expected_version, IndexRedisPool *pool,
                          gboolean trust_redis_restarts, char **reason)
{
  redisReply *status, *version, *run;
  g_autofree char *run_id = NULL;
  g_autoptr(GError) local = NULL;

  if (!_hbase_index_reply_array (reply, "HMGET", 3, 3, REPLY_STRING | REPLY_NIL, &local))
    {
      *reason = g_strdup (local->message);
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
  if (version->type != REDIS_REPLY_STRING || strcmp (version->str, expected_version) != 0)
    {
      *reason = g_strdup ("Redis holds an index of other definitions: rebuild it");
      return HBASE_INDEX_STATE_NOT_BUILT;
    }
  if (strcmp (status->str, "ready") != 0)
    {
      *reason = g_strdup ("the index is being rebuilt");
      return HBASE_INDEX_STATE_BUILDING;
    }
  run_id = pool != NULL ? _hbase_index_pool_run_id (pool) : NULL;
  if (!trust_redis_restarts && run_id != NULL &&
      (run->type != REDIS_REPLY_STRING || strcmp (run->str, run_id) != 0))
    {
      *reason = g_strdup ("Redis restarted since the index was last built or repaired and may "
                          "have lost its last writes: repair it");
      return HBASE_INDEX_STATE_RESTARTED;
    }
  return HBASE_INDEX_STATE_READY;
}

HBaseIndexState
_hbase_index_state_of_reply (IndexCore *core, redisReply *reply, char **reason)
{
  return _hbase_index_state_parse (reply, core->version, core->pool, core->trust_redis_restarts,
                                   reason);
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
  if (pong == NULL || !_hbase_index_reply_ok (pong, "PING", error))
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
    if (!_hbase_index_reply_integer (g_ptr_array_index (replies, i), i == 0 ? "HSET" : "HINCRBY",
                                     NULL, error))
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
 *
 * Since: 0.1
 */
gboolean
hbase_index_get_state (HBaseIndex *index, HBaseIndexState *state, char **reason,
                       GCancellable *cancellable, GError **error)
{
  g_autofree char *why = NULL;
  GError *local = NULL;

  g_return_val_if_fail (_hbase_index_is_opened (index) && state != NULL, FALSE);
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
