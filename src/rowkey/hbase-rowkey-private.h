/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-rowkey-private.h: what the key schema, filter and key scanner code
 * share. */
#ifndef HBASE_ROWKEY_PRIVATE_H
#define HBASE_ROWKEY_PRIVATE_H

#include <hbase-glib/hbase-error.h>
#include <hbase-glib/hbase-filter.h>
#include <hbase-glib/hbase-key-scanner.h>
#include <hbase-glib/hbase-key-schema.h>
#include <hbase-glib/hbase-scanner.h>
#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

typedef struct {
  HBaseKeyField field;     /* name owned by the schema */
  gboolean hashed;         /* part of the salt hash */
} SchemaField;

struct _HBaseKeySchema {
  gatomicrefcount ref_count;
  guint n_fields;
  SchemaField *fields;
  /* salting; n_buckets 0: not salted */
  guint n_buckets;
  HBaseSaltHash hash;
  gboolean hash_all;        /* every field hashed */
  gboolean hash_contiguous; /* the hashed fields are adjacent in the key */
  int period_field;         /* -1: none */
  guint n_periods;
  HBaseKeyPeriodFunc period_func;
  gpointer period_data;
};

/* One row range of a scan: [start, stop), NULL for the table's start/end. */
typedef struct {
  GBytes *start;
  GBytes *stop;
} _HBaseRowRange;

void       _hbase_row_range_clear        (_HBaseRowRange       *range);

/* The ranges to scan for @range: one per bucket that can hold it for a
 * salted schema (bucket byte included), else one.  Array of _HBaseRowRange,
 * cleared on free.  @lower_after, when set, narrows every range to unsalted
 * keys after it (a page token). */
GArray    *_hbase_key_schema_row_ranges  (HBaseKeySchema       *schema,
                                          const HBaseKeyRange  *range,
                                          GBytes               *lower_after,
                                          GError              **error);

/* The range of unsalted keys of @range (see hbase_key_schema_get_row_range). */
gboolean   _hbase_key_schema_unsalted_range (HBaseKeySchema    *schema,
                                          const HBaseKeyRange  *range,
                                          GBytes              **start,
                                          GBytes              **stop,
                                          GError              **error);

/* MurmurHash3 x86_32 and Phoenix's hash, for tests. */
guint32    _hbase_murmur3_32             (const guint8         *data,
                                          gsize                 len,
                                          guint32               seed);
guint      _hbase_phoenix_salt           (const guint8         *data,
                                          gsize                 len,
                                          guint                 n_buckets);

/* --- shared by the key schema files (schema, field codec, whole-key codec,
 * salt, range) --------------------------------------------------------------- */

/* "decimal", "string", ...: a field type as error messages name it. */
const char *_hbase_key_field_type_name   (HBaseKeyFieldType     type);

/* Sets @error to HBASE_ERROR_BAD_DATA with the message; returns FALSE. */
gboolean   _hbase_key_bad_data           (GError              **error,
                                          const char           *format,
                                          ...) G_GNUC_PRINTF (2, 3);

/* 10^0 to 10^19. */
extern const guint64 _hbase_key_powers_of_ten[20];

/* The value as an integer: FALSE when it is not one. */
gboolean   _hbase_key_value_integer      (const HBaseKeyValue  *value,
                                          gboolean             *negative,
                                          guint64              *magnitude);

/* Appends the encoding of @value for @field to @out. */
gboolean   _hbase_key_field_encode       (const HBaseKeyField  *field,
                                          const HBaseKeyValue  *value,
                                          GByteArray           *out,
                                          GError              **error);

/* Decodes one field at *@pos of @data (length @len) into @value; the bytes
 * of string and bytes fields are appended to @storage and @value->v.b.data
 * holds their offset there (GUINT_TO_POINTER), fixed up by the caller once
 * @storage stops growing.  Advances *@pos. */
gboolean   _hbase_key_field_decode       (const HBaseKeyField  *field,
                                          const guint8         *data,
                                          gsize                 len,
                                          gsize                *pos,
                                          HBaseKeyValue        *value,
                                          GByteArray           *storage,
                                          GError              **error);

/* Appends the unsalted encoding of the first @n_values fields; @offsets
 * (n_values + 1 entries, may be NULL) receives where each field starts. */
gboolean   _hbase_key_schema_encode_fields (HBaseKeySchema     *schema,
                                          const HBaseKeyValue  *values,
                                          guint                 n_values,
                                          GByteArray           *out,
                                          guint                *offsets,
                                          GError              **error);

/* The bucket among @n of the hashed fields of an encoded key (unsalted,
 * @offsets as from _hbase_key_schema_encode_fields(), every hashed field
 * present). */
guint      _hbase_key_schema_hash_bucket (HBaseKeySchema       *schema,
                                          const guint8         *key,
                                          const guint          *offsets,
                                          guint                 n);

/* The buckets of one period (all of them without periods). */
guint      _hbase_key_schema_buckets_per_period (HBaseKeySchema *schema);

/* The period of a value of the period field; FALSE with an error when it
 * has none. */
gboolean   _hbase_key_schema_period_of   (HBaseKeySchema       *schema,
                                          const HBaseKeyValue  *value,
                                          guint                *period,
                                          GError              **error);

/* The bucket of a key of which the first @n_values fields are given and
 * encoded (unsalted) in @key with @offsets.  FALSE with an error when a
 * hashed field or the period field is missing. */
gboolean   _hbase_key_schema_bucket_of   (HBaseKeySchema       *schema,
                                          const HBaseKeyValue  *values,
                                          guint                 n_values,
                                          const guint8         *key,
                                          const guint          *offsets,
                                          guint                *bucket,
                                          GError              **error);

/* The month of a value as year * 12 + (month - 1); FALSE when it has none. */
gboolean   _hbase_key_month_index        (const HBaseKeyField  *field,
                                          const HBaseKeyValue  *value,
                                          gint64               *index);

G_END_DECLS

#endif /* HBASE_ROWKEY_PRIVATE_H */
