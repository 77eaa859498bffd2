/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-meta.c: what the index keeps in HBase, in the definitions
 * table: each indexed table's definitions and their version, and the
 * dirty mark (set when a write went through without its index entries). */
#include "config.h"

#include <string.h>

#include "hbase-index-private.h"
#include "../table/hbase-table-private.h"

#define META_FAMILY "d"

/* --- definitions in HBase -------------------------------------------------------------- */

static GBytes *
text_bytes (const char *text)
{
  return g_bytes_new (text, strlen (text));
}

char *
_hbase_index_meta_legacy_row (const char *table)
{
  g_autofree char *name = _hbase_index_table_normalize (table);

  /* definitions stored under "default:NAME" before names were normalized */
  return strchr (name, ':') == NULL ? g_strconcat ("default:", name, NULL) : NULL;
}

const char *
_hbase_index_meta_table_name (const HBaseIndexOptions *options)
{
  return options != NULL && options->meta_table != NULL ? options->meta_table
                                                        : HBASE_INDEX_DEFAULT_META_TABLE;
}

/* The error for a definitions table that does not exist. */
static void
set_meta_missing (GError **error, const char *meta_table)
{
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND,
               "the index definitions table %s does not exist: create it once with "
               "hbase_index_create_meta_table() (`hbase-glib index-create-meta-table`)",
               meta_table);
}

/**
 * hbase_index_create_meta_table:
 * @client: a client
 * @options: (nullable): names the table (@meta_table); %NULL for
 *   %HBASE_INDEX_DEFAULT_META_TABLE
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Creates the HBase table that holds index definitions and dirty marks,
 * once per cluster (or per definitions table), before the first
 * hbase_index_define().  Nothing else creates it: hbase_index_define() and
 * hbase_index_open() fail with %HBASE_ERROR_NOT_FOUND naming this call
 * while it is missing.  A table that already exists is left as it is
 * (success).
 *
 * Returns: %TRUE when the table exists on return
 *
 * Since: 0.1
 */
gboolean
hbase_index_create_meta_table (HBaseClient *client, const HBaseIndexOptions *options,
                               GCancellable *cancellable, GError **error)
{
  const char *meta_table = _hbase_index_meta_table_name (options);
  HBaseFamilyOptions family = HBASE_FAMILY_OPTIONS_INIT;
  gboolean exists = FALSE;
  g_autoptr(GError) local = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  if (!_hbase_check_table_name (meta_table, error) ||
      !hbase_client_table_exists (client, meta_table, &exists, cancellable, error))
    return FALSE;
  if (exists)
    return TRUE;
  family.name = META_FAMILY;
  family.max_versions = 1;
  if (hbase_client_create_table (client, meta_table, &family, 1, NULL, cancellable, &local))
    return TRUE;
  /* another client may have created it meanwhile */
  if (hbase_client_table_exists (client, meta_table, &exists, cancellable, NULL) && exists)
    return TRUE;
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

/**
 * hbase_index_define:
 * @client: a client
 * @table: the indexed table ("name" or "namespace:name")
 * @spec: its index definitions
 * @options: (nullable): names the definitions table (@meta_table, which
 *   hbase_index_create_meta_table() created); %NULL for
 *   %HBASE_INDEX_DEFAULT_META_TABLE
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Stores the definitions of @table's index in HBase, the source of truth
 * every client reads them from (Redis may lose its data; HBase does not).
 * Each definition gets a new version: the index must then be built with
 * hbase_index_rebuild() before queries use it, and clients that opened the
 * index with older definitions see their writes fail with
 * %HBASE_INDEX_ERROR_CHANGED once the rebuild has started.
 *
 * It also marks @table (a table attribute, "hbase-glib.index", naming the
 * definitions table; setting it reopens the table's regions once): from
 * then on every handle of every client refuses to write to @table with
 * %HBASE_ERROR_INDEXED_TABLE unless it maintains the index (the handle of
 * hbase_index_get_table()) or allows unindexed writes
 * (hbase_table_set_allow_unindexed_writes()).  A client that wrote to the
 * table just before notices the mark at once when it is of the same
 * process, within 10 seconds when not.  Marking needs the
 * right to alter the table (HBase's ADMIN or CREATE permission) and a
 * buffered gateway: over framed transport, HBase 2.6's gateway reads table
 * attributes wrongly, so @client must not be framed
 * (%HBASE_ERROR_ILLEGAL_ARGUMENT, nothing changed).
 *
 * Returns: %TRUE on success; %FALSE with %HBASE_ERROR_NOT_FOUND when the
 *   table or the definitions table does not exist
 *
 * Since: 0.1
 */
gboolean
hbase_index_define (HBaseClient *client, const char *table, const HBaseIndexSpec *spec,
                    const HBaseIndexOptions *options, GCancellable *cancellable, GError **error)
{
  const char *meta_table = _hbase_index_meta_table_name (options);
  g_autoptr(HBaseTable) meta = NULL;
  g_autoptr(HBaseTable) data = NULL;
  g_autoptr(HBaseMutation) put = NULL;
  g_autoptr(GBytes) row = NULL;
  g_autoptr(GBytes) spec_bytes = NULL;
  g_autoptr(GBytes) version_bytes = NULL;
  g_autofree char *text = NULL;
  g_autofree char *version = NULL;
  g_autofree char *previous_mark = NULL;
  g_autofree char *normalized = NULL;
  g_autofree char *legacy_row = NULL;
  gboolean exists = FALSE;
  gboolean marked = FALSE;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);
  if (spec->columns->len == 0)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "the index definitions of %s name no column", table);
      return FALSE;
    }
  data = hbase_table_new (client, table, error);
  if (data == NULL || (meta = hbase_table_new (client, meta_table, error)) == NULL ||
      !hbase_client_table_exists (client, meta_table, &exists, cancellable, error))
    return FALSE;
  if (!exists)
    {
      set_meta_missing (error, meta_table);
      return FALSE;
    }
  /* the mark first: from then on, writes through handles that do not
   * maintain the index are refused (hbase-table-index-mark.c) */
  if (!_hbase_table_get_index_mark (data, &previous_mark, cancellable, error) ||
      !_hbase_table_set_index_mark (data, meta_table, &marked, cancellable, error))
    return FALSE;
  text = hbase_index_spec_to_data (spec);
  version = g_uuid_string_random ();
  normalized = _hbase_index_table_normalize (table);
  legacy_row = _hbase_index_meta_legacy_row (table);
  row = text_bytes (normalized);
  spec_bytes = text_bytes (text);
  version_bytes = text_bytes (version);
  put = hbase_mutation_new_put (row);
  hbase_mutation_put (put, META_FAMILY, "spec", spec_bytes);
  hbase_mutation_put (put, META_FAMILY, "version", version_bytes);
  if (hbase_table_apply (meta, put, cancellable, error))
    {
      /* the same table's definitions under its other spelling are
       * superseded: they would only be read while the new ones are absent */
      if (legacy_row != NULL)
        {
          g_autoptr(GBytes) old_row = text_bytes (legacy_row);
          g_autoptr(HBaseMutation) remove = hbase_mutation_new_delete (old_row);
          g_autoptr(GError) local = NULL;

          if (!hbase_table_apply (meta, remove, cancellable, &local))
            g_debug ("index of %s: the definitions under %s stay: %s", table, legacy_row,
                     local->message);
        }
      return TRUE;
    }
  /* nothing defined: the table keeps the mark it had */
  if (marked)
    _hbase_table_set_index_mark (data, previous_mark, NULL, NULL, NULL);
  return FALSE;
}

