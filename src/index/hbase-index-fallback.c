/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-fallback.c: a query answered by a scan of the table, when
 * the index may lack entries (dirty, not built) or Redis is down: string
 * conditions become server-side SingleColumnValueFilters, and every row
 * is checked by the client as well. */
#include "config.h"

#include "hbase-index-query-private.h"

static HBaseFilter *
node_filter (Node *node)
{
  switch (node->kind)
    {
    case NODE_AND:
    case NODE_OR:
      {
        g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_filter_unref);

        for (guint i = 0; i < node->children->len; i++)
          {
            HBaseFilter *part = node_filter (g_ptr_array_index (node->children, i));

            if (part != NULL)
              g_ptr_array_add (parts, part);
            else if (node->kind == NODE_OR)
              return NULL;    /* a branch the server cannot test: no filter */
          }
        if (parts->len == 0)
          return NULL;
        if (parts->len == 1)
          return hbase_filter_ref (g_ptr_array_index (parts, 0));
        return node->kind == NODE_AND
               ? hbase_filter_all ((HBaseFilter **) parts->pdata, parts->len)
               : hbase_filter_any ((HBaseFilter **) parts->pdata, parts->len);
      }
    case NODE_SETS:
    case NODE_RANGE:
    default:
      {
        const IndexColumn *column = node->column;
        g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_filter_unref);

        /* bytes compare as HBase compares them only for strings */
        if (column->type != HBASE_INDEX_VALUE_STRING || node->empty)
          return NULL;
        if (node->kind == NODE_SETS)
          {
            for (guint i = 0; i < node->values->len; i++)
              g_ptr_array_add (parts, hbase_filter_single_column_value (
                                 column->family, column->qualifier_bytes, HBASE_COMPARE_EQUAL,
                                 HBASE_COMPARATOR_BINARY,
                                 g_array_index (node->values, IndexValue, i).bytes, TRUE, TRUE));
            return parts->len == 1 ? hbase_filter_ref (g_ptr_array_index (parts, 0))
                                   : hbase_filter_any ((HBaseFilter **) parts->pdata, parts->len);
          }
        if (node->has_min)
          g_ptr_array_add (parts, hbase_filter_single_column_value (
                             column->family, column->qualifier_bytes,
                             node->min_inclusive ? HBASE_COMPARE_GREATER_OR_EQUAL
                                                 : HBASE_COMPARE_GREATER,
                             HBASE_COMPARATOR_BINARY, node->min.bytes, TRUE, TRUE));
        if (node->has_max)
          g_ptr_array_add (parts, hbase_filter_single_column_value (
                             column->family, column->qualifier_bytes,
                             node->max_inclusive ? HBASE_COMPARE_LESS_OR_EQUAL : HBASE_COMPARE_LESS,
                             HBASE_COMPARATOR_BINARY, node->max.bytes, TRUE, TRUE));
        if (parts->len == 0)
          return NULL;
        return parts->len == 1 ? hbase_filter_ref (g_ptr_array_index (parts, 0))
                               : hbase_filter_all ((HBaseFilter **) parts->pdata, parts->len);
      }
    }
}

/* The query answered by a scan of the table. */
HBaseIndexPage *
_hbase_index_find_by_scan (QueryCtx *ctx, Node *root, HBaseIndexQuery *query,
                           const HBaseIndexFindOptions *options, GBytes *after, gboolean count_only,
                           guint64 *count, GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseIndexPage) page = _hbase_index_page_new ();
  g_autoptr(HBaseFilter) filter = node_filter (root);
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GBytes) start = NULL;
  g_auto(GStrv) columns = _hbase_index_read_columns (ctx->core, options->columns);
  HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
  guint limit = count_only ? 0 : options->limit;
  HBaseRow *row;
  GError *local = NULL;

  /* a typed filter, which both backends run (rendered as bytes for the
   * gateway: a value of the query may hold 0x00); every row is checked
   * against the query again below, the filter only spares the transfer.
   * One it cannot express fails hbase_table_scan() below. */
  scan.reversed = options->reversed;
  scan.caching = 1000;
  scan.read.typed_filter = filter;
  scan.read.columns = (const char *const *) columns;
  if (after != NULL)
    {
      if (!options->reversed)
        {
          /* just after the token's row */
          GByteArray *next = g_byte_array_new ();
          const guint8 zero = 0;

          g_byte_array_append (next, g_bytes_get_data (after, NULL), (guint) g_bytes_get_size (after));
          g_byte_array_append (next, &zero, 1);
          start = g_byte_array_free_to_bytes (next);
        }
      else
        start = g_bytes_ref (after);
      scan.start_row = start;
    }
  scanner = hbase_table_scan (ctx->core->plain, &scan, error);
  if (scanner == NULL)
    return NULL;
  page->stats.scanned = TRUE;
  while (hbase_scanner_next (scanner, &row, cancellable, &local) && row != NULL)
    {
      g_autoptr(HBaseRow) owned = row;

      page->stats.fetched++;
      if (after != NULL && options->reversed && g_bytes_compare (hbase_row_get_key (row), after) >= 0)
        continue;
      if (!_hbase_index_node_matches_row (root, row))
        continue;
      if (count_only)
        {
          (*count)++;
          continue;
        }
      if (limit != 0 && page->rows->len == limit)
        {
          page->next_token = _hbase_index_token_new (query, options->reversed,
                                                     hbase_row_get_key (g_ptr_array_index (page->rows,
                                                                                           page->rows->len - 1)));
          break;
        }
      g_ptr_array_add (page->rows, g_steal_pointer (&owned));
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return NULL;
    }
  page->stats.candidates = page->stats.fetched;
  return g_steal_pointer (&page);
}
