/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-key-schema.c: HBaseKeySchema itself: its fields and salt options,
 * checked and built (hbase_key_schema_new()), and what a schema tells about
 * itself (fields, buckets).
 *
 * A key's bytes are made in hbase-key-field-codec.c (one field) and
 * hbase-key-codec.c (whole keys); the salt's bucket byte in hbase-key-salt.c;
 * scan ranges, the buckets of a range and split keys in hbase-key-range.c. */
#include "config.h"

#include <string.h>

#include "../core/hbase-error-private.h"
#include "hbase-rowkey-private.h"

G_DEFINE_BOXED_TYPE (HBaseKeySchema, hbase_key_schema, hbase_key_schema_ref,
                     hbase_key_schema_unref)

const char *
_hbase_key_field_type_name (HBaseKeyFieldType type)
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
                               _hbase_key_field_type_name (field->type), field->name, field->width);
      break;
    case HBASE_KEY_FIELD_DOUBLE:
    case HBASE_KEY_FIELD_REVERSE_TIMESTAMP:
    case HBASE_KEY_FIELD_BYTES:
      if (field->width != 0 && !(field->width == 8 && field->type != HBASE_KEY_FIELD_BYTES))
        return _hbase_illegal (error, "%s key field \"%s\" has a fixed width; leave width 0",
                               _hbase_key_field_type_name (field->type), field->name);
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
 *
 * Since: 0.1
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
 * Takes a reference on @schema; release it with hbase_key_schema_unref().
 *
 * Returns: (transfer full): @schema
 *
 * Since: 0.1
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
 *
 * Drops a reference; the last one frees the schema.  Does nothing for %NULL.
 *
 * Since: 0.1
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
 * Gets how many fields a key of @schema has.
 *
 * Returns: how many fields a key has
 *
 * Since: 0.1
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
 * Gets one field of @schema, in key order.  The field belongs to @schema.
 *
 * Returns: (transfer none) (nullable): the field (its width filled in for
 *   doubles and reverse timestamps), or %NULL when @index is out of range
 *
 * Since: 0.1
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
 * Looks up a field of @schema by name.
 *
 * Returns: the index of the field named @name, or -1
 *
 * Since: 0.1
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
 * Gets how many salt buckets the keys of @schema are spread over.
 *
 * Returns: the salt buckets, 0 when keys are not salted
 *
 * Since: 0.1
 */
guint
hbase_key_schema_get_n_buckets (HBaseKeySchema *schema)
{
  g_return_val_if_fail (schema != NULL, 0);
  return schema->n_buckets;
}
