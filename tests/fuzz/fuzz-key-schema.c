/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-key-schema.c: composite row keys (src/rowkey/hbase-key-*.c) on
 * any schema, any stored key and any values.
 *
 * Input: a schema (1 to 4 fields: type, width, pad, direction; maybe
 * salted), then values for the encoders and a range, then the rest: a row
 * key as read from HBase.
 *
 * Checked: every call fails with an error or succeeds without one; a key
 * that decodes re-encodes to the same bytes (the decoder takes only keys
 * the encoder writes); values that encode decode back to the same values;
 * decode() and decode_values() agree. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "fuzz-support.h"

#define MAX_FIELDS 4

static const char *const names[MAX_FIELDS] = { "a", "b", "c", "d" };

static HBaseKeySchema *
take_schema (FuzzInput *in)
{
  HBaseKeyField fields[MAX_FIELDS];
  HBaseSaltOptions salt = HBASE_SALT_OPTIONS_INIT;
  const char *hashed[] = { "b", NULL };
  guint8 shape = fuzz_take_u8 (in);
  guint n = 1 + shape % MAX_FIELDS;
  GError *error = NULL;
  HBaseKeySchema *schema;

  for (guint i = 0; i < n; i++)
    {
      guint8 kind = fuzz_take_u8 (in);

      fields[i].name = names[i];
      fields[i].type = (HBaseKeyFieldType) (kind % 8);    /* one past the last: refused */
      fields[i].width = fuzz_take_u8 (in) % 24;
      fields[i].pad = kind & 0x80 ? ' ' : 0;
      fields[i].descending = (kind & 0x40) != 0;
    }
  if (shape & 0x10)
    {
      salt.n_buckets = fuzz_take_u8 (in) % 20;
      salt.hash = shape & 0x20 ? HBASE_SALT_HASH_PHOENIX : HBASE_SALT_HASH_MURMUR3;
      salt.hash_fields = shape & 0x40 ? hashed : NULL;
    }
  schema = hbase_key_schema_new (fields, n, shape & 0x10 ? &salt : NULL, &error);
  fuzz_check_outcome ("hbase_key_schema_new", schema != NULL, &error);
  return schema;
}

static void
take_value (FuzzInput *in, HBaseKeyValue *value)
{
  guint8 kind = fuzz_take_u8 (in);
  guint64 bits = (guint64) fuzz_take_u32 (in) << 32 | fuzz_take_u32 (in);
  gsize len;

  switch (kind % 4)
    {
    case 0: *value = HBASE_KEY_UINT (kind & 4 ? bits : bits % 1000); break;
    case 1: *value = HBASE_KEY_INT ((gint64) bits); break;
    case 2:
      {
        double d;

        memcpy (&d, &bits, sizeof d);
        *value = HBASE_KEY_DOUBLE (kind & 4 ? d : (double) (gint64) bits);
        break;
      }
    default:
      {
        const guint8 *bytes = fuzz_take_bytes (in, kind >> 3, &len);

        *value = HBASE_KEY_BYTES (bytes, len);
        break;
      }
    }
}

static gboolean
values_equal (const HBaseKeyValue *a, const HBaseKeyValue *b, const HBaseKeyField *field)
{
  switch (field->type)
    {
    case HBASE_KEY_FIELD_DECIMAL:
    case HBASE_KEY_FIELD_UINT:
      return (a->kind == HBASE_KEY_VALUE_UINT ? a->v.u : (guint64) a->v.i) == b->v.u;
    case HBASE_KEY_FIELD_INT:
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
      return (a->kind == HBASE_KEY_VALUE_INT ? a->v.i : (gint64) a->v.u) == b->v.i;
    case HBASE_KEY_FIELD_DOUBLE:
      return (isnan (a->v.d) && isnan (b->v.d)) || (a->v.d == b->v.d);
    default:
      return a->v.b.size == b->v.b.size && (a->v.b.size == 0 || memcmp (a->v.b.data, b->v.b.data, a->v.b.size) == 0);
    }
}

/* A stored key: decoded, re-encoded, compared. */
static void
check_decode (HBaseKeySchema *schema, GBytes *row)
{
  guint n = hbase_key_schema_get_n_fields (schema);
  HBaseKeyValue values[MAX_FIELDS];
  g_autoptr(GByteArray) storage = g_byte_array_new ();
  g_autoptr(GVariant) tuple = NULL;
  g_autoptr(GBytes) again = NULL;
  GError *error = NULL;
  gboolean ok;

  tuple = hbase_key_schema_decode (schema, row, &error);
  if (error != NULL)
    fuzz_assert (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA),
                 "a bad key is not HBASE_ERROR_BAD_DATA: %s", error->message);
  fuzz_check_outcome ("hbase_key_schema_decode", tuple != NULL, &error);
  ok = hbase_key_schema_decode_values (schema, row, values, n, storage, &error);
  fuzz_check_outcome ("hbase_key_schema_decode_values", ok, &error);
  fuzz_assert (ok == (tuple != NULL), "decode and decode_values disagree");
  if (tuple == NULL)
    return;
  again = hbase_key_schema_encode_variant (schema, tuple, &error);
  fuzz_check_outcome ("hbase_key_schema_encode_variant", again != NULL, &error);
  fuzz_assert (again != NULL, "a decoded key does not encode again");
  fuzz_assert (g_bytes_equal (again, row), "a decoded key of %zu bytes encodes to other bytes (%zu)",
               g_bytes_get_size (row), g_bytes_get_size (again));
  {
    g_autoptr(GBytes) encoded = hbase_key_schema_encode (schema, values, n, &error);

    fuzz_check_outcome ("hbase_key_schema_encode", encoded != NULL, &error);
    fuzz_assert (encoded != NULL && g_bytes_equal (encoded, row), "decode_values does not encode back");
  }
}

