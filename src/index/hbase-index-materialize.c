/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-materialize.c: a plan evaluated in Redis: the state check
 * and the size of every condition in one pipeline, then the candidates'
 * row keys: the smallest condition of each AND is read and the others
 * only probe its row keys (SMISMEMBER for sets, the row records for
 * ranges), unless they are smaller still. */
#include "config.h"

#include <string.h>

#include "hbase-index-query-private.h"

/* --- evaluating a plan in Redis -------------------------------------------------------------- */

static GHashTable *
key_set_new (void)
{
  return g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
}

static void
key_set_add (GHashTable *set, GBytes *key)
{
  if (!g_hash_table_contains (set, key))
    g_hash_table_add (set, g_bytes_ref (key));
}

/* The commands that size a leaf (or NULL for composite nodes). */
static void
batch_sizes (QueryCtx *ctx, RedisBatch *batch, Node *node, GPtrArray *leaves)
{
  if (node->kind == NODE_AND || node->kind == NODE_OR)
    {
      for (guint i = 0; i < node->children->len; i++)
        batch_sizes (ctx, batch, g_ptr_array_index (node->children, i), leaves);
      return;
    }
  if (node->empty)
    return;
  if (node->kind == NODE_SETS)
    for (guint i = 0; i < node->keys->len; i++)
      {
        _hbase_index_batch_command (batch);
        _hbase_index_batch_str (batch, "SCARD");
        _hbase_index_batch_bytes (batch, g_ptr_array_index (node->keys, i));
        g_ptr_array_add (leaves, node);
      }
  else
    {
      g_autofree char *key = _hbase_index_range_key (ctx->core->base, node->column->name);

      _hbase_index_batch_command (batch);
      _hbase_index_batch_str (batch, _hbase_index_column_is_lex (node->column) ? "ZLEXCOUNT"
                                                                                : "ZCOUNT");
      _hbase_index_batch_str (batch, key);
      _hbase_index_batch_bytes (batch, node->redis_min);
      _hbase_index_batch_bytes (batch, node->redis_max);
      g_ptr_array_add (leaves, node);
    }
}

static guint64
node_size (Node *node)
{
  guint64 size;

  switch (node->kind)
    {
    case NODE_AND:
      size = G_MAXUINT64;
      for (guint i = 0; i < node->children->len; i++)
        size = MIN (size, node_size (g_ptr_array_index (node->children, i)));
      break;
    case NODE_OR:
      size = 0;
      for (guint i = 0; i < node->children->len; i++)
        size += node_size (g_ptr_array_index (node->children, i));
      break;
    case NODE_SETS:
    case NODE_RANGE:
    default:
      size = node->empty ? 0 : node->size;
    }
  node->size = size;
  return size;
}

static gint
by_size (gconstpointer a, gconstpointer b)
{
  const Node *x = *(Node *const *) a;
  const Node *y = *(Node *const *) b;

  return x->size < y->size ? -1 : x->size > y->size ? 1 : 0;
}

static GHashTable *probe (QueryCtx *ctx, Node *node, GHashTable *candidates, GError **error);

static GHashTable *
materialize_leaf (QueryCtx *ctx, Node *node, GError **error)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;
  GHashTable *set = key_set_new ();

  if (node->empty)
    return set;
  if (node->kind == NODE_SETS)
    for (guint i = 0; i < node->keys->len; i++)
      {
        _hbase_index_batch_command (batch);
        _hbase_index_batch_str (batch, "SMEMBERS");
        _hbase_index_batch_bytes (batch, g_ptr_array_index (node->keys, i));
      }
  else
    {
      g_autofree char *key = _hbase_index_range_key (ctx->core->base, node->column->name);

      _hbase_index_batch_command (batch);
      _hbase_index_batch_str (batch, _hbase_index_column_is_lex (node->column) ? "ZRANGEBYLEX"
                                                                                : "ZRANGEBYSCORE");
      _hbase_index_batch_str (batch, key);
      _hbase_index_batch_bytes (batch, node->redis_min);
      _hbase_index_batch_bytes (batch, node->redis_max);
    }
  replies = _hbase_index_redis_run (ctx->core->pool, batch, error);
  if (replies == NULL)
    {
      g_hash_table_unref (set);
      return NULL;
    }
  for (guint r = 0; r < replies->len; r++)
    {
      redisReply *reply = g_ptr_array_index (replies, r);

      if (!_hbase_index_parse_members (reply, node->kind == NODE_SETS ? "SMEMBERS"
                                              : _hbase_index_column_is_lex (node->column) ? "ZRANGEBYLEX"
                                                                                          : "ZRANGEBYSCORE",
                                       error))
        {
          g_hash_table_unref (set);
          return NULL;
        }
      for (size_t e = 0; e < reply->elements; e++)
        {
          redisReply *member = reply->element[e];

          if (node->kind == NODE_SETS)
            g_hash_table_add (set, g_bytes_new (member->str, member->len));
          else
            {
              GBytes *row = _hbase_index_member_row (node->column, (const guint8 *) member->str,
                                                     member->len);

              if (row == NULL)
                continue;
              if (g_hash_table_contains (set, row))
                g_bytes_unref (row);
              else
                g_hash_table_add (set, row);
            }
        }
    }
  return set;
}

