/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-options.c: the boxed types of the key layer's value structs
 * (HBaseKeyField, HBaseKeyValue, HBaseKeyRange) and the heap constructors,
 * deep copies and setters of its option structs (HBaseSaltOptions,
 * HBaseKeyScanOptions, HBaseKeyQuery), for bindings and for callers that
 * keep options around.  A struct from _new() owns what its setters stored;
 * see docs/api-conventions.md. */
#include "config.h"

#include <string.h>

#include "hbase-rowkey-private.h"
#include "../table/hbase-table-private.h"

/* --- value structs: one block each, pointers into it, freed with g_free() ---- */

G_DEFINE_BOXED_TYPE (HBaseKeyField, hbase_key_field, hbase_key_field_copy, hbase_key_field_free)
G_DEFINE_BOXED_TYPE (HBaseKeyValue, hbase_key_value, hbase_key_value_copy, hbase_key_value_free)
G_DEFINE_BOXED_TYPE (HBaseKeyRange, hbase_key_range, hbase_key_range_copy, hbase_key_range_free)

/**
 * hbase_key_field_copy:
 * @field: a field
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a copy of @field owning a copy of its name
 *
 * Since: 0.1
 */
HBaseKeyField *
hbase_key_field_copy (const HBaseKeyField *field)
{
  gsize name_len;
  HBaseKeyField *copy;

  g_return_val_if_fail (field != NULL, NULL);
  name_len = field->name != NULL ? strlen (field->name) + 1 : 0;
  copy = g_malloc (sizeof *copy + name_len);
  *copy = *field;
  if (field->name != NULL)
    copy->name = memcpy ((char *) (copy + 1), field->name, name_len);
  return copy;
}

/**
 * hbase_key_field_new:
 * @name: the field's name
 * @type: how it is written
 * @width: its width (see #HBaseKeyField), 0 where the type has none
 *
 * A field on the heap, for bindings; set @pad and @descending on it
 * directly.
 *
 * Returns: (transfer full): a field owning a copy of @name
 *
 * Since: 0.1
 */
HBaseKeyField *
hbase_key_field_new (const char *name, HBaseKeyFieldType type, guint width)
{
  HBaseKeyField field = { .name = name, .type = type, .width = width };

  g_return_val_if_fail (name != NULL, NULL);
  return hbase_key_field_copy (&field);
}

/**
 * hbase_key_field_free:
 * @field: (nullable) (transfer full): a field from hbase_key_field_copy()
 *
 * Frees it and what it owns.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_key_field_free (HBaseKeyField *field)
{
  g_free (field);
}

static gsize
value_extra (const HBaseKeyValue *value)
{
  return value != NULL && value->kind == HBASE_KEY_VALUE_BYTES ? value->v.b.size : 0;
}

/* Copies @value into @dest, its bytes to *@heap (advanced). */
static void
value_place (HBaseKeyValue *dest, const HBaseKeyValue *value, guint8 **heap)
{
  *dest = *value;
  if (value->kind == HBASE_KEY_VALUE_BYTES)
    {
      if (value->v.b.size > 0)
        memcpy (*heap, value->v.b.data, value->v.b.size);
      dest->v.b.data = *heap;
      *heap += value->v.b.size;
    }
}

/**
 * hbase_key_value_copy:
 * @value: a value
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a copy of @value owning a copy of its bytes
 *
 * Since: 0.1
 */
HBaseKeyValue *
hbase_key_value_copy (const HBaseKeyValue *value)
{
  HBaseKeyValue *copy;
  guint8 *heap;

  g_return_val_if_fail (value != NULL, NULL);
  copy = g_malloc (sizeof *copy + value_extra (value));
  heap = (guint8 *) (copy + 1);
  value_place (copy, value, &heap);
  return copy;
}

/**
 * hbase_key_value_new_uint:
 * @value: an unsigned integer
 *
 * Makes a value holding @value (a uint), on the heap.
 *
 * Returns: (transfer full): a value holding @value, for bindings (C code
 *   uses HBASE_KEY_UINT())
 *
 * Since: 0.1
 */
