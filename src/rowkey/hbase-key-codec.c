/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-codec.c: whole row keys of a schema and back: the encoded
 * fields after the salt's bucket byte (hbase_key_schema_encode() and its
 * prefix, GVariant and in-place forms), and a key's values
 * (hbase_key_schema_decode(), hbase_key_schema_decode_values()) with the
 * bucket byte checked against them.
 *
 * Nothing is ever truncated or coerced: a value too wide for its field, a
 * byte a field cannot hold, an integer of the wrong sign is an
 * HBASE_ERROR_ILLEGAL_ARGUMENT naming the field.  A key that does not parse
 * is HBASE_ERROR_BAD_DATA. */
#include "config.h"

#include "../core/hbase-error-private.h"
#include "hbase-rowkey-private.h"

/* --- whole keys ---------------------------------------------------------- */

/* Appends the unsalted encoding of the first @n_values fields; @offsets
 * (n_values + 1 entries, may be NULL) receives where each field starts. */
gboolean
_hbase_key_schema_encode_fields (HBaseKeySchema *schema, const HBaseKeyValue *values, guint n_values,
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
      if (!_hbase_key_field_encode (&schema->fields[i].field, &values[i], out, error))
        return FALSE;
    }
  if (offsets != NULL)
    offsets[n_values] = out->len;
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
 *
 * Since: 0.1
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
  if (!_hbase_key_schema_encode_fields (schema, values, n_values, out, offsets, error))
    {
      g_byte_array_set_size (out, start);
      return FALSE;
    }
  if (schema->n_buckets > 0)
    {
      guint bucket;

      if (!_hbase_key_schema_bucket_of (schema, values, n_values, out->data, offsets, &bucket, error))
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
 *
 * Since: 0.1
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
 *
 * Since: 0.1
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
  if (!_hbase_key_schema_encode_fields (schema, values, n_values, out, NULL, error))
    {
      g_byte_array_unref (out);
      return NULL;
    }
  return g_byte_array_free_to_bytes (out);
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
 *
 * Since: 0.1
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
        return _hbase_key_bad_data (error, "an empty key has no bucket byte");
      if (data[0] >= schema->n_buckets)
        return _hbase_key_bad_data (error, "the key's bucket byte %u is not one of the %u buckets", data[0],
                                    schema->n_buckets);
      pos = 1;
    }
  g_byte_array_set_size (storage, 0);
  for (guint i = 0; i < schema->n_fields; i++)
    {
      if (offsets != NULL)
        offsets[i] = (guint) pos;
      if (!_hbase_key_field_decode (&schema->fields[i].field, data, len, &pos, &values[i], storage, error))
        return FALSE;
    }
  if (offsets != NULL)
    offsets[schema->n_fields] = (guint) pos;
  if (pos != len)
    return _hbase_key_bad_data (error, "the key has %" G_GSIZE_FORMAT " bytes after its last field", len - pos);
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

      if (!_hbase_key_schema_bucket_of (schema, values, schema->n_fields, data, offsets, &bucket, &local) ||
          bucket != data[0])
        return _hbase_key_bad_data (error, "the key's bucket byte %u is not the bucket of its fields%s%s",
                                    data[0], local != NULL ? ": " : "", local != NULL ? local->message : "");
    }
  return TRUE;
}

/**
 * hbase_key_schema_decode_values: (skip)
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
 * fast form of hbase_key_schema_decode(), which bindings use instead.
 *
 * Returns: %TRUE, or %FALSE with %HBASE_ERROR_BAD_DATA when @row is not a
 *   key of @schema (for a salted schema: also when its bucket byte is not
 *   the bucket of its fields)
 *
 * Since: 0.1
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
 *
 * Since: 0.1
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
