/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-schema.c: HBaseKeySchema, composite row keys from typed fields.
 *
 * Each field type has an order-preserving encoding (see HBaseKeyFieldType):
 * comparing two encoded keys with memcmp, shorter first on a common prefix
 * (HBase's order), gives the order of their value tuples.  Fixed-width
 * encodings are trivially prefix-free; the variable-length bytes field is
 * made prefix-free by escaping 0x00 as 00 FF and ending with 00 01 (the
 * escape CockroachDB and others use), so the end of a field sorts below any
 * continuation of it whatever follows.  A descending field is the ones'
 * complement of its ascending encoding; complementing reverses the order of
 * a prefix-free code.
 *
 * Nothing is ever truncated or coerced: a value too wide for its field, a
 * byte a field cannot hold, an integer of the wrong sign is an
 * HBASE_ERROR_ILLEGAL_ARGUMENT naming the field.  A key that does not parse
 * is HBASE_ERROR_BAD_DATA.
 *
 * Salting puts one bucket byte in front of the encoded fields; see
 * hbase-key-salt.c for the hashes and the time-aligned buckets. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "../core/hbase-error-private.h"
#include "hbase-rowkey-private.h"

G_DEFINE_BOXED_TYPE (HBaseKeySchema, hbase_key_schema, hbase_key_schema_ref,
                     hbase_key_schema_unref)

#define ESCAPE_BYTE 0xff
#define TERMINATOR_BYTE 0x01

static const guint64 powers_of_ten[] = {
  1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
  100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
  10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
  100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL,
};

static const char *
type_name (HBaseKeyFieldType type)
{
  switch (type)
    {
    case HBASE_KEY_FIELD_DECIMAL: return "decimal";
    case HBASE_KEY_FIELD_STRING: return "string";
    case HBASE_KEY_FIELD_UINT: return "uint";
    case HBASE_KEY_FIELD_INT: return "int";
    case HBASE_KEY_FIELD_DOUBLE: return "double";
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP: return "reverse timestamp";
    case HBASE_KEY_FIELD_BYTES: return "bytes";
    default: return "unknown";
    }
}

static gboolean
bad_data (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
bad_data (GError **error, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                                                format, args));
  va_end (args);
  return FALSE;
}

/* --- the schema ---------------------------------------------------------- */

static gboolean
check_field (const HBaseKeyField *field, guint index, GError **error)
{
  if (field->name == NULL || field->name[0] == '\0')
    return _hbase_illegal (error, "key field %u has no name", index);
  switch (field->type)
    {
    case HBASE_KEY_FIELD_DECIMAL:
      if (field->width < 1 || field->width > 20)
        return _hbase_illegal (error, "decimal key field \"%s\" must be 1 to 20 digits wide, not %u",
                               field->name, field->width);
      break;
    case HBASE_KEY_FIELD_STRING:
      if (field->width < 1 || field->width > 65536)
        return _hbase_illegal (error, "string key field \"%s\" must be 1 to 65536 bytes wide, not %u",
                               field->name, field->width);
      break;
    case HBASE_KEY_FIELD_UINT:
    case HBASE_KEY_FIELD_INT:
      if (field->width != 1 && field->width != 2 && field->width != 4 && field->width != 8)
        return _hbase_illegal (error, "%s key field \"%s\" must be 1, 2, 4 or 8 bytes wide, not %u",
                               type_name (field->type), field->name, field->width);
      break;
    case HBASE_KEY_FIELD_DOUBLE:
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
    case HBASE_KEY_FIELD_BYTES:
      if (field->width != 0 && !(field->width == 8 && field->type != HBASE_KEY_FIELD_BYTES))
        return _hbase_illegal (error, "%s key field \"%s\" has a fixed width; leave width 0",
                               type_name (field->type), field->name);
      break;
    default:
      return _hbase_illegal (error, "key field \"%s\" has the unknown type %d", field->name,
                             (int) field->type);
    }
  return TRUE;
}

static void
schema_free (HBaseKeySchema *schema)
{
  for (guint i = 0; i < schema->n_fields; i++)
    g_free ((char *) schema->fields[i].field.name);
  g_free (schema->fields);
  g_free (schema);
}

