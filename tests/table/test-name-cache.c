/* SPDX-License-Identifier: Apache-2.0 */
/* Unit test (no server) of the per-thread cache of family and qualifier
 * names: a repeated name is the same GBytes, every name keeps its exact
 * bytes whatever was evicted or not cached, a name outlives the thread
 * that cached it, and column strings are parsed once while they repeat. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib.h>

#include "../../src/table/hbase-mutation-private.h"
#include "../../src/table/hbase-name-cache.h"

static void
assert_bytes_str (GBytes *bytes, const char *text)
{
  g_assert_nonnull (bytes);
  g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), text, strlen (text));
}

static void
test_repeated_name_is_shared (void)
{
  g_autoptr(GBytes) first = _hbase_name_cache_bytes ("cf");
  g_autoptr(GBytes) second = _hbase_name_cache_bytes ("cf");
  g_autoptr(GBytes) other = _hbase_name_cache_bytes ("cg");
  g_autoptr(GBytes) empty = _hbase_name_cache_bytes ("");

  assert_bytes_str (first, "cf");
  g_assert_true (first == second);
  assert_bytes_str (other, "cg");
  g_assert_true (other != first);
  g_assert_cmpuint (g_bytes_get_size (empty), ==, 0);
}

/* Many more names than slots: each keeps its own bytes, those evicted
 * included, and asking again gives equal bytes. */
static void
test_eviction_keeps_bytes (void)
{
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *name = g_strdup_printf ("qualifier-%u", i);

      g_ptr_array_add (held, _hbase_name_cache_bytes (name));
    }
  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *name = g_strdup_printf ("qualifier-%u", i);
      g_autoptr(GBytes) again = _hbase_name_cache_bytes (name);

      assert_bytes_str (g_ptr_array_index (held, i), name);
      g_assert_true (g_bytes_equal (again, g_ptr_array_index (held, i)));
    }
}

static void
test_long_name_exact (void)
{
  g_autofree char *name = g_strnfill (5000, 'q');
  g_autoptr(GBytes) bytes = _hbase_name_cache_bytes (name);
  g_autoptr(GBytes) again = _hbase_name_cache_bytes (name);

  assert_bytes_str (bytes, name);
  assert_bytes_str (again, name);
}

static gpointer
name_in_thread (gpointer data)
{
  return _hbase_name_cache_bytes (data);
}

/* The thread's cache is freed when it ends; what it handed out is not. */
static void
test_outlives_thread (void)
{
  GThread *thread = g_thread_new ("names", name_in_thread, (gpointer) "family-of-a-thread");
  g_autoptr(GBytes) bytes = g_thread_join (thread);
  g_autoptr(GBytes) here = _hbase_name_cache_bytes ("family-of-a-thread");

  assert_bytes_str (bytes, "family-of-a-thread");
  g_assert_true (g_bytes_equal (bytes, here));
}

/* What the cache is for: the cells of puts built from strings share their
 * family and qualifier, and keep the right bytes. */
static void
test_puts_share_names (void)
{
  g_autoptr(GBytes) row_a = g_bytes_new_static ("a", 1);
  g_autoptr(GBytes) row_b = g_bytes_new_static ("b", 1);
  g_autoptr(GBytes) value = g_bytes_new_static ("v", 1);
  g_autoptr(HBaseMutation) a = hbase_mutation_new_put (row_a);
  g_autoptr(HBaseMutation) b = hbase_mutation_new_put (row_b);
  GBytes *fa, *qa, *fb, *qb, *v;
  gint64 timestamp;

  hbase_mutation_put (a, "f", "q", value);
  hbase_mutation_put (b, "f", "q", value);
  hbase_mutation_put (b, "f", NULL, value);
  _hbase_mutation_get_entry (a, 0, &fa, &qa, &v, &timestamp);
  _hbase_mutation_get_entry (b, 0, &fb, &qb, &v, &timestamp);
  assert_bytes_str (fa, "f");
  assert_bytes_str (qa, "q");
  g_assert_true (fa == fb);
  g_assert_true (qa == qb);
  _hbase_mutation_get_entry (b, 1, &fb, &qb, &v, &timestamp);
  g_assert_cmpuint (g_bytes_get_size (qb), ==, 0);
}

static void
assert_column (GPtrArray *list, guint index, const char *family, const char *qualifier)
{
  HBaseColumn *column = g_ptr_array_index (list, index);

  assert_bytes_str (hbase_column_get_family (column), family);
  if (qualifier == NULL)
    g_assert_null (hbase_column_get_qualifier (column));
  else
    assert_bytes_str (hbase_column_get_qualifier (column), qualifier);
}

/* Column strings are parsed once for a run of reads naming the same
 * columns, and parsed anew (right) when they change. */
static void
test_columns_parsed_once (void)
{
  const char *const specs[] = { "d:name", "d", "d:a:b", "e:", NULL };
  char **same = g_strdupv ((char **) specs);
  const char *const other[] = { "d:name", "d:price", NULL };
  g_autoptr(GPtrArray) first = _hbase_name_cache_columns (specs);
  g_autoptr(GPtrArray) again = _hbase_name_cache_columns ((const char *const *) same);
  g_autoptr(GPtrArray) changed = NULL, back = NULL;

  g_assert_cmpuint (first->len, ==, 4);
  assert_column (first, 0, "d", "name");
  assert_column (first, 1, "d", NULL);
  assert_column (first, 2, "d", "a:b");
  assert_column (first, 3, "e", "");
  g_assert_true (again == first);
  /* the caller's strings changed in place: a new list */
  g_free (same[0]);
  same[0] = g_strdup ("d:nome");
  changed = _hbase_name_cache_columns ((const char *const *) same);
  g_assert_true (changed != first);
  assert_column (changed, 0, "d", "nome");
  g_clear_pointer (&changed, g_ptr_array_unref);
  changed = _hbase_name_cache_columns (other);
  g_assert_cmpuint (changed->len, ==, 2);
  assert_column (changed, 1, "d", "price");
  back = _hbase_name_cache_columns (specs);
  g_assert_cmpuint (back->len, ==, 4);
  assert_column (back, 0, "d", "name");
  /* the first list is untouched by what came after */
  g_assert_cmpuint (first->len, ==, 4);
  assert_column (first, 0, "d", "name");
  g_strfreev (same);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/name-cache/repeated-name-is-shared", test_repeated_name_is_shared);
  g_test_add_func ("/name-cache/eviction-keeps-bytes", test_eviction_keeps_bytes);
  g_test_add_func ("/name-cache/long-name-exact", test_long_name_exact);
  g_test_add_func ("/name-cache/outlives-thread", test_outlives_thread);
  g_test_add_func ("/name-cache/puts-share-names", test_puts_share_names);
  g_test_add_func ("/name-cache/columns-parsed-once", test_columns_parsed_once);
  return g_test_run ();
}
