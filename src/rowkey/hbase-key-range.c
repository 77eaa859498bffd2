/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-range.c: what a scan of an HBaseKeyRange reads: the unsalted
 * start and stop rows (hbase_key_schema_get_row_range()), the periods and
 * buckets that can hold the range, one row range per bucket for the key
 * scanner, and the split keys that pre-split a salted table. */
#include "config.h"

#include <string.h>

#include "../core/hbase-error-private.h"
#include "hbase-rowkey-private.h"

/* --- ranges -------------------------------------------------------------- */

void
_hbase_row_range_clear (_HBaseRowRange *range)
{
  g_clear_pointer (&range->start, g_bytes_unref);
  g_clear_pointer (&range->stop, g_bytes_unref);
}

static GBytes *
concat (GBytes *prefix, GBytes *suffix)
{
  GByteArray *out = g_byte_array_new ();

  if (prefix != NULL)
    g_byte_array_append (out, g_bytes_get_data (prefix, NULL), (guint) g_bytes_get_size (prefix));
  if (suffix != NULL)
    g_byte_array_append (out, g_bytes_get_data (suffix, NULL), (guint) g_bytes_get_size (suffix));
  return g_byte_array_free_to_bytes (out);
}

static int
compare_bytes (GBytes *a, GBytes *b)
{
  return g_bytes_compare (a, b);
}

gboolean
_hbase_key_schema_unsalted_range (HBaseKeySchema      *schema,
                                  const HBaseKeyRange *range,
                                  GBytes             **start,
                                  GBytes             **stop,
                                  GError             **error)
{
  static const HBaseKeyRange everything = HBASE_KEY_RANGE_INIT;
  g_autoptr(GByteArray) prefix = g_byte_array_new ();
  g_autoptr(GBytes) lower = NULL, upper = NULL;
  const HBaseKeyValue *low, *high;
  gboolean low_inclusive, high_inclusive;
  g_autoptr(GBytes) prefix_bytes = NULL;

  *start = *stop = NULL;
  if (range == NULL)
    range = &everything;
  if (range->n_equal > schema->n_fields)
    return _hbase_illegal (error, "the range fixes %u fields of a key of %u", range->n_equal,
                           schema->n_fields);
  if (range->n_equal == schema->n_fields && (range->lower != NULL || range->upper != NULL))
    return _hbase_illegal (error, "the range fixes every field, so there is no field left to bound");
  if (!_hbase_key_schema_encode_fields (schema, range->equal, range->n_equal, prefix, NULL, error))
    return FALSE;
  prefix_bytes = g_bytes_new (prefix->data, prefix->len);

  low = range->lower;
  high = range->upper;
  low_inclusive = range->lower_inclusive;
  high_inclusive = range->upper_inclusive;
  if (range->n_equal < schema->n_fields && schema->fields[range->n_equal].field.descending)
    {
      /* high values come first in the bytes */
      low = range->upper;
      high = range->lower;
      low_inclusive = range->upper_inclusive;
      high_inclusive = range->lower_inclusive;
    }
  if (low != NULL)
    {
      GByteArray *bound = g_byte_array_new ();

      g_byte_array_append (bound, prefix->data, prefix->len);
      if (!_hbase_key_field_encode (&schema->fields[range->n_equal].field, low, bound, error))
        {
          g_byte_array_unref (bound);
          return FALSE;
        }
      lower = g_byte_array_free_to_bytes (bound);
      if (!low_inclusive)
        {
          /* past every key whose field equals @low */
          GBytes *after = hbase_prefix_stop_row (lower);

          if (after == NULL)
            {
              /* nothing sorts above an all-0xFF prefix: no key fits */
              *start = g_bytes_ref (lower);
              *stop = g_steal_pointer (&lower);
              return TRUE;
            }
          g_bytes_unref (lower);
          lower = after;
        }
    }
  else if (prefix->len > 0)
    lower = g_bytes_ref (prefix_bytes);

  if (high != NULL)
    {
      GByteArray *bound = g_byte_array_new ();

      g_byte_array_append (bound, prefix->data, prefix->len);
      if (!_hbase_key_field_encode (&schema->fields[range->n_equal].field, high, bound, error))
        {
          g_byte_array_unref (bound);
          return FALSE;
        }
      upper = g_byte_array_free_to_bytes (bound);
      if (high_inclusive)
        {
          GBytes *after = hbase_prefix_stop_row (upper);

          g_bytes_unref (upper);
          upper = after;   /* NULL: to the table's end */
        }
    }
  else
    upper = hbase_prefix_stop_row (prefix_bytes);

  if (lower != NULL && upper != NULL && compare_bytes (lower, upper) >= 0)
    {
      *start = g_bytes_ref (lower);
      *stop = g_steal_pointer (&lower);
      return TRUE;
    }
  *start = g_steal_pointer (&lower);
  *stop = g_steal_pointer (&upper);
  return TRUE;
}