static gboolean
setup_salt (HBaseKeySchema *schema, const HBaseSaltOptions *salt, GError **error)
{
  int first = -1, last = -1;
  guint n_hashed = 0;

  if (salt->n_buckets < 1 || salt->n_buckets > 256)
    return _hbase_illegal (error, "a salted key needs 1 to 256 buckets, not %u", salt->n_buckets);
  if (salt->hash != HBASE_SALT_HASH_MURMUR3 && salt->hash != HBASE_SALT_HASH_PHOENIX)
    return _hbase_illegal (error, "unknown salt hash %d", (int) salt->hash);
  schema->n_buckets = salt->n_buckets;
  schema->hash = salt->hash;
  if (salt->hash_fields == NULL)
    {
      for (guint i = 0; i < schema->n_fields; i++)
        schema->fields[i].hashed = TRUE;
    }
  else
    {
      for (guint i = 0; salt->hash_fields[i] != NULL; i++)
        {
          int index = hbase_key_schema_find_field (schema, salt->hash_fields[i]);

          if (index < 0)
            return _hbase_illegal (error, "the salt hashes the field \"%s\", which the key does not have",
                                   salt->hash_fields[i]);
          schema->fields[index].hashed = TRUE;
        }
    }
  for (guint i = 0; i < schema->n_fields; i++)
    if (schema->fields[i].hashed)
      {
        n_hashed++;
        if (first < 0)
          first = (int) i;
        last = (int) i;
      }
  if (n_hashed == 0)
    return _hbase_illegal (error, "the salt hashes no field");
  schema->hash_all = n_hashed == schema->n_fields;
  schema->hash_contiguous = (guint) (last - first + 1) == n_hashed;

  schema->period_field = -1;
  if (salt->period_field != NULL)
    {
      schema->period_field = hbase_key_schema_find_field (schema, salt->period_field);
      if (schema->period_field < 0)
        return _hbase_illegal (error, "the salt's period field \"%s\" is not a field of the key",
                               salt->period_field);
      schema->period_func = salt->period_func != NULL ? salt->period_func : hbase_key_period_month;
      schema->period_data = salt->period_data;
      if (schema->period_func == hbase_key_period_month && salt->n_periods != 12)
        return _hbase_illegal (error, "monthly buckets need n_periods = 12, not %u", salt->n_periods);
      if (salt->n_periods < 1 || salt->n_buckets % salt->n_periods != 0)
        return _hbase_illegal (error, "%u buckets cannot be split into %u periods of equal size",
                               salt->n_buckets, salt->n_periods);
      schema->n_periods = salt->n_periods;
    }
  else if (salt->n_periods != 0 || salt->period_func != NULL)
    return _hbase_illegal (error, "salt periods need a period field");
  return TRUE;
}

/**
 * hbase_key_schema_new:
 * @fields: (array length=n_fields): the fields, in key order (copied)
 * @n_fields: how many, at least 1
 * @salt: (nullable): how keys are salted; %NULL (or @n_buckets 0) for no
 *   salt
 * @error: return location for an error
 *
 * A key schema.  Every field is checked: a missing or repeated name, a
 * width the type does not allow, bad salt options are
 * %HBASE_ERROR_ILLEGAL_ARGUMENT.
 *
 * Returns: (transfer full) (nullable): the schema, or %NULL with @error set
 */
HBaseKeySchema *
hbase_key_schema_new (const HBaseKeyField    *fields,
                      guint                   n_fields,
                      const HBaseSaltOptions *salt,
                      GError                **error)
{
  HBaseKeySchema *schema;

  if (fields == NULL || n_fields == 0)
    {
      _hbase_illegal (error, "a key schema needs at least one field");
      return NULL;
    }
  if (n_fields > 256)
    {
      _hbase_illegal (error, "a key schema has at most 256 fields, not %u", n_fields);
      return NULL;
    }
  for (guint i = 0; i < n_fields; i++)
    {
      if (!check_field (&fields[i], i, error))
        return NULL;
      for (guint j = 0; j < i; j++)
        if (strcmp (fields[i].name, fields[j].name) == 0)
          {
            _hbase_illegal (error, "the key has two fields named \"%s\"", fields[i].name);
            return NULL;
          }
    }

  schema = g_new0 (HBaseKeySchema, 1);
  g_atomic_ref_count_init (&schema->ref_count);
  schema->n_fields = n_fields;
  schema->fields = g_new0 (SchemaField, n_fields);
  for (guint i = 0; i < n_fields; i++)
    {
      schema->fields[i].field = fields[i];
      schema->fields[i].field.name = g_strdup (fields[i].name);
      if (fields[i].type == HBASE_KEY_FIELD_DOUBLE ||
          fields[i].type == HBASE_KEY_FIELD_REVERSE_TIMESTAMP)
        schema->fields[i].field.width = 8;
      if (fields[i].type != HBASE_KEY_FIELD_STRING)
        schema->fields[i].field.pad = 0;
    }
  schema->period_field = -1;
  if (salt != NULL && salt->n_buckets > 0 && !setup_salt (schema, salt, error))
    {
      schema_free (schema);
      return NULL;
    }
  if (salt != NULL && salt->n_buckets == 0 &&
      (salt->period_field != NULL || salt->hash_fields != NULL || salt->n_periods != 0))
    {
      _hbase_illegal (error, "salt options without buckets (set n_buckets)");
      schema_free (schema);
      return NULL;
    }
  return schema;
}

/**
 * hbase_key_schema_ref:
 * @schema: a schema
 *
 * Returns: (transfer full): @schema
 */
HBaseKeySchema *
hbase_key_schema_ref (HBaseKeySchema *schema)
{
  g_return_val_if_fail (schema != NULL, NULL);
  g_atomic_ref_count_inc (&schema->ref_count);
  return schema;
}

/**
 * hbase_key_schema_unref:
 * @schema: (nullable) (transfer full): a schema
 */
void
hbase_key_schema_unref (HBaseKeySchema *schema)
{
  if (schema != NULL && g_atomic_ref_count_dec (&schema->ref_count))
    schema_free (schema);
}

/**
 * hbase_key_schema_get_n_fields:
 * @schema: a schema
 *
 * Returns: how many fields a key has
 */
guint
hbase_key_schema_get_n_fields (HBaseKeySchema *schema)
{
  g_return_val_if_fail (schema != NULL, 0);
  return schema->n_fields;
}

/**
 * hbase_key_schema_get_field:
 * @schema: a schema
 * @index: a field index
 *
 * Returns: (transfer none) (nullable): the field (its width filled in for
 *   doubles and reverse timestamps), or %NULL when @index is out of range
 */