GHashTable *
_hbase_index_materialize (QueryCtx *ctx, Node *node, GError **error)
{
  GHashTable *set;

  switch (node->kind)
    {
    case NODE_OR:
      set = key_set_new ();
      for (guint i = 0; i < node->children->len; i++)
        {
          GHashTable *child = _hbase_index_materialize (ctx, g_ptr_array_index (node->children, i),
                                                        error);
          GHashTableIter iter;
          gpointer key;

          if (child == NULL)
            {
              g_hash_table_unref (set);
              return NULL;
            }
          g_hash_table_iter_init (&iter, child);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            key_set_add (set, key);
          g_hash_table_unref (child);
        }
      return set;

    case NODE_AND:
      {
        g_autoptr(GPtrArray) order = g_ptr_array_new ();

        for (guint i = 0; i < node->children->len; i++)
          g_ptr_array_add (order, g_ptr_array_index (node->children, i));
        /* smallest first */
        g_ptr_array_sort (order, by_size);
        set = _hbase_index_materialize (ctx, g_ptr_array_index (order, 0), error);
        for (guint i = 1; set != NULL && i < order->len && g_hash_table_size (set) > 0; i++)
          {
            Node *child = g_ptr_array_index (order, i);
            GHashTable *next;

            if (child->size <= g_hash_table_size (set))
              {
                /* smaller than the candidates: read it and intersect */
                GHashTable *other = _hbase_index_materialize (ctx, child, error);
                GHashTableIter iter;
                gpointer key;

                if (other == NULL)
                  {
                    g_hash_table_unref (set);
                    return NULL;
                  }
                g_hash_table_iter_init (&iter, set);
                while (g_hash_table_iter_next (&iter, &key, NULL))
                  if (!g_hash_table_contains (other, key))
                    g_hash_table_iter_remove (&iter);
                g_hash_table_unref (other);
                continue;
              }
            next = probe (ctx, child, set, error);
            g_hash_table_unref (set);
            set = next;
          }
        return set;
      }

    case NODE_SETS:
    case NODE_RANGE:
    default:
      return materialize_leaf (ctx, node, error);
    }
}

GPtrArray *
_hbase_index_set_keys (GHashTable *set)
{
  GPtrArray *keys = g_ptr_array_new_full (g_hash_table_size (set), (GDestroyNotify) g_bytes_unref);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, set);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, g_bytes_ref (key));
  return keys;
}

/* Loads the records of @keys not loaded yet. */
static gboolean
load_records (QueryCtx *ctx, GPtrArray *keys, GError **error)
{
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();
  g_autoptr(GPtrArray) records = NULL;

  for (guint i = 0; i < keys->len; i++)
    if (!g_hash_table_contains (ctx->records, g_ptr_array_index (keys, i)))
      g_ptr_array_add (missing, g_ptr_array_index (keys, i));
  if (missing->len == 0)
    return TRUE;
  records = _hbase_index_read_records (ctx->core, missing, error);
  if (records == NULL)
    return FALSE;
  for (guint i = 0; i < missing->len; i++)
    {
      g_hash_table_insert (ctx->records, g_bytes_ref (g_ptr_array_index (missing, i)),
                           g_ptr_array_index (records, i));
      g_ptr_array_index (records, i) = NULL;
    }
  return TRUE;
}