/**
 * hbase_key_schema_get_row_range:
 * @schema: a schema
 * @range: (nullable): the keys wanted; %NULL for all
 * @start_row: (out) (optional) (transfer full) (nullable): the first row
 *   to scan (inclusive), %NULL for the table's start
 * @stop_row: (out) (optional) (transfer full) (nullable): the row to stop
 *   at (exclusive), %NULL for the table's end
 * @error: return location for an error
 *
 * The exact start and stop rows of a scan over @range, as
 * #HBaseScanOptions take them.  Exclusive lower bounds and inclusive upper
 * bounds skip or take every key whose field equals the bound, whatever
 * follows it: the stop row is the encoded bound with trailing 0xFF bytes
 * dropped and the last byte incremented; when the bound is all 0xFF there
 * is no such row and the scan runs to the table's end (@stop_row %NULL).
 * When no key can lie in @range, @start_row and @stop_row are equal (a
 * scan yields nothing).
 *
 * For a salted schema these are unsalted keys: the rows are the same
 * bytes after each bucket byte (#HBaseKeyScanner scans them).
 *
 * Returns: %TRUE, or %FALSE with %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Since: 0.1
 */
gboolean
hbase_key_schema_get_row_range (HBaseKeySchema      *schema,
                                const HBaseKeyRange *range,
                                GBytes             **start_row,
                                GBytes             **stop_row,
                                GError             **error)
{
  GBytes *start = NULL, *stop = NULL;

  g_return_val_if_fail (schema != NULL, FALSE);
  if (!_hbase_key_schema_unsalted_range (schema, range, &start, &stop, error))
    return FALSE;
  if (start_row != NULL)
    *start_row = start;
  else if (start != NULL)
    g_bytes_unref (start);
  if (stop_row != NULL)
    *stop_row = stop;
  else if (stop != NULL)
    g_bytes_unref (stop);
  return TRUE;
}

/* --- periods and buckets of a range --------------------------------------- */
/* The periods that can hold @range, as a bit mask of n_periods bits (at
 * most 256, so in 4 words). */
static void
range_periods (HBaseKeySchema *schema, const HBaseKeyRange *range, guint64 mask[4],
               GError **error, gboolean *ok)
{
  guint field = (guint) schema->period_field;

  *ok = TRUE;
  memset (mask, 0, 4 * sizeof (guint64));
  if (field < range->n_equal)
    {
      guint period;

      if (!_hbase_key_schema_period_of (schema, &range->equal[field], &period, error))
        {
          *ok = FALSE;
          return;
        }
      mask[period / 64] |= G_GUINT64_CONSTANT (1) << (period % 64);
      return;
    }
  if (field == range->n_equal && schema->period_func == hbase_key_period_month &&
      range->lower != NULL && range->upper != NULL)
    {
      const HBaseKeyField *f = &schema->fields[field].field;
      gint64 low, high;

      if (_hbase_key_month_index (f, range->lower, &low) && _hbase_key_month_index (f, range->upper, &high) &&
          low <= high && high - low < 12)
        {
          for (gint64 m = low; m <= high; m++)
            {
              guint period = (guint) (((m % 12) + 12) % 12);

              mask[period / 64] |= G_GUINT64_CONSTANT (1) << (period % 64);
            }
          return;
        }
    }
  for (guint p = 0; p < schema->n_periods; p++)
    mask[p / 64] |= G_GUINT64_CONSTANT (1) << (p % 64);
}

/* The buckets that can hold @range, in order. */
static GArray *
range_buckets (HBaseKeySchema *schema, const HBaseKeyRange *range, GError **error)
{
  static const HBaseKeyRange everything = HBASE_KEY_RANGE_INIT;
  GArray *buckets = g_array_new (FALSE, FALSE, sizeof (guint));
  guint per = _hbase_key_schema_buckets_per_period (schema);
  guint64 periods[4] = { 1, 0, 0, 0 };
  gboolean hash_known = TRUE;
  guint hashed = 0;

  if (schema->n_buckets == 0)
    return buckets;
  if (range == NULL)
    range = &everything;
  if (range->n_equal > schema->n_fields || (range->n_equal > 0 && range->equal == NULL))
    {
      g_array_unref (buckets);
      _hbase_illegal (error, "the range fixes %u fields of a key of %u", range->n_equal,
                      schema->n_fields);
      return NULL;
    }
  for (guint i = range->n_equal; i < schema->n_fields; i++)
    if (schema->fields[i].hashed)
      hash_known = FALSE;
  if (hash_known)
    {
      g_autoptr(GByteArray) out = g_byte_array_new ();
      g_autofree guint *offsets = g_new (guint, range->n_equal + 1);

      if (!_hbase_key_schema_encode_fields (schema, range->equal, range->n_equal, out, offsets, error))
        {
          g_array_unref (buckets);
          return NULL;
        }
      hashed = _hbase_key_schema_hash_bucket (schema, out->data, offsets, per);
    }
  if (schema->period_field >= 0)
    {
      gboolean ok;

      range_periods (schema, range, periods, error, &ok);
      if (!ok)
        {
          g_array_unref (buckets);
          return NULL;
        }
    }
  for (guint p = 0; p < (schema->period_field >= 0 ? schema->n_periods : 1); p++)
    {
      if (!(periods[p / 64] & (G_GUINT64_CONSTANT (1) << (p % 64))))
        continue;
      if (hash_known)
        {
          guint bucket = p * per + hashed;

          g_array_append_val (buckets, bucket);
        }
      else
        for (guint i = 0; i < per; i++)
          {
            guint bucket = p * per + i;

            g_array_append_val (buckets, bucket);
          }
    }
  return buckets;
}

