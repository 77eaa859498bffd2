/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-spec.c: index definitions (HBaseIndexSpec): the indexed
 * columns, their types and parts, the Redis key prefix, and the text form
 * the definitions are stored in. */
#include "config.h"

#include <string.h>

#include "hbase-index-private.h"

G_DEFINE_BOXED_TYPE (HBaseIndexSpec, hbase_index_spec, hbase_index_spec_copy, hbase_index_spec_free)

static void
column_free (gpointer data)
{
  IndexColumn *column = data;

  g_free (column->name);
  g_free (column->family);
  g_free (column->qualifier);
  g_bytes_unref (column->family_bytes);
  g_bytes_unref (column->qualifier_bytes);
  g_free (column);
}

static IndexColumn *
column_new (const char *name, const char *family, const char *qualifier,
            HBaseIndexValueType type, HBaseIndexFlags flags)
{
  IndexColumn *column = g_new0 (IndexColumn, 1);

  column->name = g_strdup (name);
  column->family = g_strdup (family);
  column->qualifier = g_strdup (qualifier != NULL ? qualifier : "");
  column->family_bytes = g_bytes_new (column->family, strlen (column->family));
  column->qualifier_bytes = g_bytes_new (column->qualifier, strlen (column->qualifier));
  column->type = type;
  column->flags = flags;
  return column;
}

/**
 * hbase_index_spec_new:
 *
 * Empty definitions, with the key prefix "hbidx" and no hash tags.
 *
 * Returns: (transfer full): the definitions
 *
 * Since: 0.1
 */
HBaseIndexSpec *
hbase_index_spec_new (void)
{
  HBaseIndexSpec *spec = g_new0 (HBaseIndexSpec, 1);

  spec->columns = g_ptr_array_new_with_free_func (column_free);
  spec->prefix = g_strdup (INDEX_DEFAULT_PREFIX);
  return spec;
}

/**
 * hbase_index_spec_copy:
 * @spec: definitions
 *
 * Copies @spec.
 *
 * Returns: (transfer full): a copy
 *
 * Since: 0.1
 */
HBaseIndexSpec *
hbase_index_spec_copy (const HBaseIndexSpec *spec)
{
  HBaseIndexSpec *copy;

  g_return_val_if_fail (spec != NULL, NULL);
  copy = hbase_index_spec_new ();
  g_free (copy->prefix);
  copy->prefix = g_strdup (spec->prefix);
  copy->hash_tag = spec->hash_tag;
  for (guint i = 0; i < spec->columns->len; i++)
    {
      const IndexColumn *column = g_ptr_array_index (spec->columns, i);

      g_ptr_array_add (copy->columns, column_new (column->name, column->family, column->qualifier,
                                                  column->type, column->flags));
    }
  return copy;
}

/**
 * hbase_index_spec_free:
 * @spec: (nullable) (transfer full): definitions
 *
 * Frees @spec.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_index_spec_free (HBaseIndexSpec *spec)
{
  if (spec == NULL)
    return;
  g_ptr_array_unref (spec->columns);
  g_free (spec->prefix);
  g_free (spec);
}

/* Letters, digits, '_', '-' and '.': safe inside key names and glob
 * patterns. */
static gboolean
is_word (const char *text, gsize max)
{
  gsize len = text != NULL ? strlen (text) : 0;

  if (len == 0 || len > max)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isalnum (text[i]) && text[i] != '_' && text[i] != '-' && text[i] != '.')
      return FALSE;
  return TRUE;
}

/**
 * hbase_index_spec_add:
 * @spec: definitions
 * @name: the index's name, used in queries and in Redis key names: 1 to
 *   64 letters, digits, '_', '-' or '.'
 * @family: the column family
 * @qualifier: (nullable): the qualifier (text); %NULL for the empty one
 * @type: how the cells are read
 * @flags: what Redis keeps: %HBASE_INDEX_EXACT and/or %HBASE_INDEX_RANGE,
 *   with %HBASE_INDEX_LEX for lexicographic ranges
 * @error: return location for an error
 *
 * Adds an indexed column.  A column may have only one index.
 *
 * Returns: %TRUE, or %FALSE with %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Since: 0.1
 */
