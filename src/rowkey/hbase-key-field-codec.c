/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-field-codec.c: the bytes of one key field and back: one
 * order-preserving encoder and one decoder per field type (see
 * HBaseKeyFieldType), and the helpers they share.
 *
 * Fixed-width encodings are trivially prefix-free; the variable-length
 * bytes field is made prefix-free by escaping 0x00 as 00 FF and ending with
 * 00 01, so the end of a field sorts below any continuation of it whatever
 * follows.  A descending field is the ones' complement of its ascending
 * encoding; complementing reverses the order of a prefix-free code. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "../core/hbase-error-private.h"
#include "hbase-rowkey-private.h"

#define ESCAPE_BYTE 0xff
#define TERMINATOR_BYTE 0x01

const guint64 _hbase_key_powers_of_ten[20] = {
  1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
  100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
  10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
  100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL,
};

gboolean
_hbase_key_bad_data (GError **error, const char *format, ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                                                format, args));
  va_end (args);
  return FALSE;
}

/* --- encoding one field -------------------------------------------------- */

/* The value as an integer: FALSE when it is not one. */
gboolean
_hbase_key_value_integer (const HBaseKeyValue *value, gboolean *negative, guint64 *magnitude)
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
                         _hbase_key_field_type_name (field->type), kind_name (value->kind));
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

static gboolean
encode_decimal (const HBaseKeyField *field, const HBaseKeyValue *value, GByteArray *out,
                GError **error)
{
  gboolean negative;
  guint64 magnitude;
  guint8 digits[20];

  if (!_hbase_key_value_integer (value, &negative, &magnitude))
    return wrong_kind (field, value, error);
  if (negative)
    return _hbase_illegal (error, "decimal key field \"%s\" cannot hold the negative number -%"
                           G_GUINT64_FORMAT, field->name, magnitude);
  if (field->width < 20 && magnitude >= _hbase_key_powers_of_ten[field->width])
    return _hbase_illegal (error, "%" G_GUINT64_FORMAT " is wider than the %u digits of key field "
                           "\"%s\"", magnitude, field->width, field->name);
  for (guint i = field->width; i > 0; i--)
    {
      digits[i - 1] = (guint8) ('0' + magnitude % 10);
      magnitude /= 10;
    }
  g_byte_array_append (out, digits, field->width);
  return TRUE;
}

static gboolean
encode_string (const HBaseKeyField *field, const HBaseKeyValue *value, GByteArray *out,
               GError **error)
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
  return TRUE;
}

/* A uint or an int field. */
static gboolean
encode_integer (const HBaseKeyField *field, const HBaseKeyValue *value, GByteArray *out,
                GError **error)
{
  gboolean negative;
  guint64 magnitude;
  guint8 bytes[8];
  guint bits = field->width * 8;
  guint64 encoded;

  if (!_hbase_key_value_integer (value, &negative, &magnitude))
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
  return TRUE;
}

static gboolean
encode_double (const HBaseKeyField *field, const HBaseKeyValue *value, GByteArray *out,
               GError **error)
{
  guint8 bytes[8];

  if (value->kind != HBASE_KEY_VALUE_DOUBLE)
    return wrong_kind (field, value, error);
  put_be (bytes, double_bits (value->v.d), 8);
  g_byte_array_append (out, bytes, 8);
  return TRUE;
}

static gboolean
encode_reverse_timestamp (const HBaseKeyField *field, const HBaseKeyValue *value, GByteArray *out,
                          GError **error)
{
  gboolean negative;
  guint64 magnitude;
  guint8 bytes[8];

  if (!_hbase_key_value_integer (value, &negative, &magnitude))
    return wrong_kind (field, value, error);
  if (negative || magnitude > (guint64) G_MAXINT64)
    return _hbase_illegal (error, "reverse timestamp key field \"%s\" needs 0 to %" G_GINT64_FORMAT
                           ", not %s%" G_GUINT64_FORMAT, field->name, G_MAXINT64,
                           negative ? "-" : "", magnitude);
  put_be (bytes, (guint64) G_MAXINT64 - magnitude, 8);
  g_byte_array_append (out, bytes, 8);
  return TRUE;
}