HBaseKeyValue *
hbase_key_value_new_uint (guint64 value)
{
  HBaseKeyValue v = HBASE_KEY_UINT (value);

  return hbase_key_value_copy (&v);
}

/**
 * hbase_key_value_new_int:
 * @value: a signed integer
 *
 * Makes a value holding @value (a int), on the heap.
 *
 * Returns: (transfer full): a value holding @value, for bindings (C code
 *   uses HBASE_KEY_INT())
 *
 * Since: 0.1
 */
HBaseKeyValue *
hbase_key_value_new_int (gint64 value)
{
  HBaseKeyValue v = HBASE_KEY_INT (value);

  return hbase_key_value_copy (&v);
}

/**
 * hbase_key_value_new_double:
 * @value: a double
 *
 * Makes a value holding @value (a double), on the heap.
 *
 * Returns: (transfer full): a value holding @value, for bindings (C code
 *   uses HBASE_KEY_DOUBLE())
 *
 * Since: 0.1
 */
HBaseKeyValue *
hbase_key_value_new_double (double value)
{
  HBaseKeyValue v = HBASE_KEY_DOUBLE (value);

  return hbase_key_value_copy (&v);
}

/**
 * hbase_key_value_new_bytes:
 * @bytes: the bytes of a string or bytes field
 *
 * Makes a value holding a copy of @bytes, on the heap.
 *
 * Returns: (transfer full): a value holding a copy of @bytes, for bindings
 *   (C code uses HBASE_KEY_BYTES() or HBASE_KEY_STRING())
 *
 * Since: 0.1
 */
HBaseKeyValue *
hbase_key_value_new_bytes (GBytes *bytes)
{
  HBaseKeyValue v;
  gsize size;
  gconstpointer data;

  g_return_val_if_fail (bytes != NULL, NULL);
  data = g_bytes_get_data (bytes, &size);
  v = (HBaseKeyValue) HBASE_KEY_BYTES (data, size);
  return hbase_key_value_copy (&v);
}

/**
 * hbase_key_value_free:
 * @value: (nullable) (transfer full): a value from hbase_key_value_copy()
 *
 * Frees it and what it owns.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_key_value_free (HBaseKeyValue *value)
{
  g_free (value);
}

/**
 * hbase_key_range_copy:
 * @range: a range
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a copy of @range owning copies of its values
 *   and their bytes
 *
 * Since: 0.1
 */
HBaseKeyRange *
hbase_key_range_copy (const HBaseKeyRange *range)
{
  gsize n_values, extra = 0;
  HBaseKeyRange *copy;
  HBaseKeyValue *values;
  guint8 *heap;

  g_return_val_if_fail (range != NULL, NULL);
  n_values = (range->equal != NULL ? range->n_equal : 0) + 2;
  for (guint i = 0; range->equal != NULL && i < range->n_equal; i++)
    extra += value_extra (&range->equal[i]);
  extra += value_extra (range->lower) + value_extra (range->upper);
  copy = g_malloc0 (sizeof *copy + n_values * sizeof (HBaseKeyValue) + extra);
  *copy = *range;
  values = (HBaseKeyValue *) (copy + 1);
  heap = (guint8 *) (values + n_values);
  if (range->equal != NULL)
    {
      for (guint i = 0; i < range->n_equal; i++)
        value_place (&values[i], &range->equal[i], &heap);
      copy->equal = values;
    }
  else
    copy->n_equal = 0;
  if (range->lower != NULL)
    {
      value_place (&values[n_values - 2], range->lower, &heap);
      copy->lower = &values[n_values - 2];
    }
  if (range->upper != NULL)
    {
      value_place (&values[n_values - 1], range->upper, &heap);
      copy->upper = &values[n_values - 1];
    }
  return copy;
}

/**
 * hbase_key_range_new:
 * @equal: (array length=n_equal) (nullable): values of the leading fields
 * @n_equal: how many
 * @lower: (nullable): the lowest value of the next field, or %NULL
 * @lower_inclusive: whether @lower itself is in
 * @upper: (nullable): the highest value of the next field, or %NULL
 * @upper_inclusive: whether @upper itself is in
 *
 * A range on the heap (see #HBaseKeyRange), for bindings; it owns copies
 * of the values.
 *
 * Returns: (transfer full): the range
 *
 * Since: 0.1
 */
