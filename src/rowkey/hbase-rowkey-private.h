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

G_END_DECLS

#endif /* HBASE_ROWKEY_PRIVATE_H */