static gboolean
encode_bytes (const HBaseKeyField *field, const HBaseKeyValue *value, GByteArray *out,
              GError **error)
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
  return TRUE;
}

/* Appends the encoding of @value for @field to @out. */
gboolean
_hbase_key_field_encode (const HBaseKeyField *field, const HBaseKeyValue *value, GByteArray *out,
                         GError **error)
{
  guint start = out->len;
  gboolean ok = FALSE;

  switch (field->type)
    {
    case HBASE_KEY_FIELD_DECIMAL:
      ok = encode_decimal (field, value, out, error);
      break;
    case HBASE_KEY_FIELD_STRING:
      ok = encode_string (field, value, out, error);
      break;
    case HBASE_KEY_FIELD_UINT:
    case HBASE_KEY_FIELD_INT:
      ok = encode_integer (field, value, out, error);
      break;
    case HBASE_KEY_FIELD_DOUBLE:
      ok = encode_double (field, value, out, error);
      break;
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
      ok = encode_reverse_timestamp (field, value, out, error);
      break;
    case HBASE_KEY_FIELD_BYTES:
      ok = encode_bytes (field, value, out, error);
      break;
    default:
      g_assert_not_reached ();
    }
  if (!ok)
    return FALSE;
  if (field->descending)
    for (guint i = start; i < out->len; i++)
      out->data[i] = (guint8) ~out->data[i];
  return TRUE;
}

/* --- decoding one field -------------------------------------------------- */

static gboolean
decode_decimal (const HBaseKeyField *field, const guint8 *data, gsize at, guint8 mask,
                HBaseKeyValue *value, GError **error)
{
  gsize width = field->width;
  guint64 number = 0;

  for (gsize i = 0; i < width; i++)
    {
      guint8 c = data[at + i] ^ mask;

      if (c < '0' || c > '9')
        return _hbase_key_bad_data (error, "field \"%s\" of the key holds the byte 0x%02x, not a digit",
                                    field->name, c);
      if (number > (G_MAXUINT64 - (guint) (c - '0')) / 10)
        return _hbase_key_bad_data (error, "field \"%s\" of the key does not fit 64 bits", field->name);
      number = number * 10 + (guint) (c - '0');
    }
  *value = HBASE_KEY_UINT (number);
  return TRUE;
}

static gboolean
decode_string (const HBaseKeyField *field, const guint8 *data, gsize at, guint8 mask,
               HBaseKeyValue *value, GByteArray *storage, GError **error)
{
  gsize width = field->width;
  gsize size = width;
  guint start = storage->len;

  while (size > 0 && (data[at + size - 1] ^ mask) == field->pad)
    size--;
  for (gsize i = 0; i < width; i++)
    {
      guint8 c = data[at + i] ^ mask;

      if (c < field->pad)
        return _hbase_key_bad_data (error, "field \"%s\" of the key holds the byte 0x%02x, below its "
                                    "pad byte", field->name, c);
    }
  g_byte_array_append (storage, data + at, (guint) size);
  if (mask != 0)
    for (guint i = start; i < storage->len; i++)
      storage->data[i] ^= mask;
  *value = HBASE_KEY_BYTES (GUINT_TO_POINTER (start), size);
  return TRUE;
}

/* A uint or an int field. */
static void
decode_integer (const HBaseKeyField *field, const guint8 *data, gsize at, guint8 mask,
                HBaseKeyValue *value)
{
  gsize width = field->width;
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
}