gboolean
hbase_index_spec_add (HBaseIndexSpec *spec, const char *name, const char *family,
                      const char *qualifier, HBaseIndexValueType type, HBaseIndexFlags flags,
                      GError **error)
{
  g_return_val_if_fail (spec != NULL, FALSE);
  if (!is_word (name, 64))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "index name \"%s\": use 1 to 64 letters, digits, '_', '-' or '.'",
                   name != NULL ? name : "(null)");
      return FALSE;
    }
  if (family == NULL || *family == '\0' || strchr (family, ':') != NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "index %s: the column family must be a non-empty name without ':'", name);
      return FALSE;
    }
  if ((guint) type > HBASE_INDEX_VALUE_COUNTER)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "index %s: unknown value type %d", name, (int) type);
      return FALSE;
    }
  if ((flags & (HBASE_INDEX_EXACT | HBASE_INDEX_RANGE)) == 0 ||
      (flags & ~(HBASE_INDEX_EXACT | HBASE_INDEX_RANGE | HBASE_INDEX_LEX)) != 0 ||
      ((flags & HBASE_INDEX_LEX) && !(flags & HBASE_INDEX_RANGE)))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "index %s: flags must have EXACT and/or RANGE (LEX only with RANGE)", name);
      return FALSE;
    }
  for (guint i = 0; i < spec->columns->len; i++)
    {
      const IndexColumn *other = g_ptr_array_index (spec->columns, i);

      if (strcmp (other->name, name) == 0)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "there is already an index named %s", name);
          return FALSE;
        }
      if (strcmp (other->family, family) == 0 &&
          strcmp (other->qualifier, qualifier != NULL ? qualifier : "") == 0)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "column %s:%s already has the index %s", family,
                       qualifier != NULL ? qualifier : "", other->name);
          return FALSE;
        }
    }
  g_ptr_array_add (spec->columns, column_new (name, family, qualifier, type, flags));
  return TRUE;
}

/**
 * hbase_index_spec_set_key_prefix:
 * @spec: definitions
 * @prefix: the first part of every Redis key of the index: 1 to 64
 *   letters, digits, '_', '-' or '.'
 * @error: return location for an error
 *
 * Sets the first part of every Redis key of the index ("hbidx" by default).
 * On error @spec is left as it was.
 *
 * Returns: %TRUE, or %FALSE with %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Since: 0.1
 */
gboolean
hbase_index_spec_set_key_prefix (HBaseIndexSpec *spec, const char *prefix, GError **error)
{
  g_return_val_if_fail (spec != NULL, FALSE);
  if (!is_word (prefix, 64))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "key prefix \"%s\": use 1 to 64 letters, digits, '_', '-' or '.'",
                   prefix != NULL ? prefix : "(null)");
      return FALSE;
    }
  g_free (spec->prefix);
  spec->prefix = g_strdup (prefix);
  return TRUE;
}

/**
 * hbase_index_spec_get_key_prefix:
 * @spec: definitions
 *
 * Gets the first part of every Redis key of the index.  The string belongs to
 * @spec.
 *
 * Returns: the key prefix
 *
 * Since: 0.1
 */
const char *
hbase_index_spec_get_key_prefix (const HBaseIndexSpec *spec)
{
  g_return_val_if_fail (spec != NULL, NULL);
  return spec->prefix;
}

/**
 * hbase_index_spec_set_hash_tag:
 * @spec: definitions
 * @hash_tag: put the table's encoded name in a hash tag ("prefix:{LEN=NAME}:...")
 *
 * With hash tags every key of the table's index hashes to one Redis
 * Cluster slot, so the scripts that change a row's entries of several
 * columns at once (atomically) and the multi-key commands of queries can
 * run on a cluster node.  The tag is per table, not per column: one
 * change of a row touches the keys of all its indexed columns.
 *
 * Since: 0.1
 */
void
hbase_index_spec_set_hash_tag (HBaseIndexSpec *spec, gboolean hash_tag)
{
  g_return_if_fail (spec != NULL);
  spec->hash_tag = hash_tag;
}

/**
 * hbase_index_spec_get_hash_tag:
 * @spec: definitions
 *
 * Tells whether the Redis keys of the index put the table's name in a hash
 * tag (see hbase_index_spec_set_hash_tag()).
 *
 * Returns: whether keys carry a hash tag
 *
 * Since: 0.1
 */
