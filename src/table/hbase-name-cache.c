/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-name-cache.c: the GBytes of a family or qualifier name given as
 * a C string, shared with the calling thread's recent uses of that name.
 *
 * Why: building a put cell from strings (hbase_mutation_put()) made two
 * new GBytes per cell, four allocations and four frees, although nearly
 * every cell of a load repeats the same family and qualifier.  Under
 * callgrind that was about 1,300 of the ~7,500 instructions a row of a
 * put multiple cost in the client, and freeing them about as much again.
 * Reads given "family:qualifier" strings (HBaseReadOptions.columns)
 * parsed them on every call into new HBaseColumns: about 2,800
 * instructions of a get reading three columns.  The thread's last parsed
 * list is kept with the strings it came from; a read naming the same
 * columns shares it (the arrays are never changed once made).
 *
 * The cache is per thread (no lock) and small: NAME_SLOTS names of at
 * most NAME_MAX_CACHED bytes, one name per slot, a newer name evicting
 * the older one of its slot.  GBytes are immutable and their reference
 * counts atomic, so a cached name handed to a mutation that later moves
 * to another thread is safe.  A name that misses costs one hash and one
 * comparison more than before: high-cardinality qualifiers (the members
 * of a set, say) pay that and keep at most NAME_SLOTS names alive. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-column.h>

#include "hbase-name-cache.h"

#define NAME_SLOTS 64          /* a power of two */
#define NAME_MAX_CACHED 64     /* longer names are not cached */

typedef struct {
  guint hash;
  GBytes *bytes;               /* NULL when the slot is empty */
} NameSlot;

typedef struct {
  NameSlot slots[NAME_SLOTS];
  char **column_specs;         /* what column_list was parsed from, or NULL */
  GPtrArray *column_list;      /* HBaseColumn */
} ThreadCache;

static void
thread_cache_free (gpointer data)
{
  ThreadCache *cache = data;

  for (guint i = 0; i < NAME_SLOTS; i++)
    g_clear_pointer (&cache->slots[i].bytes, g_bytes_unref);
  g_strfreev (cache->column_specs);
  g_clear_pointer (&cache->column_list, g_ptr_array_unref);
  g_free (cache);
}

/* The thread's cache, freed with what it holds when the thread ends. */
static GPrivate thread_cache = G_PRIVATE_INIT (thread_cache_free);

static ThreadCache *
get_thread_cache (void)
{
  ThreadCache *cache = g_private_get (&thread_cache);

  if (cache == NULL)
    {
      cache = g_new0 (ThreadCache, 1);
      g_private_set (&thread_cache, cache);
    }
  return cache;
}

/* FNV-1a: short names, a few cycles per byte. */
static guint
name_hash (const char *name, gsize length)
{
  guint hash = 2166136261u;

  for (gsize i = 0; i < length; i++)
    hash = (hash ^ (guchar) name[i]) * 16777619u;
  return hash;
}

GBytes *
_hbase_name_cache_bytes (const char *name)
{
  return _hbase_name_cache_bytes_len (name, strlen (name));
}

GBytes *
_hbase_name_cache_bytes_len (const char *name, gsize length)
{
  NameSlot *slot;
  guint hash;

  if (length > NAME_MAX_CACHED)
    return g_bytes_new (name, length);
  hash = name_hash (name, length);
  slot = &get_thread_cache ()->slots[hash & (NAME_SLOTS - 1)];
  if (slot->bytes != NULL && slot->hash == hash && g_bytes_get_size (slot->bytes) == length &&
      (length == 0 || memcmp (g_bytes_get_data (slot->bytes, NULL), name, length) == 0))
    return g_bytes_ref (slot->bytes);
  g_clear_pointer (&slot->bytes, g_bytes_unref);
  slot->hash = hash;
  slot->bytes = g_bytes_new (name, length);
  return g_bytes_ref (slot->bytes);
}

GPtrArray *
_hbase_name_cache_columns (const char *const *specs)
{
  ThreadCache *cache = get_thread_cache ();
  GPtrArray *list;

  if (cache->column_specs != NULL && g_strv_equal ((const char *const *) cache->column_specs, specs))
    return g_ptr_array_ref (cache->column_list);
  list = g_ptr_array_new_full (g_strv_length ((char **) specs), (GDestroyNotify) hbase_column_unref);
  for (guint i = 0; specs[i] != NULL; i++)
    {
      const char *colon = strchr (specs[i], ':');
      g_autoptr(GBytes) family = _hbase_name_cache_bytes_len (specs[i], colon != NULL
                                                                        ? (gsize) (colon - specs[i])
                                                                        : strlen (specs[i]));
      /* the qualifier is everything after the first colon */
      g_autoptr(GBytes) qualifier = colon != NULL ? _hbase_name_cache_bytes (colon + 1) : NULL;

      g_ptr_array_add (list, hbase_column_new_bytes (family, qualifier));
    }
  g_strfreev (cache->column_specs);
  g_clear_pointer (&cache->column_list, g_ptr_array_unref);
  cache->column_specs = g_strdupv ((char **) specs);
  cache->column_list = g_ptr_array_ref (list);
  return list;
}
