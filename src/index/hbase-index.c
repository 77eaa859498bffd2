/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index.c: the life of an opened index: its core (what the hooks,
 * queries and maintenance of one opened index share), opening it from the
 * definitions stored in HBase with the write hooks on its table handle,
 * and closing it.  See docs/index-consistency.md. */
#include "config.h"

#include <unistd.h>

#include "hbase-index-hooks-private.h"

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
  g_free (core->meta_row);
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

/* --- the object ---------------------------------------------------------------------------- */

G_DEFINE_FINAL_TYPE (HBaseIndex, hbase_index, G_TYPE_OBJECT)

/* Closes the index.  Its table handle (if referenced elsewhere) keeps
 * maintaining the index. */
static void
hbase_index_finalize (GObject *object)
{
  HBaseIndex *index = HBASE_INDEX (object);

  g_clear_object (&index->table);
  g_clear_pointer (&index->core, _hbase_index_core_unref);
  G_OBJECT_CLASS (hbase_index_parent_class)->finalize (object);
}

static void
hbase_index_class_init (HBaseIndexClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hbase_index_finalize;
}

static void
hbase_index_init (HBaseIndex *index)
{
  (void) index;
}

/* --- opening ----------------------------------------------------------------------------------- */

/* A table indexed before indexes marked their tables has no mark: it gets
 * one now, so that handles which do not maintain the index refuse to
 * write (hbase-table-index-mark.c).  Best effort: a client without the
 * right to alter the table still gets a working index. */
static void
mark_table (HBaseTable *plain, const char *meta_table, GCancellable *cancellable)
{
  g_autofree char *mark = NULL;
  g_autoptr(GError) error = NULL;

  if (_hbase_table_get_index_mark (plain, &mark, cancellable, &error) && mark == NULL)
    _hbase_table_set_index_mark (plain, meta_table, NULL, cancellable, &error);
  if (error != NULL)
    g_debug ("index of %s: could not mark the table: %s", hbase_table_get_name (plain), error->message);
}

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
 * Redis is not contacted until it is needed; the Redis credentials of
 * @options are checked first (a user needs a password, a password file is
 * read now), and every new Redis connection authenticates with them.
 *
 * Returns: (transfer full) (nullable): the index, or %NULL with
 *   %HBASE_INDEX_ERROR_NO_INDEX when @table has no definitions, or
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT when the credentials are inconsistent
 *   or the password file cannot be read
 *
 * Since: 0.1
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
  char *meta_row = NULL;
  g_autofree char *id = NULL;
  IndexRedisPool *pool;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), NULL);
  if (options == NULL)
    options = &defaults;
  meta_table = _hbase_index_meta_table_name (options);
  if (table == NULL || !_hbase_check_table_name (table, error))
    return NULL;
  /* the Redis credentials are checked (and a password file read) first,
   * before HBase is asked: a mistake is said at once */
  pool = _hbase_index_pool_new (options, error);
  if (pool == NULL)
    return NULL;
  if (!_hbase_index_read_definitions (client, table, meta_table, &spec, &version, &meta_row, cancellable,
                                      error))
    {
      _hbase_index_pool_free (pool);
      return NULL;
    }

  core = g_new0 (IndexCore, 1);
  g_atomic_ref_count_init (&core->ref_count);
  core->client = g_object_ref (client);
  core->table_name = g_strdup (table);
  core->meta_row = meta_row;
  core->spec = spec;
  core->version = version;
  core->base = _hbase_index_key_base (spec, table);
  core->key_state = _hbase_index_key (core->base, "state");
  core->key_seq = _hbase_index_key (core->base, "seq");
  core->key_rec = _hbase_index_key (core->base, "r");
  core->key_fix = _hbase_index_key (core->base, "f");
  core->meta = hbase_table_new (client, meta_table, NULL);
  core->plain = hbase_table_new (client, table, NULL);
  /* the index's raw handle on its table: what it writes there is, by
   * definition, beside the index (internal steps of a write) */
  hbase_table_set_allow_unindexed_writes (core->plain, TRUE);
  core->pool = pool;
  core->on_redis_down = options->on_redis_down;
  core->when_dirty = options->when_dirty;
  core->lease_ms = options->lease_ms != 0 ? options->lease_ms : 300000;
  core->dirty_check_interval_ms = options->dirty_check_interval_ms;
  core->trust_redis_restarts = options->trust_redis_restarts;
  id = g_uuid_string_random ();
  core->token_prefix = g_strdup_printf ("%.8s%d", id, (int) getpid ());
  g_mutex_init (&core->lock);
  core->calls = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, _hbase_index_call_state_free);
  g_mutex_init (&core->cache_lock);
  core->entry_cache = g_new0 (GHashTable *, spec->columns->len);
  for (guint c = 0; c < spec->columns->len; c++)
    core->entry_cache[c] = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                  (GDestroyNotify) g_bytes_unref,
                                                  _hbase_index_entry_free);

  mark_table (core->plain, meta_table, cancellable);
  index = g_object_new (HBASE_TYPE_INDEX, NULL);
  index->core = core;
  index->table = hbase_table_new (client, table, NULL);
  _hbase_table_set_write_hooks (index->table, &_hbase_index_write_hooks, _hbase_index_core_ref (core),
                                core_unref_notify);
  return index;
}

/**
 * hbase_index_get_table:
 * @index: an index
 *
 * The handle on the indexed table whose writes maintain the index: use it
 * (and write buffers made on it) for every write of the table.
 *
 * Returns: (transfer none): the table
 *
 * Since: 0.1
 */
HBaseTable *
hbase_index_get_table (HBaseIndex *index)
{
  g_return_val_if_fail (_hbase_index_is_opened (index), NULL);
  return index->table;
}

/**
 * hbase_index_get_spec:
 * @index: an index
 *
 * Gets the index definitions @index was opened with.  They belong to @index.
 *
 * Returns: (transfer none): the definitions it was opened with
 *
 * Since: 0.1
 */
const HBaseIndexSpec *
hbase_index_get_spec (HBaseIndex *index)
{
  g_return_val_if_fail (_hbase_index_is_opened (index), NULL);
  return index->core->spec;
}

/**
 * hbase_index_free: (skip)
 * @index: (nullable): an index
 *
 * The 0.1 way to release @index, an object since 0.2: drops a reference
 * (see NEWS).
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: Use g_object_unref().
 */
void
hbase_index_free (HBaseIndex *index)
{
  if (index != NULL)
    g_object_unref (index);
}