gboolean
hbase_index_spec_get_hash_tag (const HBaseIndexSpec *spec)
{
  g_return_val_if_fail (spec != NULL, FALSE);
  return spec->hash_tag;
}

/**
 * hbase_index_spec_get_n_indexes:
 * @spec: definitions
 *
 * Gets how many indexes @spec defines.
 *
 * Returns: how many columns are indexed
 *
 * Since: 0.1
 */
guint
hbase_index_spec_get_n_indexes (const HBaseIndexSpec *spec)
{
  g_return_val_if_fail (spec != NULL, 0);
  return spec->columns->len;
}

/**
 * hbase_index_spec_get_name:
 * @spec: definitions
 * @index: from 0 to hbase_index_spec_get_n_indexes() - 1
 *
 * Gets the name of one index of @spec, in the order they were added.  The
 * string belongs to @spec.
 *
 * Returns: the name of index @index
 *
 * Since: 0.1
 */
const char *
hbase_index_spec_get_name (const HBaseIndexSpec *spec, guint index)
{
  g_return_val_if_fail (spec != NULL && index < spec->columns->len, NULL);
  return ((const IndexColumn *) g_ptr_array_index (spec->columns, index))->name;
}

const IndexColumn *
_hbase_index_spec_find (const HBaseIndexSpec *spec, const char *name)
{
  for (guint i = 0; name != NULL && i < spec->columns->len; i++)
    {
      const IndexColumn *column = g_ptr_array_index (spec->columns, i);

      if (strcmp (column->name, name) == 0)
        return column;
    }
  return NULL;
}

/**
 * hbase_index_spec_lookup:
 * @spec: definitions
 * @name: an index name
 * @family: (out) (optional) (transfer none): its family
 * @qualifier: (out) (optional) (transfer none): its qualifier
 * @type: (out) (optional): its value type
 * @flags: (out) (optional): its flags
 *
 * Looks up an index of @spec by name.  The strings belong to @spec; the out
 * arguments are left untouched when there is no such index.
 *
 * Returns: %TRUE if @spec has an index named @name
 *
 * Since: 0.1
 */
gboolean
hbase_index_spec_lookup (const HBaseIndexSpec *spec, const char *name, const char **family,
                         const char **qualifier, HBaseIndexValueType *type,
                         HBaseIndexFlags *flags)
{
  const IndexColumn *column;

  g_return_val_if_fail (spec != NULL, FALSE);
  column = _hbase_index_spec_find (spec, name);
  if (column == NULL)
    return FALSE;
  if (family != NULL)
    *family = column->family;
  if (qualifier != NULL)
    *qualifier = column->qualifier;
  if (type != NULL)
    *type = column->type;
  if (flags != NULL)
    *flags = column->flags;
  return TRUE;
}

static const char *const type_names[] = { "string", "int64", "double", "counter" };

/**
 * hbase_index_spec_to_data:
 * @spec: definitions
 *
 * The definitions as text (a #GKeyFile), as hbase_index_define() stores
 * them.
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
hbase_index_spec_to_data (const HBaseIndexSpec *spec)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();

  g_return_val_if_fail (spec != NULL, NULL);
  g_key_file_set_integer (file, "index", "format", 1);
  g_key_file_set_string (file, "index", "prefix", spec->prefix);
  g_key_file_set_boolean (file, "index", "hash-tag", spec->hash_tag);
  for (guint i = 0; i < spec->columns->len; i++)
    {
      const IndexColumn *column = g_ptr_array_index (spec->columns, i);
      g_autofree char *group = g_strdup_printf ("column %s", column->name);

      g_key_file_set_string (file, group, "family", column->family);
      g_key_file_set_string (file, group, "qualifier", column->qualifier);
      g_key_file_set_string (file, group, "type", type_names[column->type]);
      g_key_file_set_boolean (file, group, "exact", (column->flags & HBASE_INDEX_EXACT) != 0);
      g_key_file_set_boolean (file, group, "range", (column->flags & HBASE_INDEX_RANGE) != 0);
      g_key_file_set_boolean (file, group, "lex", (column->flags & HBASE_INDEX_LEX) != 0);
    }
  return g_key_file_to_data (file, NULL, NULL);
}

/* TRUE if every backslash of @raw starts one of the escapes of key files.
 * GLib 2.74's g_key_file_get_string() sets its error twice (a warning)
 * for a value with a bad escape and a lone backslash at its end, so such
 * values must not reach it. */