static gboolean
record_matches (Node *node, IndexRecord *record)
{
  for (guint i = 0; record != NULL && i < record->entries->len; i++)
    {
      RecordEntry *entry = g_ptr_array_index (record->entries, i);
      IndexValue value;
      gboolean matches;

      if (strcmp (entry->name, node->column->name) != 0 ||
          !_hbase_index_value_parse (node->column->type, g_bytes_get_data (entry->value, NULL),
                                     g_bytes_get_size (entry->value), &value))
        continue;
      matches = _hbase_index_leaf_matches_value (node, &value);
      _hbase_index_value_clear (&value);
      if (matches)
        return TRUE;
    }
  return FALSE;
}

/* The candidates that satisfy @node, asking Redis about them only. */
static GHashTable *
probe (QueryCtx *ctx, Node *node, GHashTable *candidates, GError **error)
{
  g_autoptr(GPtrArray) keys = _hbase_index_set_keys (candidates);
  GHashTable *result = key_set_new ();

  if (keys->len == 0)
    return result;
  switch (node->kind)
    {
    case NODE_AND:
      {
        GHashTable *current = g_hash_table_ref (candidates);

        g_hash_table_unref (result);
        for (guint i = 0; i < node->children->len && g_hash_table_size (current) > 0; i++)
          {
            GHashTable *next = probe (ctx, g_ptr_array_index (node->children, i), current, error);

            g_hash_table_unref (current);
            if (next == NULL)
              return NULL;
            current = next;
          }
        return current;
      }

    case NODE_OR:
      for (guint i = 0; i < node->children->len; i++)
        {
          GHashTable *part = probe (ctx, g_ptr_array_index (node->children, i), candidates, error);
          GHashTableIter iter;
          gpointer key;

          if (part == NULL)
            {
              g_hash_table_unref (result);
              return NULL;
            }
          g_hash_table_iter_init (&iter, part);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            key_set_add (result, key);
          g_hash_table_unref (part);
        }
      return result;

    case NODE_SETS:
      {
        g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
        g_autoptr(GPtrArray) replies = NULL;
        guint reply_index = 0;

        if (node->empty)
          return result;
        for (guint k = 0; k < node->keys->len; k++)
          for (guint start = 0; start < keys->len; start += 1000)
            {
              _hbase_index_batch_command (batch);
              _hbase_index_batch_str (batch, "SMISMEMBER");
              _hbase_index_batch_bytes (batch, g_ptr_array_index (node->keys, k));
              for (guint i = start; i < keys->len && i < start + 1000; i++)
                _hbase_index_batch_bytes (batch, g_ptr_array_index (keys, i));
            }
        replies = _hbase_index_redis_run (ctx->core->pool, batch, error);
        if (replies == NULL)
          {
            g_hash_table_unref (result);
            return NULL;
          }
        for (guint k = 0; k < node->keys->len; k++)
          for (guint start = 0; start < keys->len; start += 1000)
            {
              redisReply *reply = g_ptr_array_index (replies, reply_index++);
              guint n = MIN (keys->len - start, 1000);
              g_autofree gboolean *member = g_new0 (gboolean, n);

              if (!_hbase_index_parse_smismember (reply, n, member, error))
                {
                  g_hash_table_unref (result);
                  return NULL;
                }
              for (guint e = 0; e < n; e++)
                if (member[e])
                  key_set_add (result, g_ptr_array_index (keys, start + e));
            }
        return result;
      }

    case NODE_RANGE:
    default:
      if (node->empty)
        return result;
      if (!load_records (ctx, keys, error))
        {
          g_hash_table_unref (result);
          return NULL;
        }
      for (guint i = 0; i < keys->len; i++)
        if (record_matches (node, g_hash_table_lookup (ctx->records, g_ptr_array_index (keys, i))))
          key_set_add (result, g_ptr_array_index (keys, i));
      return result;
    }
}

/* --- the state check and the candidates ------------------------------------------------------- */

#define MAX_DUE_REPAIRS 1000

/* Whether the index can answer (and its plan's sizes): FALSE with
 * @error for hard failures; *@unusable with a reason when the policy
 * applies. */