HBaseKeyRange *
hbase_key_range_new (HBaseKeyValue *const *equal, guint n_equal,
                     const HBaseKeyValue *lower, gboolean lower_inclusive,
                     const HBaseKeyValue *upper, gboolean upper_inclusive)
{
  g_autofree HBaseKeyValue *values = NULL;
  HBaseKeyRange range = {
    .lower = lower, .lower_inclusive = lower_inclusive,
    .upper = upper, .upper_inclusive = upper_inclusive,
  };

  g_return_val_if_fail (equal != NULL || n_equal == 0, NULL);
  if (n_equal > 0)
    {
      values = g_new (HBaseKeyValue, n_equal);
      for (guint i = 0; i < n_equal; i++)
        {
          g_return_val_if_fail (equal[i] != NULL, NULL);
          values[i] = *equal[i];
        }
      range.equal = values;
      range.n_equal = n_equal;
    }
  return hbase_key_range_copy (&range);
}

/**
 * hbase_key_range_free:
 * @range: (nullable) (transfer full): a range from hbase_key_range_copy()
 *
 * Frees it and what it owns.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_key_range_free (HBaseKeyRange *range)
{
  g_free (range);
}

/* --- HBaseSaltOptions ---------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseSaltOptions, hbase_salt_options, hbase_salt_options_copy,
                     hbase_salt_options_free)

/**
 * hbase_salt_options_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): zeroed salt options (set @n_buckets before use)
 *
 * Since: 0.1
 */
HBaseSaltOptions *
hbase_salt_options_new (void)
{
  return g_new0 (HBaseSaltOptions, 1);
}

/**
 * hbase_salt_options_copy:
 * @options: salt options
 *
 * A deep copy: the strings are copied.  The copy calls the same
 * @period_func with the same @period_data but does not own it: the
 * original keeps freeing it.
 *
 * Returns: (transfer full): the copy
 *
 * Since: 0.1
 */
HBaseSaltOptions *
hbase_salt_options_copy (const HBaseSaltOptions *options)
{
  HBaseSaltOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  copy->hash_fields = (const char *const *) g_strdupv ((char **) options->hash_fields);
  copy->period_field = g_strdup (options->period_field);
  copy->period_data_destroy = NULL;
  return copy;
}

/**
 * hbase_salt_options_free:
 * @options: (nullable) (transfer full): options from
 *   hbase_salt_options_new() or hbase_salt_options_copy()
 *
 * Frees @options and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_salt_options_free (HBaseSaltOptions *options)
{
  if (options == NULL)
    return;
  g_strfreev ((char **) options->hash_fields);
  g_free ((char *) options->period_field);
  if (options->period_data_destroy != NULL)
    options->period_data_destroy (options->period_data);
  g_free (options);
}

/**
 * hbase_salt_options_set_hash_fields:
 * @options: options from hbase_salt_options_new()
 * @hash_fields: (nullable) (array zero-terminated=1): the names of the
 *   hashed fields; %NULL for every field
 *
 * Stores a copy of @hash_fields, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_salt_options_set_hash_fields (HBaseSaltOptions *options, const char *const *hash_fields)
{
  char **old;

  g_return_if_fail (options != NULL);
  old = (char **) options->hash_fields;
  options->hash_fields = (const char *const *) g_strdupv ((char **) hash_fields);
  g_strfreev (old);
}

/**
 * hbase_salt_options_set_period_field:
 * @options: options from hbase_salt_options_new()
 * @period_field: (nullable): the field whose value gives the period
 *
 * Stores a copy of @period_field, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_salt_options_set_period_field (HBaseSaltOptions *options, const char *period_field)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->period_field;
  options->period_field = g_strdup (period_field);
  g_free (old);
}

/**
 * hbase_salt_options_set_period_func:
 * @options: options from hbase_salt_options_new()
 * @period_func: (nullable) (scope notified) (closure period_data) (destroy destroy):
 *   the period of a value; %NULL for hbase_key_period_month()
 * @period_data: passed to @period_func
 * @destroy: (nullable): frees @period_data when it is replaced or
 *   @options freed
 *
 * Stores the period function, releasing the previous data.  A schema
 * made with @options keeps calling @period_func: the data must outlive
 * the schema as well.
 *
 * Since: 0.1
 */