/* Values: encoded, then decoded back. */
static void
check_encode (HBaseKeySchema *schema, const HBaseKeyValue *values, guint n_values)
{
  guint n = hbase_key_schema_get_n_fields (schema);
  HBaseKeyValue back[MAX_FIELDS];
  g_autoptr(GByteArray) storage = g_byte_array_new ();
  g_autoptr(GBytes) key = NULL;
  g_autoptr(GBytes) prefix = NULL;
  GError *error = NULL;
  guint bucket;
  gboolean ok;

  key = hbase_key_schema_encode (schema, values, n_values, &error);
  fuzz_check_outcome ("hbase_key_schema_encode", key != NULL, &error);
  prefix = hbase_key_schema_encode_prefix (schema, values, n_values, &error);
  fuzz_check_outcome ("hbase_key_schema_encode_prefix", prefix != NULL, &error);
  ok = hbase_key_schema_get_bucket (schema, values, n_values, &bucket, &error);
  fuzz_check_outcome ("hbase_key_schema_get_bucket", ok, &error);
  if (key == NULL)
    return;
  fuzz_assert (n_values == n, "a key of %u fields encoded from %u values", n, n_values);
  ok = hbase_key_schema_decode_values (schema, key, back, n, storage, &error);
  fuzz_check_outcome ("hbase_key_schema_decode_values", ok, &error);
  fuzz_assert (ok, "an encoded key does not decode");
  for (guint i = 0; i < n; i++)
    fuzz_assert (values_equal (&values[i], &back[i], hbase_key_schema_get_field (schema, i)),
                 "field %u does not decode to the value encoded", i);
  check_decode (schema, key);
}

static void
check_range (HBaseKeySchema *schema, const HBaseKeyValue *values, guint n_values, guint8 shape)
{
  HBaseKeyRange range = HBASE_KEY_RANGE_INIT;
  g_autoptr(GBytes) start = NULL;
  g_autoptr(GBytes) stop = NULL;
  g_autoptr(GArray) buckets = NULL;
  GError *error = NULL;
  gboolean ok;
  guint n_equal = MIN (n_values, (guint) (shape & 3));

  range.equal = n_equal > 0 ? values : NULL;
  range.n_equal = n_equal;
  range.lower = shape & 4 && n_values > n_equal ? &values[n_equal] : NULL;
  range.lower_inclusive = (shape & 8) != 0;
  range.upper = shape & 16 && n_values > n_equal + 1 ? &values[n_equal + 1] : NULL;
  range.upper_inclusive = (shape & 32) != 0;
  ok = hbase_key_schema_get_row_range (schema, &range, &start, &stop, &error);
  fuzz_check_outcome ("hbase_key_schema_get_row_range", ok, &error);
  buckets = hbase_key_schema_get_range_buckets (schema, &range, &error);
  fuzz_check_outcome ("hbase_key_schema_get_range_buckets", buckets != NULL, &error);
  if (ok && start != NULL && stop != NULL && g_bytes_get_size (stop) > 0)
    fuzz_assert (g_bytes_compare (start, stop) <= 0 || g_bytes_get_size (start) == 0,
                 "a row range starts after it stops");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  g_autoptr(HBaseKeySchema) schema = NULL;
  g_autoptr(GBytes) row = NULL;
  HBaseKeyValue values[MAX_FIELDS + 1];
  guint8 shape;
  guint n_values;

  fuzz_init ();
  if ((schema = take_schema (&in)) == NULL)
    return 0;
  shape = fuzz_take_u8 (&in);
  n_values = shape >> 6 == 3 ? hbase_key_schema_get_n_fields (schema) : (shape >> 6) % (MAX_FIELDS + 1);
  for (guint i = 0; i < n_values; i++)
    take_value (&in, &values[i]);
  check_encode (schema, values, n_values);
  check_range (schema, values, n_values, shape);
  row = g_bytes_new (in.data, in.size);
  check_decode (schema, row);
  {
    g_autoptr(GPtrArray) splits = hbase_key_schema_get_split_keys (schema);

    fuzz_assert (splits != NULL, "no split keys");
  }
  return 0;
}
