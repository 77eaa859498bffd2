/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-name-cache.c: the GBytes of a family or qualifier name given as
 * a C string, shared with the calling thread's recent uses of that name.
 *
 * Why: building a put cell from strings (hbase_mutation_put()) made two
 * new GBytes per cell, four allocations and four frees, although nearly
 * every cell of a load repeats the same family and qualifier.  Under
 * callgrind that was about 1,300 of the ~7,500 instructions a row of a
 * put multiple cost in the client, and freeing them about as much again.
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

#include "hbase-name-cache.h"

#define NAME_SLOTS 64          /* a power of two */
#define NAME_MAX_CACHED 64     /* longer names are not cached */

typedef struct {
  guint hash;
  GBytes *bytes;               /* NULL when the slot is empty */
} NameSlot;

static void
slots_free (gpointer data)
{
  NameSlot *slots = data;

  for (guint i = 0; i < NAME_SLOTS; i++)
    g_clear_pointer (&slots[i].bytes, g_bytes_unref);
  g_free (slots);
}

/* The thread's slots, freed with its cached names when the thread ends. */
static GPrivate thread_slots = G_PRIVATE_INIT (slots_free);

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
  gsize length = strlen (name);
  NameSlot *slots, *slot;
  guint hash;

  if (length > NAME_MAX_CACHED)
    return g_bytes_new (name, length);
  hash = name_hash (name, length);
  slots = g_private_get (&thread_slots);
  if (slots == NULL)
    {
      slots = g_new0 (NameSlot, NAME_SLOTS);
      g_private_set (&thread_slots, slots);
    }
  slot = &slots[hash & (NAME_SLOTS - 1)];
  if (slot->bytes != NULL && slot->hash == hash && g_bytes_get_size (slot->bytes) == length &&
      memcmp (g_bytes_get_data (slot->bytes, NULL), name, length) == 0)
    return g_bytes_ref (slot->bytes);
  g_clear_pointer (&slot->bytes, g_bytes_unref);
  slot->hash = hash;
  slot->bytes = g_bytes_new (name, length);
  return g_bytes_ref (slot->bytes);
}