void
hbase_salt_options_set_period_func (HBaseSaltOptions  *options,
                                    HBaseKeyPeriodFunc period_func,
                                    gpointer           period_data,
                                    GDestroyNotify     destroy)
{
  GDestroyNotify old_destroy;
  gpointer old_data;

  g_return_if_fail (options != NULL);
  old_destroy = options->period_data_destroy;
  old_data = options->period_data;
  options->period_func = period_func;
  options->period_data = period_data;
  options->period_data_destroy = destroy;
  if (old_destroy != NULL)
    old_destroy (old_data);
}

/* --- HBaseKeyScanOptions -------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseKeyScanOptions, hbase_key_scan_options, hbase_key_scan_options_copy,
                     hbase_key_scan_options_free)

/**
 * hbase_key_scan_options_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): zeroed options: the defaults
 *
 * Since: 0.1
 */
HBaseKeyScanOptions *
hbase_key_scan_options_new (void)
{
  return g_new0 (HBaseKeyScanOptions, 1);
}

/**
 * hbase_key_scan_options_copy:
 * @options: options
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a deep copy of @options
 *
 * Since: 0.1
 */
HBaseKeyScanOptions *
hbase_key_scan_options_copy (const HBaseKeyScanOptions *options)
{
  HBaseKeyScanOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  copy->range = options->range != NULL ? hbase_key_range_copy (options->range) : NULL;
  copy->after = options->after != NULL ? g_bytes_ref (options->after) : NULL;
  _hbase_read_options_deepen (&copy->read, &options->read);
  return copy;
}

/**
 * hbase_key_scan_options_free:
 * @options: (nullable) (transfer full): options from
 *   hbase_key_scan_options_new() or hbase_key_scan_options_copy()
 *
 * Frees @options and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_key_scan_options_free (HBaseKeyScanOptions *options)
{
  if (options == NULL)
    return;
  hbase_key_range_free ((HBaseKeyRange *) options->range);
  g_clear_pointer (&options->after, g_bytes_unref);
  _hbase_read_options_clear (&options->read);
  g_free (options);
}

/**
 * hbase_key_scan_options_set_range:
 * @options: options from hbase_key_scan_options_new()
 * @range: (nullable): the keys to scan; %NULL for all
 *
 * Stores a copy of @range, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_key_scan_options_set_range (HBaseKeyScanOptions *options, const HBaseKeyRange *range)
{
  HBaseKeyRange *old;

  g_return_if_fail (options != NULL);
  old = (HBaseKeyRange *) options->range;
  options->range = range != NULL ? hbase_key_range_copy (range) : NULL;
  hbase_key_range_free (old);
}

/**
 * hbase_key_scan_options_set_after:
 * @options: options from hbase_key_scan_options_new()
 * @after: (nullable): only keys after this one
 *
 * Stores a reference to @after, dropping the previous one.
 *
 * Since: 0.1
 */
void
hbase_key_scan_options_set_after (HBaseKeyScanOptions *options, GBytes *after)
{
  GBytes *old;

  g_return_if_fail (options != NULL);
  old = options->after;
  options->after = after != NULL ? g_bytes_ref (after) : NULL;
  if (old != NULL)
    g_bytes_unref (old);
}

