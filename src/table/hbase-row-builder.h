/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-row-builder.h (private): building an HBaseRow piece by piece, as
 * the reply decoder (hbase-result-reader.c) reads it off the wire, and the
 * row internals the scanner needs.
 *
 * A row is one allocation: the HBaseRow, its cells and all its bytes
 * (key, families, qualifiers, values).  The builder gathers the bytes in
 * one growing buffer (the decoder reads them straight into it) and the
 * cells as offsets; _hbase_row_builder_finish() copies both into the
 * row's block.  A builder is reused for every row of a reply, so a scan
 * reply of 1000 rows costs 1000 row allocations and nothing else. */
#ifndef HBASE_ROW_BUILDER_H
#define HBASE_ROW_BUILDER_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

/* Inline capacity: a typical row (a short key, a few cells of small
 * values) never touches the heap while it is built. */
#define HBASE_ROW_BUILDER_INLINE_BYTES 512
#define HBASE_ROW_BUILDER_INLINE_CELLS 8

/* One cell: offsets and lengths into the builder's bytes. */
typedef struct {
  gsize family, family_len;
  gsize qualifier, qualifier_len;
  gsize value, value_len;
  gint64 timestamp;
} HBaseRowBuilderCell;

/* On the stack; fields are private to hbase-row.c. */
typedef struct {
  guint8 *data;
  gsize len, cap;
  HBaseRowBuilderCell *cells;
  guint n_cells, cells_cap;
  gboolean has_key;
  gsize key, key_len;
  guint8 inline_data[HBASE_ROW_BUILDER_INLINE_BYTES];
  HBaseRowBuilderCell inline_cells[HBASE_ROW_BUILDER_INLINE_CELLS];
} HBaseRowBuilder;

void       _hbase_row_builder_init     (HBaseRowBuilder           *builder);
/* Frees what the builder allocated (not the rows it made). */
void       _hbase_row_builder_clear    (HBaseRowBuilder           *builder);
/* Forgets the row being built, keeping the buffers. */
void       _hbase_row_builder_reset    (HBaseRowBuilder           *builder);

/* Room for @len more bytes at the end of the row's bytes: returns where to
 * write them (valid until the next reserve) and their @offset. */
guint8    *_hbase_row_builder_reserve  (HBaseRowBuilder           *builder,
                                        gsize                      len,
                                        gsize                     *offset);
/* Bytes at [@offset, @offset + @len) are the row key. */
void       _hbase_row_builder_set_key  (HBaseRowBuilder           *builder,
                                        gsize                      offset,
                                        gsize                      len);
/* Appends a cell: cells keep the order they are added in (the server's). */
void       _hbase_row_builder_add_cell (HBaseRowBuilder           *builder,
                                        const HBaseRowBuilderCell *cell);
/* The row (no key: an empty key), and the builder reset for the next. */
HBaseRow  *_hbase_row_builder_finish   (HBaseRowBuilder           *builder);

/* The key's bytes without making a GBytes (never NULL). */
const guint8 *_hbase_row_peek_key      (HBaseRow                  *row,
                                        gsize                     *len);
/* Whether the result the row was made of had a row key at all (a
 * TResult's row is optional; the key of a row without one is empty). */
gboolean   _hbase_row_has_key          (HBaseRow                  *row);

/* A new row: the key of @parts[0], the cells of every part in order
 * (the pieces of one row from a scan with a batch size); @n_parts > 0. */
HBaseRow  *_hbase_row_new_concat       (HBaseRow *const           *parts,
                                        guint                      n_parts);

G_END_DECLS

#endif /* HBASE_ROW_BUILDER_H */