const HBaseKeyField *
hbase_key_schema_get_field (HBaseKeySchema *schema, guint index)
{
  g_return_val_if_fail (schema != NULL, NULL);
  return index < schema->n_fields ? &schema->fields[index].field : NULL;
}

/**
 * hbase_key_schema_find_field:
 * @schema: a schema
 * @name: a field name
 *
 * Returns: the index of the field named @name, or -1
 */
int
hbase_key_schema_find_field (HBaseKeySchema *schema, const char *name)
{
  g_return_val_if_fail (schema != NULL, -1);
  if (name == NULL)
    return -1;
  for (guint i = 0; i < schema->n_fields; i++)
    if (strcmp (schema->fields[i].field.name, name) == 0)
      return (int) i;
  return -1;
}

/**
 * hbase_key_schema_get_n_buckets:
 * @schema: a schema
 *
 * Returns: the salt buckets, 0 when keys are not salted
 */
guint
hbase_key_schema_get_n_buckets (HBaseKeySchema *schema)
{
  g_return_val_if_fail (schema != NULL, 0);
  return schema->n_buckets;
}

/* --- encoding one field -------------------------------------------------- */

/* The value as an integer: FALSE when it is not one. */
static gboolean
value_integer (const HBaseKeyValue *value, gboolean *negative, guint64 *magnitude)
{
  if (value->kind == HBASE_KEY_VALUE_UINT)
    {
      *negative = FALSE;
      *magnitude = value->v.u;
      return TRUE;
    }
  if (value->kind == HBASE_KEY_VALUE_INT)
    {
      *negative = value->v.i < 0;
      *magnitude = value->v.i < 0 ? (guint64) 0 - (guint64) value->v.i : (guint64) value->v.i;
      return TRUE;
    }
  return FALSE;
}

static const char *
kind_name (HBaseKeyValueKind kind)
{
  switch (kind)
    {
    case HBASE_KEY_VALUE_UINT: return "an unsigned integer";
    case HBASE_KEY_VALUE_INT: return "a signed integer";
    case HBASE_KEY_VALUE_DOUBLE: return "a double";
    case HBASE_KEY_VALUE_BYTES: return "bytes";
    default: return "an unknown kind of value";
    }
}

static gboolean
wrong_kind (const HBaseKeyField *field, const HBaseKeyValue *value, GError **error)
{
  return _hbase_illegal (error, "key field \"%s\" (%s) cannot hold %s", field->name,
                         type_name (field->type), kind_name (value->kind));
}

static void
put_be (guint8 *out, guint64 value, guint width)
{
  for (guint i = 0; i < width; i++)
    out[i] = (guint8) (value >> (8 * (width - 1 - i)));
}

static guint64
get_be (const guint8 *in, guint width)
{
  guint64 value = 0;

  for (guint i = 0; i < width; i++)
    value = (value << 8) | in[i];
  return value;
}

static guint64
double_bits (double d)
{
  guint64 bits;

  if (isnan (d))
    return G_GUINT64_CONSTANT (0xfff8000000000000);   /* canonical NaN, sign flipped */
  memcpy (&bits, &d, sizeof bits);
  if (bits >> 63)
    return ~bits;
  return bits | (G_GUINT64_CONSTANT (1) << 63);
}

static double
bits_double (guint64 bits)
{
  double d;

  if (bits >> 63)
    bits &= ~(G_GUINT64_CONSTANT (1) << 63);
  else
    bits = ~bits;
  memcpy (&d, &bits, sizeof d);
  return d;
}