static gboolean
escapes_valid (const char *raw)
{
  for (const char *p = raw; *p != '\0'; p++)
    if (*p == '\\')
      {
        p++;
        if (*p == '\0' || strchr ("sntr\\", *p) == NULL)
          return FALSE;
      }
  return TRUE;
}

/* A string value; a bad escape is an error (for one, GLib returns a value
 * and sets an error too). */
static char *
get_string (GKeyFile *file, const char *group, const char *key, GError **error)
{
  GError *local = NULL;
  g_autofree char *raw = g_key_file_get_value (file, group, key, &local);
  char *value;

  if (raw != NULL && !escapes_valid (raw))
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "the value of %s in [%s] has a bad escape", key, group);
      return NULL;
    }
  if (raw == NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  value = g_key_file_get_string (file, group, key, &local);
  if (local != NULL)
    {
      g_free (value);
      g_propagate_error (error, local);
      return NULL;
    }
  return value;
}

/**
 * hbase_index_spec_new_from_data:
 * @data: text from hbase_index_spec_to_data()
 * @error: return location for an error
 *
 * Parses index definitions from the text hbase_index_spec_to_data() makes.
 *
 * Returns: (transfer full) (nullable): the definitions, or %NULL with
 *   %HBASE_ERROR_BAD_DATA
 *
 * Since: 0.1
 */
HBaseIndexSpec *
hbase_index_spec_new_from_data (const char *data, GError **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  g_autoptr(GError) local = NULL;
  g_auto(GStrv) groups = NULL;
  g_autofree char *prefix = NULL;

  g_return_val_if_fail (data != NULL, NULL);
  /* GKeyFile's messages quote the bytes it refuses */
  if (!g_utf8_validate (data, -1, NULL))
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                           "bad index definitions: not UTF-8 text");
      return NULL;
    }
  if (!g_key_file_load_from_data (file, data, (gsize) -1, G_KEY_FILE_NONE, &local) ||
      g_key_file_get_integer (file, "index", "format", &local) != 1 ||
      (prefix = get_string (file, "index", "prefix", &local)) == NULL ||
      !hbase_index_spec_set_key_prefix (spec, prefix, &local))
    goto bad;
  spec->hash_tag = g_key_file_get_boolean (file, "index", "hash-tag", NULL);
  groups = g_key_file_get_groups (file, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *family = NULL;
      g_autofree char *qualifier = NULL;
      g_autofree char *type_name = NULL;
      HBaseIndexFlags flags = 0;
      guint type;

      if (!g_str_has_prefix (groups[i], "column "))
        continue;
      family = get_string (file, groups[i], "family", &local);
      if (family == NULL)
        goto bad;
      qualifier = get_string (file, groups[i], "qualifier", NULL);
      type_name = get_string (file, groups[i], "type", &local);
      if (type_name == NULL)
        goto bad;
      for (type = 0; type < G_N_ELEMENTS (type_names); type++)
        if (strcmp (type_names[type], type_name) == 0)
          break;
      if (g_key_file_get_boolean (file, groups[i], "exact", NULL))
        flags |= HBASE_INDEX_EXACT;
      if (g_key_file_get_boolean (file, groups[i], "range", NULL))
        flags |= HBASE_INDEX_RANGE;
      if (g_key_file_get_boolean (file, groups[i], "lex", NULL))
        flags |= HBASE_INDEX_LEX;
      if (!hbase_index_spec_add (spec, groups[i] + strlen ("column "), family, qualifier,
                                 (HBaseIndexValueType) type, flags, &local))
        goto bad;
    }
  return g_steal_pointer (&spec);

bad:
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA, "bad index definitions: %s",
               local != NULL ? local->message : "unknown format");
  return NULL;
}

gboolean
_hbase_index_column_is_lex (const IndexColumn *column)
{
  return column->type == HBASE_INDEX_VALUE_STRING || (column->flags & HBASE_INDEX_LEX) != 0;
}