/**
 * hbase_key_scan_options_set_read:
 * @options: options from hbase_key_scan_options_new()
 * @read: (nullable): columns, versions, time range and filter; %NULL for
 *   the defaults
 *
 * Stores a deep copy of @read, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_key_scan_options_set_read (HBaseKeyScanOptions *options, const HBaseReadOptions *read)
{
  HBaseReadOptions old;

  g_return_if_fail (options != NULL);
  old = options->read;
  if (read != NULL)
    {
      options->read = *read;
      _hbase_read_options_deepen (&options->read, read);
    }
  else
    memset (&options->read, 0, sizeof options->read);
  _hbase_read_options_clear (&old);
}

/* --- HBaseKeyQuery ---------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseKeyQuery, hbase_key_query, hbase_key_query_copy, hbase_key_query_free)

/**
 * hbase_key_query_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a zeroed query: every row in one page
 *
 * Since: 0.1
 */
HBaseKeyQuery *
hbase_key_query_new (void)
{
  return g_new0 (HBaseKeyQuery, 1);
}

/**
 * hbase_key_query_copy:
 * @query: a query
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a deep copy of @query
 *
 * Since: 0.1
 */
HBaseKeyQuery *
hbase_key_query_copy (const HBaseKeyQuery *query)
{
  HBaseKeyQuery *copy;

  g_return_val_if_fail (query != NULL, NULL);
  copy = g_memdup2 (query, sizeof *query);
  copy->range = query->range != NULL ? hbase_key_range_copy (query->range) : NULL;
  copy->filter = query->filter != NULL ? hbase_filter_ref (query->filter) : NULL;
  copy->columns = (const char *const *) g_strdupv ((char **) query->columns);
  copy->page_token = g_strdup (query->page_token);
  return copy;
}

/**
 * hbase_key_query_free:
 * @query: (nullable) (transfer full): a query from hbase_key_query_new()
 *   or hbase_key_query_copy()
 *
 * Frees @query and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_key_query_free (HBaseKeyQuery *query)
{
  if (query == NULL)
    return;
  hbase_key_range_free ((HBaseKeyRange *) query->range);
  g_clear_pointer (&query->filter, hbase_filter_unref);
  g_strfreev ((char **) query->columns);
  g_free ((char *) query->page_token);
  g_free (query);
}

/**
 * hbase_key_query_set_range:
 * @query: a query from hbase_key_query_new()
 * @range: (nullable): the keys wanted; %NULL for all
 *
 * Stores a copy of @range, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_key_query_set_range (HBaseKeyQuery *query, const HBaseKeyRange *range)
{
  HBaseKeyRange *old;

  g_return_if_fail (query != NULL);
  old = (HBaseKeyRange *) query->range;
  query->range = range != NULL ? hbase_key_range_copy (range) : NULL;
  hbase_key_range_free (old);
}

/**
 * hbase_key_query_set_filter:
 * @query: a query from hbase_key_query_new()
 * @filter: (nullable): a server-side filter
 *
 * Stores a reference to @filter, dropping the previous one.
 *
 * Since: 0.1
 */
void
hbase_key_query_set_filter (HBaseKeyQuery *query, HBaseFilter *filter)
{
  HBaseFilter *old;

  g_return_if_fail (query != NULL);
  old = query->filter;
  query->filter = filter != NULL ? hbase_filter_ref (filter) : NULL;
  if (old != NULL)
    hbase_filter_unref (old);
}

/**
 * hbase_key_query_set_columns:
 * @query: a query from hbase_key_query_new()
 * @columns: (nullable) (array zero-terminated=1): the columns to return;
 *   %NULL for all
 *
 * Stores a copy of @columns, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_key_query_set_columns (HBaseKeyQuery *query, const char *const *columns)
{
  char **old;

  g_return_if_fail (query != NULL);
  old = (char **) query->columns;
  query->columns = (const char *const *) g_strdupv ((char **) columns);
  g_strfreev (old);
}

/**
 * hbase_key_query_set_page_token:
 * @query: a query from hbase_key_query_new()
 * @page_token: (nullable): where to resume; %NULL for the first page
 *
 * Stores a copy of @page_token, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_key_query_set_page_token (HBaseKeyQuery *query, const char *page_token)
{
  char *old;

  g_return_if_fail (query != NULL);
  old = (char *) query->page_token;
  query->page_token = g_strdup (page_token);
  g_free (old);
}