/* The row of @key in the definitions table; NULL with @error. */
static HBaseRow *
read_meta_row (HBaseTable *meta, const char *meta_table, const char *key,
               GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) row_key = text_bytes (key);
  g_autoptr(GError) local = NULL;
  HBaseRow *row = hbase_table_get (meta, row_key, NULL, cancellable, &local);

  if (row == NULL && g_error_matches (local, HBASE_ERROR, HBASE_ERROR_NOT_FOUND))
    set_meta_missing (error, meta_table);
  else if (row == NULL)
    g_propagate_error (error, g_steal_pointer (&local));
  return row;
}

gboolean
_hbase_index_read_definitions (HBaseClient *client, const char *table, const char *meta_table,
                               HBaseIndexSpec **spec, char **version, char **meta_row,
                               GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseTable) meta = hbase_table_new (client, meta_table, error);
  g_autoptr(HBaseRow) row = NULL;
  g_autofree char *text = NULL;
  g_autofree char *key = _hbase_index_table_normalize (table);
  g_autofree char *legacy = _hbase_index_meta_legacy_row (table);
  GBytes *spec_bytes, *version_bytes;

  if (meta == NULL)
    return FALSE;
  row = read_meta_row (meta, meta_table, key, cancellable, error);
  if (row == NULL)
    return FALSE;
  spec_bytes = hbase_row_lookup (row, META_FAMILY, "spec");
  version_bytes = hbase_row_lookup (row, META_FAMILY, "version");
  if ((spec_bytes == NULL || version_bytes == NULL) && legacy != NULL)
    {
      /* defined as "default:NAME" before names were normalized */
      g_clear_pointer (&row, hbase_row_unref);
      row = read_meta_row (meta, meta_table, legacy, cancellable, error);
      if (row == NULL)
        return FALSE;
      spec_bytes = hbase_row_lookup (row, META_FAMILY, "spec");
      version_bytes = hbase_row_lookup (row, META_FAMILY, "version");
      if (spec_bytes != NULL && version_bytes != NULL)
        {
          g_free (key);
          key = g_steal_pointer (&legacy);
        }
    }
  if (spec_bytes == NULL || version_bytes == NULL)
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX,
                   "table %s has no index definitions in %s", table, meta_table);
      return FALSE;
    }
  text = g_strndup (g_bytes_get_data (spec_bytes, NULL), g_bytes_get_size (spec_bytes));
  *spec = hbase_index_spec_new_from_data (text, error);
  if (*spec == NULL)
    return FALSE;
  *version = g_strndup (g_bytes_get_data (version_bytes, NULL), g_bytes_get_size (version_bytes));
  if (meta_row != NULL)
    *meta_row = g_steal_pointer (&key);
  return TRUE;
}

