/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-salt.c: the bucket byte of a salted key: the hashes of the
 * hashed fields (MurmurHash3 x86_32, or Phoenix's Java-int hash), buckets
 * split into periods of a period field (time-aligned buckets, with
 * hbase_key_period_month()), and hbase_key_schema_get_bucket(). */
#include "config.h"

#include "../core/hbase-error-private.h"
#include "hbase-rowkey-private.h"

guint32
_hbase_murmur3_32 (const guint8 *data, gsize len, guint32 seed)
{
  const guint32 c1 = 0xcc9e2d51, c2 = 0x1b873593;
  guint32 h = seed, k;
  gsize blocks = len / 4;

  for (gsize i = 0; i < blocks; i++)
    {
      k = (guint32) data[4 * i] | (guint32) data[4 * i + 1] << 8 |
          (guint32) data[4 * i + 2] << 16 | (guint32) data[4 * i + 3] << 24;
      k *= c1;
      k = (k << 15) | (k >> 17);
      k *= c2;
      h ^= k;
      h = (h << 13) | (h >> 19);
      h = h * 5 + 0xe6546b64;
    }
  k = 0;
  switch (len & 3)
    {
    case 3:
      k ^= (guint32) data[4 * blocks + 2] << 16;
      G_GNUC_FALLTHROUGH;
    case 2:
      k ^= (guint32) data[4 * blocks + 1] << 8;
      G_GNUC_FALLTHROUGH;
    case 1:
      k ^= data[4 * blocks];
      k *= c1;
      k = (k << 15) | (k >> 17);
      k *= c2;
      h ^= k;
      break;
    default:
      break;
    }
  h ^= (guint32) len;
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

guint
_hbase_phoenix_salt (const guint8 *data, gsize len, guint n_buckets)
{
  guint32 h = 1;
  gint32 signed_h, rest;

  for (gsize i = 0; i < len; i++)
    h = 31 * h + (guint32) (gint32) (gint8) data[i];   /* Java int arithmetic, signed bytes */
  signed_h = (gint32) h;
  rest = signed_h % (gint32) n_buckets;                /* C99 and Java both truncate */
  return (guint) (rest < 0 ? -rest : rest);
}

/* The bucket among @n of the hashed fields of an encoded key (unsalted,
 * @offsets as from _hbase_key_schema_encode_fields(), every hashed field present). */
guint
_hbase_key_schema_hash_bucket (HBaseKeySchema *schema, const guint8 *key, const guint *offsets, guint n)
{
  const guint8 *data;
  gsize len;
  g_autoptr(GByteArray) joined = NULL;
  guint first = 0, last = 0;
  gboolean found = FALSE;

  for (guint i = 0; i < schema->n_fields; i++)
    if (schema->fields[i].hashed)
      {
        if (!found)
          first = i;
        last = i;
        found = TRUE;
      }
  if (schema->hash_contiguous)
    {
      data = key + offsets[first];
      len = offsets[last + 1] - offsets[first];
    }
  else
    {
      joined = g_byte_array_new ();
      for (guint i = first; i <= last; i++)
        if (schema->fields[i].hashed)
          g_byte_array_append (joined, key + offsets[i], offsets[i + 1] - offsets[i]);
      data = joined->data;
      len = joined->len;
    }
  if (schema->hash == HBASE_SALT_HASH_PHOENIX)
    return _hbase_phoenix_salt (data, len, n);
  return _hbase_murmur3_32 (data, len, 0) % n;
}

guint
_hbase_key_schema_buckets_per_period (HBaseKeySchema *schema)
{
  return schema->period_field >= 0 ? schema->n_buckets / schema->n_periods : schema->n_buckets;
}

gboolean
_hbase_key_schema_period_of (HBaseKeySchema *schema, const HBaseKeyValue *value, guint *period, GError **error)
{
  const HBaseKeyField *field = &schema->fields[schema->period_field].field;

  *period = schema->period_func (field, value, schema->period_data);
  if (*period >= schema->n_periods)
    return _hbase_illegal (error, "the value of key field \"%s\" has no period (of %u)", field->name,
                           schema->n_periods);
  return TRUE;
}

/* The bucket of a key of which the first @n_values fields are given and
 * encoded (unsalted) in @key with @offsets.  FALSE with an error when a
 * hashed field or the period field is missing. */
gboolean
_hbase_key_schema_bucket_of (HBaseKeySchema *schema, const HBaseKeyValue *values, guint n_values,
                             const guint8 *key, const guint *offsets, guint *bucket, GError **error)
{
  guint period = 0;

  for (guint i = n_values; i < schema->n_fields; i++)
    if (schema->fields[i].hashed)
      return _hbase_illegal (error, "the bucket of a salted key needs field \"%s\"",
                             schema->fields[i].field.name);
  if (schema->period_field >= (int) n_values)
    return _hbase_illegal (error, "the bucket of a salted key needs its period field \"%s\"",
                           schema->fields[schema->period_field].field.name);
  if (schema->period_field >= 0 && !_hbase_key_schema_period_of (schema, &values[schema->period_field], &period,
                                                                 error))
    return FALSE;
  *bucket = period * _hbase_key_schema_buckets_per_period (schema) +
            _hbase_key_schema_hash_bucket (schema, key, offsets, _hbase_key_schema_buckets_per_period (schema));
  return TRUE;
}

/**
 * hbase_key_schema_get_bucket:
 * @schema: a salted schema
 * @values: (array length=n_values): values of the leading fields
 * @n_values: how many; every hashed field and the period field must be
 *   among them
 * @bucket: (out): the bucket
 * @error: return location for an error
 *
 * The bucket of the keys whose leading fields are @values.
 *
 * Returns: %TRUE, or %FALSE with %HBASE_ERROR_ILLEGAL_ARGUMENT (the
 *   schema is not salted, a field the bucket depends on is missing, a bad
 *   value)
 *
 * Since: 0.1
 */
gboolean
hbase_key_schema_get_bucket (HBaseKeySchema      *schema,
                             const HBaseKeyValue *values,
                             guint                n_values,
                             guint               *bucket,
                             GError             **error)
{
  g_autoptr(GByteArray) out = NULL;
  g_autofree guint *offsets = NULL;

  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (bucket != NULL, FALSE);
  if (schema->n_buckets == 0)
    return _hbase_illegal (error, "the key schema is not salted");
  out = g_byte_array_new ();
  offsets = g_new (guint, MIN (n_values, schema->n_fields) + 1);
  if (!_hbase_key_schema_encode_fields (schema, values, n_values, out, offsets, error))
    return FALSE;
  return _hbase_key_schema_bucket_of (schema, values, n_values, out->data, offsets, bucket, error);
}
/* Days since 1970-01-01 to a civil date (H. Hinnant's algorithm). */
static void
civil_from_days (gint64 days, gint64 *year, guint *month)
{
  gint64 z = days + 719468;
  gint64 era = (z >= 0 ? z : z - 146096) / 146097;
  gint64 doe = z - era * 146097;
  gint64 yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  gint64 doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  gint64 mp = (5 * doy + 2) / 153;
  gint64 m = mp < 10 ? mp + 3 : mp - 9;

  *year = yoe + era * 400 + (m <= 2 ? 1 : 0);
  *month = (guint) m;
}

/* The month of a value as year * 12 + (month - 1); FALSE when it has none. */
gboolean
_hbase_key_month_index (const HBaseKeyField *field, const HBaseKeyValue *value, gint64 *index)
{
  gboolean negative;
  guint64 magnitude;

  switch (field->type)
    {
    case HBASE_KEY_FIELD_DECIMAL:
      {
        guint64 yyyymm;
        guint month;

        if (field->width < 6 || !_hbase_key_value_integer (value, &negative, &magnitude) || negative)
          return FALSE;
        yyyymm = magnitude / _hbase_key_powers_of_ten[field->width - 6];
        month = (guint) (yyyymm % 100);
        if (month < 1 || month > 12)
          return FALSE;
        *index = (gint64) (yyyymm / 100) * 12 + (month - 1);
        return TRUE;
      }
    case HBASE_KEY_FIELD_UINT:
    case HBASE_KEY_FIELD_INT:
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
      {
        gint64 ms, days, year;
        guint month;

        if (!_hbase_key_value_integer (value, &negative, &magnitude) || magnitude > (guint64) G_MAXINT64)
          return FALSE;
        ms = negative ? -(gint64) magnitude : (gint64) magnitude;
        days = ms >= 0 ? ms / 86400000 : -((-ms + 86399999) / 86400000);
        civil_from_days (days, &year, &month);
        *index = year * 12 + (month - 1);
        return TRUE;
      }
    case HBASE_KEY_FIELD_STRING:
    case HBASE_KEY_FIELD_BYTES:
      {
        const guint8 *text = value->v.b.data;
        gsize size = value->v.b.size, at = 4;
        guint year = 0, month;

        if (value->kind != HBASE_KEY_VALUE_BYTES || size < 6)
          return FALSE;
        for (guint i = 0; i < 4; i++)
          {
            if (!g_ascii_isdigit (text[i]))
              return FALSE;
            year = year * 10 + (guint) (text[i] - '0');
          }
        if (text[at] == '-' || text[at] == '/')
          at++;
        if (size < at + 2 || !g_ascii_isdigit (text[at]) || !g_ascii_isdigit (text[at + 1]))
          return FALSE;
        month = (guint) (text[at] - '0') * 10 + (guint) (text[at + 1] - '0');
        if (month < 1 || month > 12)
          return FALSE;
        *index = (gint64) year * 12 + (month - 1);
        return TRUE;
      }
    default:
      return FALSE;
    }
}

/**
 * hbase_key_period_month:
 * @field: the period field
 * @value: its value
 * @user_data: unused
 *
 * The month of a value, 0 for January to 11 for December, for time-aligned
 * buckets with 12 periods (e.g. "buckets 0-9 hold January, 10-19
 * February, ...").  Understood: a decimal field of at least 6 digits that
 * starts with yyyymm (yyyymm, yyyymmdd, yyyymmddhhmmss...); an integer or
 * reverse timestamp field in milliseconds since 1970 (UTC); a string or
 * bytes field starting with "yyyy-mm", "yyyy/mm" or "yyyymm".
 *
 * Returns: the month, or G_MAXUINT when @value has none
 *
 * Since: 0.1
 */
guint
hbase_key_period_month (const HBaseKeyField *field, const HBaseKeyValue *value,
                        gpointer user_data)
{
  gint64 index;

  if (field == NULL || value == NULL || !_hbase_key_month_index (field, value, &index))
    return G_MAXUINT;
  return (guint) (((index % 12) + 12) % 12);
}