/* Appends the encoding of @value for @field to @out. */
static gboolean
encode_field (const HBaseKeyField *field, const HBaseKeyValue *value, GByteArray *out,
              GError **error)
{
  guint start = out->len;
  gboolean negative;
  guint64 magnitude;

  switch (field->type)
    {
    case HBASE_KEY_FIELD_DECIMAL:
      {
        guint8 digits[20];

        if (!value_integer (value, &negative, &magnitude))
          return wrong_kind (field, value, error);
        if (negative)
          return _hbase_illegal (error, "decimal key field \"%s\" cannot hold the negative number -%"
                                 G_GUINT64_FORMAT, field->name, magnitude);
        if (field->width < 20 && magnitude >= powers_of_ten[field->width])
          return _hbase_illegal (error, "%" G_GUINT64_FORMAT " is wider than the %u digits of key field "
                                 "\"%s\"", magnitude, field->width, field->name);
        for (guint i = field->width; i > 0; i--)
          {
            digits[i - 1] = (guint8) ('0' + magnitude % 10);
            magnitude /= 10;
          }
        g_byte_array_append (out, digits, field->width);
        break;
      }
    case HBASE_KEY_FIELD_STRING:
      {
        const guint8 *data;
        gsize size;

        if (value->kind != HBASE_KEY_VALUE_BYTES)
          return wrong_kind (field, value, error);
        data = value->v.b.data;
        size = value->v.b.size;
        if (size > field->width)
          return _hbase_illegal (error, "a value of %" G_GSIZE_FORMAT " bytes is wider than the %u bytes "
                                 "of key field \"%s\"", size, field->width, field->name);
        if (size > 0 && data == NULL)
          return _hbase_illegal (error, "the value of key field \"%s\" has no data", field->name);
        for (gsize i = 0; i < size; i++)
          if (data[i] < field->pad)
            return _hbase_illegal (error, "key field \"%s\" cannot hold the byte 0x%02x (at %" G_GSIZE_FORMAT
                                   "): it is below the field's pad byte 0x%02x", field->name, data[i], i,
                                   field->pad);
        if (size > 0 && data[size - 1] == field->pad)
          return _hbase_illegal (error, "a value of key field \"%s\" cannot end with its pad byte 0x%02x",
                                 field->name, field->pad);
        if (size > 0)
          g_byte_array_append (out, data, (guint) size);
        for (gsize i = size; i < field->width; i++)
          g_byte_array_append (out, &field->pad, 1);
        break;
      }
    case HBASE_KEY_FIELD_UINT:
    case HBASE_KEY_FIELD_INT:
      {
        guint8 bytes[8];
        guint bits = field->width * 8;
        guint64 encoded;

        if (!value_integer (value, &negative, &magnitude))
          return wrong_kind (field, value, error);
        if (field->type == HBASE_KEY_FIELD_UINT)
          {
            if (negative)
              return _hbase_illegal (error, "uint key field \"%s\" cannot hold the negative number -%"
                                     G_GUINT64_FORMAT, field->name, magnitude);
            if (bits < 64 && magnitude >> bits != 0)
              return _hbase_illegal (error, "%" G_GUINT64_FORMAT " does not fit the %u bytes of key field "
                                     "\"%s\"", magnitude, field->width, field->name);
            encoded = magnitude;
          }
        else
          {
            guint64 limit = G_GUINT64_CONSTANT (1) << (bits - 1);   /* |min| */

            if ((!negative && magnitude >= limit) || (negative && magnitude > limit))
              return _hbase_illegal (error, "%s%" G_GUINT64_FORMAT " does not fit the %u bytes of key "
                                     "field \"%s\"", negative ? "-" : "", magnitude, field->width,
                                     field->name);
            /* two's complement in @bits bits, sign bit flipped */
            encoded = negative ? limit - magnitude : limit + magnitude;
          }
        put_be (bytes, encoded, field->width);
        g_byte_array_append (out, bytes, field->width);
        break;
      }
    case HBASE_KEY_FIELD_DOUBLE:
      {
        guint8 bytes[8];

        if (value->kind != HBASE_KEY_VALUE_DOUBLE)
          return wrong_kind (field, value, error);
        put_be (bytes, double_bits (value->v.d), 8);
        g_byte_array_append (out, bytes, 8);
        break;
      }
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
      {
        guint8 bytes[8];

        if (!value_integer (value, &negative, &magnitude))
          return wrong_kind (field, value, error);
        if (negative || magnitude > (guint64) G_MAXINT64)
          return _hbase_illegal (error, "reverse timestamp key field \"%s\" needs 0 to %" G_GINT64_FORMAT
                                 ", not %s%" G_GUINT64_FORMAT, field->name, G_MAXINT64,
                                 negative ? "-" : "", magnitude);
        put_be (bytes, (guint64) G_MAXINT64 - magnitude, 8);
        g_byte_array_append (out, bytes, 8);
        break;
      }
    case HBASE_KEY_FIELD_BYTES:
      {
        const guint8 *data;
        gsize size, run = 0;
        static const guint8 escaped_zero[2] = { 0x00, ESCAPE_BYTE };
        static const guint8 terminator[2] = { 0x00, TERMINATOR_BYTE };

        if (value->kind != HBASE_KEY_VALUE_BYTES)
          return wrong_kind (field, value, error);
        data = value->v.b.data;
        size = value->v.b.size;
        if (size > 0 && data == NULL)
          return _hbase_illegal (error, "the value of key field \"%s\" has no data", field->name);
        if (size > G_MAXUINT / 4)
          return _hbase_illegal (error, "the value of key field \"%s\" is too long", field->name);
        for (gsize i = 0; i < size; i++)
          if (data[i] == 0)
            {
              if (i > run)
                g_byte_array_append (out, data + run, (guint) (i - run));
              g_byte_array_append (out, escaped_zero, 2);
              run = i + 1;
            }
        if (size > run)
          g_byte_array_append (out, data + run, (guint) (size - run));
        g_byte_array_append (out, terminator, 2);
        break;
      }
    default:
      g_assert_not_reached ();
    }
  if (field->descending)
    for (guint i = start; i < out->len; i++)
      out->data[i] = (guint8) ~out->data[i];
  return TRUE;
}

/* --- decoding one field -------------------------------------------------- */

/* Decodes one field at *@pos of @data (length @len) into @value; the bytes
 * of string and bytes fields are appended to @storage and @value->v.b.data
 * holds their offset there (GUINT_TO_POINTER), fixed up by the caller once
 * @storage stops growing.  Advances *@pos. */