/**
 * hbase_key_schema_get_range_buckets:
 * @schema: a schema
 * @range: (nullable): the keys wanted; %NULL for all
 * @error: return location for an error
 *
 * The buckets a scan of @range must read: one when @range fixes every
 * hashed field (and the period field); with time-aligned buckets, only
 * those of the periods @range can touch (when it fixes the period field,
 * or bounds it on both sides with hbase_key_period_month()); otherwise all.
 *
 * Returns: (transfer full) (element-type guint) (nullable): the buckets in
 *   increasing order (empty for an unsalted schema), or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Since: 0.1
 */
GArray *
hbase_key_schema_get_range_buckets (HBaseKeySchema      *schema,
                                    const HBaseKeyRange *range,
                                    GError             **error)
{
  g_return_val_if_fail (schema != NULL, NULL);
  return range_buckets (schema, range, error);
}

static GBytes *
with_bucket (guint bucket, GBytes *key)
{
  GByteArray *out = g_byte_array_new ();
  guint8 byte = (guint8) bucket;

  g_byte_array_append (out, &byte, 1);
  if (key != NULL)
    g_byte_array_append (out, g_bytes_get_data (key, NULL), (guint) g_bytes_get_size (key));
  return g_byte_array_free_to_bytes (out);
}

GArray *
_hbase_key_schema_row_ranges (HBaseKeySchema      *schema,
                              const HBaseKeyRange *range,
                              GBytes              *lower_after,
                              GError             **error)
{
  g_autoptr(GBytes) start = NULL, stop = NULL;
  g_autoptr(GArray) buckets = NULL;
  GArray *ranges;

  if (!_hbase_key_schema_unsalted_range (schema, range, &start, &stop, error))
    return NULL;
  if (lower_after != NULL)
    {
      /* the smallest key after @lower_after is @lower_after + 0x00 */
      static const guint8 zero = 0;
      g_autoptr(GBytes) zero_bytes = g_bytes_new_static (&zero, 1);
      g_autoptr(GBytes) after = concat (lower_after, zero_bytes);

      if (start == NULL || compare_bytes (after, start) > 0)
        {
          g_clear_pointer (&start, g_bytes_unref);
          start = g_steal_pointer (&after);
        }
    }
  ranges = g_array_new (FALSE, TRUE, sizeof (_HBaseRowRange));
  g_array_set_clear_func (ranges, (GDestroyNotify) _hbase_row_range_clear);
  if (start != NULL && stop != NULL && compare_bytes (start, stop) >= 0)
    return ranges;   /* nothing to scan */
  if (schema->n_buckets == 0)
    {
      _HBaseRowRange one = { start != NULL ? g_bytes_ref (start) : NULL,
                             stop != NULL ? g_bytes_ref (stop) : NULL };

      g_array_append_val (ranges, one);
      return ranges;
    }
  buckets = range_buckets (schema, range, error);
  if (buckets == NULL)
    {
      g_array_unref (ranges);
      return NULL;
    }
  for (guint i = 0; i < buckets->len; i++)
    {
      guint bucket = g_array_index (buckets, guint, i);
      _HBaseRowRange one;

      one.start = with_bucket (bucket, start);
      if (stop != NULL)
        one.stop = with_bucket (bucket, stop);
      else
        {
          g_autoptr(GBytes) only = with_bucket (bucket, NULL);

          one.stop = hbase_prefix_stop_row (only);
        }
      g_array_append_val (ranges, one);
    }
  return ranges;
}

/**
 * hbase_key_schema_get_split_keys:
 * @schema: a schema
 *
 * Split keys that pre-split a table of a salted schema into one region per
 * bucket: the single bytes 1 to n_buckets - 1, for
 * hbase_client_create_table().
 *
 * Returns: (transfer container) (element-type GBytes): the split keys (empty
 *   for an unsalted schema)
 *
 * Since: 0.1
 */
GPtrArray *
hbase_key_schema_get_split_keys (HBaseKeySchema *schema)
{
  GPtrArray *keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  g_return_val_if_fail (schema != NULL, keys);
  for (guint b = 1; b < schema->n_buckets; b++)
    g_ptr_array_add (keys, with_bucket (b, NULL));
  return keys;
}