gboolean
_hbase_index_prepare (QueryCtx *ctx, Node *root, char **unusable, GCancellable *cancellable, GError **error)
{
  IndexCore *core = ctx->core;
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;
  g_autoptr(GPtrArray) leaves = g_ptr_array_new ();
  g_autofree char *mark = NULL;
  g_autoptr(GError) local = NULL;
  redisReply *state, *fix, *now;
  gint64 now_ms;
  guint first_size = 3;

  *unusable = NULL;
  if (!_hbase_index_read_dirty_mark (core, FALSE, &mark, cancellable, error))
    return FALSE;
  if (mark != NULL)
    {
      *unusable = g_strdup_printf ("the index is marked dirty: %s", mark);
      return TRUE;
    }
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "HMGET");
  _hbase_index_batch_str (batch, core->key_state);
  _hbase_index_batch_str (batch, "status");
  _hbase_index_batch_str (batch, "version");
  _hbase_index_batch_str (batch, "run");
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "ZRANGE");
  _hbase_index_batch_str (batch, core->key_fix);
  _hbase_index_batch_str (batch, "0");
  _hbase_index_batch_str (batch, "0");
  _hbase_index_batch_str (batch, "WITHSCORES");
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "TIME");
  batch_sizes (ctx, batch, root, leaves);
  replies = _hbase_index_redis_run (core->pool, batch, &local);
  if (replies == NULL && core->when_dirty == HBASE_INDEX_DIRTY_REFUSE && _hbase_index_error_is_auth (local))
    {
      /* refused credentials are said as such, not as a dirty index */
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "the index of %s cannot answer: ",
                                  core->table_name);
      return FALSE;
    }
  if (replies == NULL)
    {
      *unusable = g_strdup (local->message);
      return TRUE;
    }
  state = g_ptr_array_index (replies, 0);
  fix = g_ptr_array_index (replies, 1);
  now = g_ptr_array_index (replies, 2);
  if (!_hbase_index_reply_array (state, "HMGET", 3, 3, REPLY_STRING | REPLY_NIL, error) ||
      !_hbase_index_reply_pairs (fix, "ZRANGE", 1, error) ||
      !_hbase_index_reply_time (now, &now_ms, error))
    return FALSE;
  for (guint i = 0; i < leaves->len; i++)
    if (!_hbase_index_reply_integer (g_ptr_array_index (replies, first_size + i), "SCARD or ZCOUNT",
                                     NULL, error))
      return FALSE;
  if (_hbase_index_state_of_reply (core, state, unusable) != HBASE_INDEX_STATE_READY)
    return TRUE;
  g_clear_pointer (unusable, g_free);
  for (guint i = 0; i < leaves->len; i++)
    ((Node *) g_ptr_array_index (leaves, i))->size = 0;
  for (guint i = 0; i < leaves->len; i++)
    {
      long long size = ((redisReply *) g_ptr_array_index (replies, first_size + i))->integer;

      /* a negative count is no count: taken as none */
      ((Node *) g_ptr_array_index (leaves, i))->size += size > 0 ? (guint64) size : 0;
    }
  node_size (root);
  /* rows whose values a writer never learned, due now: read them first */
  if (fix->elements == 2)
    {
      double due;
      gboolean too_many = FALSE;

      if (!_hbase_index_reply_score (fix->element[1], "ZRANGE", &due, error))
        return FALSE;
      if (due <= (double) now_ms)
        {
          if (!_hbase_index_repair_due (core, MAX_DUE_REPAIRS, &too_many, cancellable, &local))
            {
              *unusable = g_strdup (local->message);
              return TRUE;
            }
          if (too_many)
            {
              *unusable = g_strdup_printf ("more than %u rows wait to be read again from HBase: "
                                           "repair the index", MAX_DUE_REPAIRS);
              return TRUE;
            }
        }
    }
  return TRUE;
}

gboolean
_hbase_index_parse_smismember (redisReply *reply, guint n, gboolean *member, GError **error)
{
  if (!_hbase_index_reply_array (reply, "SMISMEMBER", n, n, REPLY_INTEGER, error))
    return FALSE;
  for (guint e = 0; e < n; e++)
    member[e] = reply->element[e]->integer == 1;
  return TRUE;
}

gboolean
_hbase_index_parse_members (redisReply *reply, const char *command, GError **error)
{
  return _hbase_index_reply_array (reply, command, 0, G_MAXSIZE, REPLY_STRING, error);
}