static gboolean
decode_field (const HBaseKeyField *field, const guint8 *data, gsize len, gsize *pos,
              HBaseKeyValue *value, GByteArray *storage, GError **error)
{
  guint8 mask = field->descending ? 0xff : 0x00;
  gsize at = *pos;
  gsize width = field->width;

  if (field->type != HBASE_KEY_FIELD_BYTES && len - at < width)
    return bad_data (error, "the key ends inside field \"%s\" (%" G_GSIZE_FORMAT " of its %"
                     G_GSIZE_FORMAT " bytes)", field->name, len - at, width);
  switch (field->type)
    {
    case HBASE_KEY_FIELD_DECIMAL:
      {
        guint64 number = 0;

        for (gsize i = 0; i < width; i++)
          {
            guint8 c = data[at + i] ^ mask;

            if (c < '0' || c > '9')
              return bad_data (error, "field \"%s\" of the key holds the byte 0x%02x, not a digit",
                               field->name, c);
            if (number > (G_MAXUINT64 - (guint) (c - '0')) / 10)
              return bad_data (error, "field \"%s\" of the key does not fit 64 bits", field->name);
            number = number * 10 + (guint) (c - '0');
          }
        *value = HBASE_KEY_UINT (number);
        break;
      }
    case HBASE_KEY_FIELD_STRING:
      {
        gsize size = width;
        guint start = storage->len;

        while (size > 0 && (data[at + size - 1] ^ mask) == field->pad)
          size--;
        for (gsize i = 0; i < width; i++)
          {
            guint8 c = data[at + i] ^ mask;

            if (c < field->pad)
              return bad_data (error, "field \"%s\" of the key holds the byte 0x%02x, below its "
                               "pad byte", field->name, c);
          }
        g_byte_array_append (storage, data + at, (guint) size);
        if (mask != 0)
          for (guint i = start; i < storage->len; i++)
            storage->data[i] ^= mask;
        *value = HBASE_KEY_BYTES (GUINT_TO_POINTER (start), size);
        break;
      }
    case HBASE_KEY_FIELD_UINT:
    case HBASE_KEY_FIELD_INT:
      {
        guint8 bytes[8];
        guint64 raw;

        for (gsize i = 0; i < width; i++)
          bytes[i] = data[at + i] ^ mask;
        raw = get_be (bytes, (guint) width);
        if (field->type == HBASE_KEY_FIELD_UINT)
          *value = HBASE_KEY_UINT (raw);
        else
          {
            guint64 limit = G_GUINT64_CONSTANT (1) << (width * 8 - 1);

            *value = HBASE_KEY_INT (raw >= limit ? (gint64) (raw - limit)
                                                 : -(gint64) (limit - raw - 1) - 1);
          }
        break;
      }
    case HBASE_KEY_FIELD_DOUBLE:
      {
        guint8 bytes[8];

        guint64 raw;

        for (gsize i = 0; i < 8; i++)
          bytes[i] = data[at + i] ^ mask;
        raw = get_be (bytes, 8);
        /* the encoder writes one NaN: any other is not a key of the schema
         * (and would decode to a value that encodes to other bytes) */
        if (isnan (bits_double (raw)) && raw != double_bits (NAN))
          return bad_data (error, "field \"%s\" of the key holds a NaN other than the one "
                           "hbase-glib writes", field->name);
        *value = HBASE_KEY_DOUBLE (bits_double (raw));
        break;
      }
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
      {
        guint8 bytes[8];
        guint64 raw;

        for (gsize i = 0; i < 8; i++)
          bytes[i] = data[at + i] ^ mask;
        raw = get_be (bytes, 8);
        if (raw > (guint64) G_MAXINT64)
          return bad_data (error, "field \"%s\" of the key is not a reverse timestamp",
                           field->name);
        *value = HBASE_KEY_INT (G_MAXINT64 - (gint64) raw);
        break;
      }
    case HBASE_KEY_FIELD_BYTES:
      {
        gsize i = at, run = at;
        guint start = storage->len;

        for (;;)
          {
            guint8 next;

            if (i >= len)
              return bad_data (error, "field \"%s\" of the key has no terminator", field->name);
            if ((data[i] ^ mask) != 0)
              {
                i++;
                continue;
              }
            if (i + 1 >= len)
              return bad_data (error, "field \"%s\" of the key ends inside an escape",
                               field->name);
            next = data[i + 1] ^ mask;
            if (next != ESCAPE_BYTE && next != TERMINATOR_BYTE)
              return bad_data (error, "field \"%s\" of the key has the bad escape 00 %02x",
                               field->name, next);
            /* the run before the 0x00, and the 0x00 itself when escaped */
            g_byte_array_append (storage, data + run, (guint) (i - run + (next == ESCAPE_BYTE)));
            run = i + 2;
            i += 2;
            if (next == TERMINATOR_BYTE)
              break;
          }
        if (mask != 0)
          for (guint j = start; j < storage->len; j++)
            storage->data[j] ^= mask;
        *value = HBASE_KEY_BYTES (GUINT_TO_POINTER (start), storage->len - start);
        *pos = i;
        return TRUE;
      }
    default:
      g_assert_not_reached ();
    }
  *pos = at + width;
  return TRUE;
}

/* --- whole keys ---------------------------------------------------------- */

/* Appends the unsalted encoding of the first @n_values fields; @offsets
 * (n_values + 1 entries, may be NULL) receives where each field starts. */
static gboolean
encode_fields (HBaseKeySchema *schema, const HBaseKeyValue *values, guint n_values,
               GByteArray *out, guint *offsets, GError **error)
{
  if (n_values > schema->n_fields)
    return _hbase_illegal (error, "%u values for a key of %u fields", n_values, schema->n_fields);
  if (n_values > 0 && values == NULL)
    return _hbase_illegal (error, "no values for the key");
  for (guint i = 0; i < n_values; i++)
    {
      if (offsets != NULL)
        offsets[i] = out->len;
      if (!encode_field (&schema->fields[i].field, &values[i], out, error))
        return FALSE;
    }
  if (offsets != NULL)
    offsets[n_values] = out->len;
  return TRUE;
}

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
 * @offsets as from encode_fields, every hashed field present). */
static guint
hash_bucket (HBaseKeySchema *schema, const guint8 *key, const guint *offsets, guint n)
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

