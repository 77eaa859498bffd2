/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-mutation.h: a put, delete, increment or append of one row, built
 * up before sending. */
#ifndef HBASE_MUTATION_H
#define HBASE_MUTATION_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * HBaseDurability:
 * @HBASE_DURABILITY_DEFAULT: the table's setting
 * @HBASE_DURABILITY_SKIP_WAL: do not write the write-ahead log
 * @HBASE_DURABILITY_ASYNC_WAL: write it asynchronously
 * @HBASE_DURABILITY_SYNC_WAL: write it synchronously
 * @HBASE_DURABILITY_FSYNC_WAL: write it and fsync it
 *
 * How a mutation is made durable (TDurability).
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_DURABILITY_DEFAULT,
  HBASE_DURABILITY_SKIP_WAL,
  HBASE_DURABILITY_ASYNC_WAL,
  HBASE_DURABILITY_SYNC_WAL,
  HBASE_DURABILITY_FSYNC_WAL,
} HBaseDurability;

/**
 * HBaseMutationKind:
 * @HBASE_MUTATION_PUT: cells to write
 * @HBASE_MUTATION_DELETE: cells, columns, families or the whole row to
 *   remove
 * @HBASE_MUTATION_INCREMENT: 64-bit counters to add to, sent with
 *   hbase_table_increment()
 * @HBASE_MUTATION_APPEND: bytes to append to cells, sent with
 *   hbase_table_append()
 *
 * What a mutation does.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_MUTATION_PUT,
  HBASE_MUTATION_DELETE,
  HBASE_MUTATION_INCREMENT,
  HBASE_MUTATION_APPEND,
} HBaseMutationKind;

/**
 * HBaseMutation:
 *
 * A put (cells to write), a delete (cells, columns, families or the whole
 * row to remove), an increment or an append of one row.  Builders never
 * fail: the operation that sends the mutation checks it whole and reports a
 * bad one (no row, empty row, no family, a builder of another kind, ...) as
 * %HBASE_ERROR_ILLEGAL_ARGUMENT before anything is sent.
 * Reference-counted.
 *
 * Since: 0.1
 */
typedef struct _HBaseMutation HBaseMutation;

#define HBASE_TYPE_MUTATION (hbase_mutation_get_type ())
GType          hbase_mutation_get_type            (void) G_GNUC_CONST;

HBaseMutation *hbase_mutation_new_put             (GBytes          *row);
HBaseMutation *hbase_mutation_new_delete          (GBytes          *row);
HBaseMutation *hbase_mutation_new_increment       (GBytes          *row);
HBaseMutation *hbase_mutation_new_append          (GBytes          *row);
HBaseMutation *hbase_mutation_ref                 (HBaseMutation   *mutation);
void           hbase_mutation_unref               (HBaseMutation   *mutation);

HBaseMutationKind hbase_mutation_get_kind         (HBaseMutation   *mutation);
gboolean       hbase_mutation_is_put              (HBaseMutation   *mutation);
GBytes        *hbase_mutation_get_row             (HBaseMutation   *mutation);

/* puts */
void           hbase_mutation_put                 (HBaseMutation   *mutation,
                                                   const char      *family,
                                                   const char      *qualifier,
                                                   GBytes          *value);
void           hbase_mutation_put_bytes           (HBaseMutation   *mutation,
                                                   GBytes          *family,
                                                   GBytes          *qualifier,
                                                   GBytes          *value,
                                                   gint64           timestamp);

/* deletes: with nothing added, the whole row */
void           hbase_mutation_delete_family       (HBaseMutation   *mutation,
                                                   const char      *family);
void           hbase_mutation_delete_column       (HBaseMutation   *mutation,
                                                   const char      *family,
                                                   const char      *qualifier);
void           hbase_mutation_delete_column_bytes (HBaseMutation   *mutation,
                                                   GBytes          *family,
                                                   GBytes          *qualifier);
void           hbase_mutation_delete_cell_version (HBaseMutation   *mutation,
                                                   const char      *family,
                                                   const char      *qualifier,
                                                   gint64           timestamp);

/* increments and appends */
void           hbase_mutation_increment           (HBaseMutation   *mutation,
                                                   const char      *family,
                                                   const char      *qualifier,
                                                   gint64           amount);
void           hbase_mutation_increment_bytes     (HBaseMutation   *mutation,
                                                   GBytes          *family,
                                                   GBytes          *qualifier,
                                                   gint64           amount);
void           hbase_mutation_append              (HBaseMutation   *mutation,
                                                   const char      *family,
                                                   const char      *qualifier,
                                                   GBytes          *value);
void           hbase_mutation_append_bytes        (HBaseMutation   *mutation,
                                                   GBytes          *family,
                                                   GBytes          *qualifier,
                                                   GBytes          *value);

/* all kinds (no timestamp for increments and appends) */
void           hbase_mutation_set_timestamp       (HBaseMutation   *mutation,
                                                   gint64           timestamp);
void           hbase_mutation_set_durability      (HBaseMutation   *mutation,
                                                   HBaseDurability  durability);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseMutation, hbase_mutation_unref)

/* string forms: row keys, "family:qualifier" columns and values as
 * NUL-terminated strings (binary data needs the GBytes forms above) */
HBaseMutation *hbase_mutation_new_put_string      (const char        *row);
HBaseMutation *hbase_mutation_new_delete_string   (const char        *row);
void           hbase_mutation_put_string          (HBaseMutation     *mutation,
                                                   const char        *column,
                                                   const char        *value);
void           hbase_mutation_put_strings         (HBaseMutation     *mutation,
                                                   const char *const *columns,
                                                   const char *const *values);
void           hbase_mutation_put_columns         (HBaseMutation     *mutation,
                                                   const char        *first_column,
                                                   ...) G_GNUC_NULL_TERMINATED;

G_END_DECLS

#endif /* HBASE_MUTATION_H */