static gboolean
decode_double (const HBaseKeyField *field, const guint8 *data, gsize at, guint8 mask,
               HBaseKeyValue *value, GError **error)
{
  guint8 bytes[8];

  guint64 raw;

  for (gsize i = 0; i < 8; i++)
    bytes[i] = data[at + i] ^ mask;
  raw = get_be (bytes, 8);
  /* the encoder writes one NaN: any other is not a key of the schema
   * (and would decode to a value that encodes to other bytes) */
  if (isnan (bits_double (raw)) && raw != double_bits (NAN))
    return _hbase_key_bad_data (error, "field \"%s\" of the key holds a NaN other than the one "
                                "hbase-glib writes", field->name);
  *value = HBASE_KEY_DOUBLE (bits_double (raw));
  return TRUE;
}

static gboolean
decode_reverse_timestamp (const HBaseKeyField *field, const guint8 *data, gsize at, guint8 mask,
                          HBaseKeyValue *value, GError **error)
{
  guint8 bytes[8];
  guint64 raw;

  for (gsize i = 0; i < 8; i++)
    bytes[i] = data[at + i] ^ mask;
  raw = get_be (bytes, 8);
  if (raw > (guint64) G_MAXINT64)
    return _hbase_key_bad_data (error, "field \"%s\" of the key is not a reverse timestamp",
                                field->name);
  *value = HBASE_KEY_INT (G_MAXINT64 - (gint64) raw);
  return TRUE;
}

/* The one variable-length field: runs to its terminator, *@pos past it. */
static gboolean
decode_bytes (const HBaseKeyField *field, const guint8 *data, gsize len, gsize *pos,
              guint8 mask, HBaseKeyValue *value, GByteArray *storage, GError **error)
{
  gsize at = *pos;
  gsize i = at, run = at;
  guint start = storage->len;

  for (;;)
    {
      guint8 next;

      if (i >= len)
        return _hbase_key_bad_data (error, "field \"%s\" of the key has no terminator", field->name);
      if ((data[i] ^ mask) != 0)
        {
          i++;
          continue;
        }
      if (i + 1 >= len)
        return _hbase_key_bad_data (error, "field \"%s\" of the key ends inside an escape",
                                    field->name);
      next = data[i + 1] ^ mask;
      if (next != ESCAPE_BYTE && next != TERMINATOR_BYTE)
        return _hbase_key_bad_data (error, "field \"%s\" of the key has the bad escape 00 %02x",
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

/* Decodes one field at *@pos of @data (length @len) into @value; the bytes
 * of string and bytes fields are appended to @storage and @value->v.b.data
 * holds their offset there (GUINT_TO_POINTER), fixed up by the caller once
 * @storage stops growing.  Advances *@pos. */
gboolean
_hbase_key_field_decode (const HBaseKeyField *field, const guint8 *data, gsize len, gsize *pos,
                         HBaseKeyValue *value, GByteArray *storage, GError **error)
{
  guint8 mask = field->descending ? 0xff : 0x00;
  gsize at = *pos;
  gsize width = field->width;

  if (field->type != HBASE_KEY_FIELD_BYTES && len - at < width)
    return _hbase_key_bad_data (error, "the key ends inside field \"%s\" (%" G_GSIZE_FORMAT " of its %"
                                G_GSIZE_FORMAT " bytes)", field->name, len - at, width);
  switch (field->type)
    {
    case HBASE_KEY_FIELD_DECIMAL:
      if (!decode_decimal (field, data, at, mask, value, error))
        return FALSE;
      break;
    case HBASE_KEY_FIELD_STRING:
      if (!decode_string (field, data, at, mask, value, storage, error))
        return FALSE;
      break;
    case HBASE_KEY_FIELD_UINT:
    case HBASE_KEY_FIELD_INT:
      decode_integer (field, data, at, mask, value);
      break;
    case HBASE_KEY_FIELD_DOUBLE:
      if (!decode_double (field, data, at, mask, value, error))
        return FALSE;
      break;
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
      if (!decode_reverse_timestamp (field, data, at, mask, value, error))
        return FALSE;
      break;
    case HBASE_KEY_FIELD_BYTES:
      return decode_bytes (field, data, len, pos, mask, value, storage, error);
    default:
      g_assert_not_reached ();
    }
  *pos = at + width;
  return TRUE;
}