static guint
buckets_per_period (HBaseKeySchema *schema)
{
  return schema->period_field >= 0 ? schema->n_buckets / schema->n_periods : schema->n_buckets;
}

static gboolean
period_of (HBaseKeySchema *schema, const HBaseKeyValue *value, guint *period, GError **error)
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
static gboolean
bucket_of (HBaseKeySchema *schema, const HBaseKeyValue *values, guint n_values,
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
  if (schema->period_field >= 0 && !period_of (schema, &values[schema->period_field], &period,
                                               error))
    return FALSE;
  *bucket = period * buckets_per_period (schema) +
            hash_bucket (schema, key, offsets, buckets_per_period (schema));
  return TRUE;
}

/**
 * hbase_key_schema_encode_into:
 * @schema: a schema
 * @out: where the key is appended
 * @values: (array length=n_values): a value for every field, in key order
 * @n_values: the number of fields
 * @error: return location for an error
 *
 * Appends the row key of @values to @out: the bucket byte of a salted
 * schema, then every field encoded.  On failure @out is left as it was.
 *
 * Returns: %TRUE, or %FALSE with %HBASE_ERROR_ILLEGAL_ARGUMENT
 */
gboolean
hbase_key_schema_encode_into (HBaseKeySchema      *schema,
                              GByteArray          *out,
                              const HBaseKeyValue *values,
                              guint                n_values,
                              GError             **error)
{
  guint start;
  guint stack_offsets[17];
  g_autofree guint *heap_offsets = NULL;
  guint *offsets = stack_offsets;

  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  if (n_values != schema->n_fields)
    return _hbase_illegal (error, "a key needs %u values, not %u (use hbase_key_schema_encode_prefix() "
                           "for a leading part)", schema->n_fields, n_values);
  start = out->len;
  if (schema->n_buckets > 0)
    {
      guint8 zero = 0;

      g_byte_array_append (out, &zero, 1);
      if (n_values + 1 > G_N_ELEMENTS (stack_offsets))
        offsets = heap_offsets = g_new (guint, n_values + 1);
    }
  else
    offsets = NULL;
  if (!encode_fields (schema, values, n_values, out, offsets, error))
    {
      g_byte_array_set_size (out, start);
      return FALSE;
    }
  if (schema->n_buckets > 0)
    {
      guint bucket;

      if (!bucket_of (schema, values, n_values, out->data, offsets, &bucket, error))
        {
          g_byte_array_set_size (out, start);
          return FALSE;
        }
      out->data[start] = (guint8) bucket;
    }
  return TRUE;
}

/**
 * hbase_key_schema_encode:
 * @schema: a schema
 * @values: (array length=n_values): a value for every field, in key order
 * @n_values: the number of fields of @schema
 * @error: return location for an error
 *
 * The row key of @values: the bucket byte of a salted schema, then every
 * field encoded.
 *
 * Returns: (transfer full) (nullable): the key, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT (wrong number or kind of values, a value
 *   too wide for its field or holding a byte the field cannot hold)
 */
GBytes *
hbase_key_schema_encode (HBaseKeySchema      *schema,
                         const HBaseKeyValue *values,
                         guint                n_values,
                         GError             **error)
{
  GByteArray *out = g_byte_array_sized_new (32);

  if (!hbase_key_schema_encode_into (schema, out, values, n_values, error))
    {
      g_byte_array_unref (out);
      return NULL;
    }
  return g_byte_array_free_to_bytes (out);
}

/**
 * hbase_key_schema_encode_prefix:
 * @schema: a schema
 * @values: (array length=n_values) (nullable): values of the leading fields
 * @n_values: how many leading fields, 0 to all
 * @error: return location for an error
 *
 * The encoded leading fields of a key, without any bucket byte: in an
 * unsalted table, the prefix of every row whose leading fields equal
 * @values; in a salted one, that prefix after each bucket byte.
 *
 * Returns: (transfer full) (nullable): the bytes, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT
 */
GBytes *
hbase_key_schema_encode_prefix (HBaseKeySchema      *schema,
                                const HBaseKeyValue *values,
                                guint                n_values,
                                GError             **error)
{
  GByteArray *out;

  g_return_val_if_fail (schema != NULL, NULL);
  out = g_byte_array_sized_new (32);
  if (!encode_fields (schema, values, n_values, out, NULL, error))
    {
      g_byte_array_unref (out);
      return NULL;
    }
  return g_byte_array_free_to_bytes (out);
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
  if (!encode_fields (schema, values, n_values, out, offsets, error))
    return FALSE;
  return bucket_of (schema, values, n_values, out->data, offsets, bucket, error);
}