/**
 * hbase_index_get_definitions:
 * @client: a client
 * @table: the indexed table
 * @options: (nullable): names the definitions table (@meta_table); %NULL
 *   for %HBASE_INDEX_DEFAULT_META_TABLE
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Reads the index definitions of @table that hbase_index_define() stored in
 * HBase.
 *
 * Returns: (transfer full) (nullable): the stored definitions, or %NULL
 *   with %HBASE_INDEX_ERROR_NO_INDEX when there are none
 *   (%HBASE_ERROR_NOT_FOUND when the definitions table does not exist)
 *
 * Since: 0.1
 */
HBaseIndexSpec *
hbase_index_get_definitions (HBaseClient *client, const char *table,
                             const HBaseIndexOptions *options, GCancellable *cancellable,
                             GError **error)
{
  HBaseIndexSpec *spec = NULL;
  g_autofree char *version = NULL;

  g_return_val_if_fail (HBASE_IS_CLIENT (client), NULL);
  if (!_hbase_index_read_definitions (client, table, _hbase_index_meta_table_name (options),
                                      &spec, &version, NULL, cancellable, error))
    return NULL;
  return spec;
}

/* --- the dirty mark -------------------------------------------------------------------------- */

gboolean
_hbase_index_read_dirty_mark (IndexCore *core, gboolean fresh, char **mark,
                              GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) key = NULL;
  g_autoptr(HBaseRow) row = NULL;
  const char *const columns[] = { META_FAMILY ":dirty", NULL };
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  gint64 now = g_get_monotonic_time ();
  GBytes *value;

  g_mutex_lock (&core->lock);
  if (!fresh && core->dirty_check_interval_ms > 0 && core->dirty_checked_at != 0 &&
      now - core->dirty_checked_at < (gint64) core->dirty_check_interval_ms * 1000)
    {
      *mark = g_strdup (core->dirty_mark);
      g_mutex_unlock (&core->lock);
      return TRUE;
    }
  g_mutex_unlock (&core->lock);

  key = text_bytes (core->meta_row);
  read.columns = columns;
  row = hbase_table_get (core->meta, key, &read, cancellable, error);
  if (row == NULL)
    return FALSE;
  value = hbase_row_lookup (row, META_FAMILY, "dirty");
  *mark = value != NULL ? g_strndup (g_bytes_get_data (value, NULL), g_bytes_get_size (value))
                        : NULL;
  g_mutex_lock (&core->lock);
  core->dirty_checked_at = now;
  g_free (core->dirty_mark);
  core->dirty_mark = g_strdup (*mark);
  g_mutex_unlock (&core->lock);
  return TRUE;
}

gboolean
_hbase_index_mark_dirty (IndexCore *core, const char *reason, GCancellable *cancellable,
                         GError **error)
{
  g_autoptr(GBytes) key = text_bytes (core->meta_row);
  g_autoptr(HBaseMutation) put = hbase_mutation_new_put (key);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *when = g_date_time_format_iso8601 (now);
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *text = g_strdup_printf ("%s %s %s", when, id, reason);
  g_autoptr(GBytes) value = text_bytes (text);
  gboolean log;

  hbase_mutation_put (put, META_FAMILY, "dirty", value);
  if (!hbase_table_apply (core->meta, put, cancellable, error))
    return FALSE;
  g_mutex_lock (&core->lock);
  core->dirty_checked_at = g_get_monotonic_time ();
  g_free (core->dirty_mark);
  core->dirty_mark = g_strdup (text);
  /* once every 10 s at most: during an outage every write marks it */
  log = core->dirty_logged_at == 0 || core->dirty_checked_at - core->dirty_logged_at > 10 * G_USEC_PER_SEC;
  if (log)
    core->dirty_logged_at = core->dirty_checked_at;
  g_mutex_unlock (&core->lock);
  if (log)
    g_message ("index of %s marked dirty: %s", core->table_name, reason);
  return TRUE;
}

gboolean
_hbase_index_clear_dirty_mark (IndexCore *core, const char *mark, gboolean *cleared,
                               GCancellable *cancellable, GError **error)
{
  g_autoptr(GBytes) key = text_bytes (core->meta_row);
  g_autoptr(GBytes) value = text_bytes (mark);
  g_autoptr(HBaseCondition) same = hbase_condition_new (META_FAMILY, "dirty", HBASE_COMPARE_EQUAL,
                                                        value);
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  HBaseMutation *remove = hbase_mutation_new_delete (key);

  hbase_mutation_delete_column (remove, META_FAMILY, "dirty");
  g_ptr_array_add (changes, remove);
  if (!hbase_table_check_and_mutate (core->meta, same, changes, cleared, cancellable, error))
    return FALSE;
  g_mutex_lock (&core->lock);
  core->dirty_checked_at = 0;
  g_mutex_unlock (&core->lock);
  return TRUE;
}