/* A GVariant child as a key value; FALSE for types that are none. */
static gboolean
value_from_variant (GVariant *child, HBaseKeyValue *value)
{
  const GVariantType *type = g_variant_get_type (child);

  if (g_variant_type_equal (type, G_VARIANT_TYPE_UINT64))
    *value = HBASE_KEY_UINT (g_variant_get_uint64 (child));
  else if (g_variant_type_equal (type, G_VARIANT_TYPE_UINT32))
    *value = HBASE_KEY_UINT (g_variant_get_uint32 (child));
  else if (g_variant_type_equal (type, G_VARIANT_TYPE_UINT16))
    *value = HBASE_KEY_UINT (g_variant_get_uint16 (child));
  else if (g_variant_type_equal (type, G_VARIANT_TYPE_BYTE))
    *value = HBASE_KEY_UINT (g_variant_get_byte (child));
  else if (g_variant_type_equal (type, G_VARIANT_TYPE_INT64))
    *value = HBASE_KEY_INT (g_variant_get_int64 (child));
  else if (g_variant_type_equal (type, G_VARIANT_TYPE_INT32))
    *value = HBASE_KEY_INT (g_variant_get_int32 (child));
  else if (g_variant_type_equal (type, G_VARIANT_TYPE_INT16))
    *value = HBASE_KEY_INT (g_variant_get_int16 (child));
  else if (g_variant_type_equal (type, G_VARIANT_TYPE_DOUBLE))
    *value = HBASE_KEY_DOUBLE (g_variant_get_double (child));
  else if (g_variant_type_equal (type, G_VARIANT_TYPE_STRING))
    {
      gsize size;
      const char *text = g_variant_get_string (child, &size);

      *value = HBASE_KEY_BYTES (text, size);
    }
  else if (g_variant_type_equal (type, G_VARIANT_TYPE_BYTESTRING))
    {
      gsize size;
      gconstpointer data = g_variant_get_fixed_array (child, &size, 1);

      *value = HBASE_KEY_BYTES (data, size);
    }
  else
    return FALSE;
  return TRUE;
}

/**
 * hbase_key_schema_encode_variant:
 * @schema: a schema
 * @tuple: a tuple with one child per field: integers ("t", "x", "u", "i",
 *   "q", "n", "y"), doubles ("d"), bytes ("ay") or strings ("s"); as
 *   hbase_key_schema_decode() returns
 * @error: return location for an error
 *
 * hbase_key_schema_encode() from a #GVariant tuple.
 *
 * Returns: (transfer full) (nullable): the key, or %NULL with
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT
 */
GBytes *
hbase_key_schema_encode_variant (HBaseKeySchema *schema, GVariant *tuple, GError **error)
{
  g_autofree HBaseKeyValue *values = NULL;
  gsize n;

  g_return_val_if_fail (schema != NULL, NULL);
  if (tuple == NULL || !g_variant_is_of_type (tuple, G_VARIANT_TYPE_TUPLE))
    {
      _hbase_illegal (error, "a key is encoded from a tuple");
      return NULL;
    }
  n = g_variant_n_children (tuple);
  values = g_new0 (HBaseKeyValue, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      g_autoptr(GVariant) child = g_variant_get_child_value (tuple, i);

      /* the tuple owns the data the values borrow */
      if (!value_from_variant (child, &values[i]))
        {
          _hbase_illegal (error, "element %" G_GSIZE_FORMAT " of the key tuple has the type \"%s\", which "
                          "no key field takes", i, g_variant_get_type_string (child));
          return NULL;
        }
    }
  return hbase_key_schema_encode (schema, values, (guint) n, error);
}

/* Decodes @row into @values (n_fields of them) and @storage; @offsets
 * (n_fields + 1, may be NULL) receives where each field starts in @row. */
static gboolean
decode_key (HBaseKeySchema *schema, GBytes *row, HBaseKeyValue *values, GByteArray *storage,
            guint *offsets, GError **error)
{
  const guint8 *data;
  gsize len, pos = 0;

  if (row == NULL)
    return _hbase_illegal (error, "no key to decode");
  data = g_bytes_get_data (row, &len);
  if (schema->n_buckets > 0)
    {
      if (len < 1)
        return bad_data (error, "an empty key has no bucket byte");
      if (data[0] >= schema->n_buckets)
        return bad_data (error, "the key's bucket byte %u is not one of the %u buckets", data[0],
                         schema->n_buckets);
      pos = 1;
    }
  g_byte_array_set_size (storage, 0);
  for (guint i = 0; i < schema->n_fields; i++)
    {
      if (offsets != NULL)
        offsets[i] = (guint) pos;
      if (!decode_field (&schema->fields[i].field, data, len, &pos, &values[i], storage, error))
        return FALSE;
    }
  if (offsets != NULL)
    offsets[schema->n_fields] = (guint) pos;
  if (pos != len)
    return bad_data (error, "the key has %" G_GSIZE_FORMAT " bytes after its last field", len - pos);
  /* @storage is complete: turn offsets into pointers */
  for (guint i = 0; i < schema->n_fields; i++)
    if (values[i].kind == HBASE_KEY_VALUE_BYTES)
      values[i].v.b.data = values[i].v.b.size > 0
                           ? storage->data + GPOINTER_TO_UINT (values[i].v.b.data)
                           : (gconstpointer) "";   /* never NULL */
  if (schema->n_buckets > 0)
    {
      g_autoptr(GError) local = NULL;
      guint bucket = 0;

      if (!bucket_of (schema, values, schema->n_fields, data, offsets, &bucket, &local) ||
          bucket != data[0])
        return bad_data (error, "the key's bucket byte %u is not the bucket of its fields%s%s",
                         data[0], local != NULL ? ": " : "", local != NULL ? local->message : "");
    }
  return TRUE;
}

/**
 * hbase_key_schema_decode_values:
 * @schema: a schema
 * @row: a row key of @schema
 * @values: (out caller-allocates) (array length=n_values): receives one
 *   value per field: decimal and uint fields as %HBASE_KEY_VALUE_UINT, int
 *   and reverse timestamp fields as %HBASE_KEY_VALUE_INT, doubles as
 *   %HBASE_KEY_VALUE_DOUBLE, string and bytes fields (without pad or
 *   escapes) as %HBASE_KEY_VALUE_BYTES
 * @n_values: the number of fields of @schema
 * @storage: emptied, then receives the bytes of string and bytes fields;
 *   the values point into it until it is changed or freed
 * @error: return location for an error
 *
 * The values of a key without allocating (once @storage has grown): the
 * fast form of hbase_key_schema_decode().
 *
 * Returns: %TRUE, or %FALSE with %HBASE_ERROR_BAD_DATA when @row is not a
 *   key of @schema (for a salted schema: also when its bucket byte is not
 *   the bucket of its fields)
 */
gboolean
hbase_key_schema_decode_values (HBaseKeySchema *schema,
                                GBytes         *row,
                                HBaseKeyValue  *values,
                                guint           n_values,
                                GByteArray     *storage,
                                GError        **error)
{
  guint stack_offsets[17];
  g_autofree guint *heap_offsets = NULL;
  guint *offsets = stack_offsets;

  g_return_val_if_fail (schema != NULL, FALSE);
  g_return_val_if_fail (storage != NULL, FALSE);
  if (values == NULL || n_values != schema->n_fields)
    return _hbase_illegal (error, "a key of %u fields decodes into %u values", schema->n_fields,
                           values == NULL ? 0 : n_values);
  if (schema->n_fields + 1 > G_N_ELEMENTS (stack_offsets))
    offsets = heap_offsets = g_new (guint, schema->n_fields + 1);
  return decode_key (schema, row, values, storage, offsets, error);
}

/**
 * hbase_key_schema_decode:
 * @schema: a schema
 * @row: a row key of @schema
 * @error: return location for an error
 *
 * The values of a key.  For a salted schema the bucket byte is checked
 * against the values.  Field types map to: decimal and uint "t", int and
 * reverse timestamp "x", double "d", string and bytes "ay" (without pad or
 * escapes).
 *
 * Returns: (transfer full) (nullable): a tuple with one child per field,
 *   or %NULL with %HBASE_ERROR_BAD_DATA when @row is not such a key
 */
GVariant *
hbase_key_schema_decode (HBaseKeySchema *schema, GBytes *row, GError **error)
{
  g_autoptr(GByteArray) storage = g_byte_array_new ();
  g_autofree HBaseKeyValue *values = NULL;
  g_autofree GVariant **children = NULL;

  g_return_val_if_fail (schema != NULL, NULL);
  values = g_new (HBaseKeyValue, schema->n_fields);
  if (!hbase_key_schema_decode_values (schema, row, values, schema->n_fields, storage, error))
    return NULL;
  children = g_new (GVariant *, schema->n_fields);
  for (guint i = 0; i < schema->n_fields; i++)
    switch (schema->fields[i].field.type)
      {
      case HBASE_KEY_FIELD_DECIMAL:
      case HBASE_KEY_FIELD_UINT:
        children[i] = g_variant_new_uint64 (values[i].v.u);
        break;
      case HBASE_KEY_FIELD_INT:
      case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
        children[i] = g_variant_new_int64 (values[i].v.i);
        break;
      case HBASE_KEY_FIELD_DOUBLE:
        children[i] = g_variant_new_double (values[i].v.d);
        break;
      default:
        children[i] = g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, values[i].v.b.data,
                                                 values[i].v.b.size, 1);
        break;
      }
  return g_variant_ref_sink (g_variant_new_tuple (children, schema->n_fields));
}

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
  if (!encode_fields (schema, range->equal, range->n_equal, prefix, NULL, error))
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
      if (!encode_field (&schema->fields[range->n_equal].field, low, bound, error))
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
      if (!encode_field (&schema->fields[range->n_equal].field, high, bound, error))
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
 * @start_row: (out) (transfer full) (nullable): the first row to scan
 *   (inclusive), %NULL for the table's start
 * @stop_row: (out) (transfer full) (nullable): the row to stop at
 *   (exclusive), %NULL for the table's end
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
static gboolean
month_index (const HBaseKeyField *field, const HBaseKeyValue *value, gint64 *index)
{
  gboolean negative;
  guint64 magnitude;

  switch (field->type)
    {
    case HBASE_KEY_FIELD_DECIMAL:
      {
        guint64 yyyymm;
        guint month;

        if (field->width < 6 || !value_integer (value, &negative, &magnitude) || negative)
          return FALSE;
        yyyymm = magnitude / powers_of_ten[field->width - 6];
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

        if (!value_integer (value, &negative, &magnitude) || magnitude > (guint64) G_MAXINT64)
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
 */
guint
hbase_key_period_month (const HBaseKeyField *field, const HBaseKeyValue *value,
                        gpointer user_data)
{
  gint64 index;

  if (field == NULL || value == NULL || !month_index (field, value, &index))
    return G_MAXUINT;
  return (guint) (((index % 12) + 12) % 12);
}

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

      if (!period_of (schema, &range->equal[field], &period, error))
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

      if (month_index (f, range->lower, &low) && month_index (f, range->upper, &high) &&
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
  guint per = buckets_per_period (schema);
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

      if (!encode_fields (schema, range->equal, range->n_equal, out, offsets, error))
        {
          g_array_unref (buckets);
          return NULL;
        }
      hashed = hash_bucket (schema, out->data, offsets, per);
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
 * hbase_admin_create_table().
 *
 * Returns: (transfer full) (element-type GBytes): the split keys (empty
 *   for an unsalted schema)
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
