/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-page.c: a page of a query's answer (HBaseIndexPage) and the
 * page tokens that continue a query after a page. */
#include "config.h"

#include <string.h>

#include "hbase-index-query-private.h"

/* --- page tokens --------------------------------------------------------------------------------- */

static guint32
query_checksum (HBaseIndexQuery *query, gboolean reversed)
{
  g_autofree char *text = hbase_index_query_to_string (query);
  guint32 hash = 2166136261u;

  for (const char *p = text; *p != '\0'; p++)
    hash = (hash ^ (guint8) *p) * 16777619u;
  return hash ^ (reversed ? 0x5bd1e995u : 0);
}

char *
_hbase_index_token_new (HBaseIndexQuery *query, gboolean reversed, GBytes *last)
{
  g_autofree char *key = g_base64_encode (g_bytes_get_data (last, NULL), g_bytes_get_size (last));

  return g_strdup_printf ("%08x.%s", query_checksum (query, reversed), key);
}

GBytes *
_hbase_index_token_parse (HBaseIndexQuery *query, gboolean reversed, const char *token, GError **error)
{
  g_autofree char *expected = g_strdup_printf ("%08x.", query_checksum (query, reversed));
  guchar *data;
  gsize len = 0;

  if (!g_str_has_prefix (token, expected) || token[strlen (expected)] == '\0')
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_BAD_TOKEN,
                   "the page token was not made by this query");
      return NULL;
    }
  data = g_base64_decode (token + strlen (expected), &len);
  if (len == 0)
    {
      g_free (data);
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_BAD_TOKEN, "malformed page token");
      return NULL;
    }
  return g_bytes_new_take (data, len);
}

/* --- pages --------------------------------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseIndexPage, hbase_index_page, hbase_index_page_copy, hbase_index_page_free)

/**
 * hbase_index_page_copy:
 * @page: a page
 *
 * A copy of @page: the same rows (referenced), token and stats.
 *
 * Returns: (transfer full): the copy
 *
 * Since: 0.1
 */
HBaseIndexPage *
hbase_index_page_copy (const HBaseIndexPage *page)
{
  HBaseIndexPage *copy;

  g_return_val_if_fail (page != NULL, NULL);
  copy = _hbase_index_page_new ();
  for (guint i = 0; i < page->rows->len; i++)
    g_ptr_array_add (copy->rows, hbase_row_ref (g_ptr_array_index (page->rows, i)));
  copy->next_token = g_strdup (page->next_token);
  copy->stats = page->stats;
  return copy;
}

/**
 * hbase_index_page_get_rows:
 * @page: a page
 *
 * Gets the rows of @page.  The array belongs to @page.
 *
 * Returns: (transfer none) (element-type HBaseRow): its rows, in row key
 *   order
 *
 * Since: 0.1
 */
GPtrArray *
hbase_index_page_get_rows (HBaseIndexPage *page)
{
  g_return_val_if_fail (page != NULL, NULL);
  return page->rows;
}

/**
 * hbase_index_page_get_next_token:
 * @page: a page
 *
 * Gets the token that asks hbase_index_find() for the page after @page.  The
 * string belongs to @page.
 *
 * Returns: (nullable): the token of the next page, %NULL after the last
 *
 * Since: 0.1
 */
const char *
hbase_index_page_get_next_token (HBaseIndexPage *page)
{
  g_return_val_if_fail (page != NULL, NULL);
  return page->next_token;
}

/**
 * hbase_index_page_get_stats:
 * @page: a page
 *
 * Gets what answering the query of @page took.  The stats belong to @page.
 *
 * Returns: (transfer none): what answering took
 *
 * Since: 0.1
 */
const HBaseIndexQueryStats *
hbase_index_page_get_stats (HBaseIndexPage *page)
{
  g_return_val_if_fail (page != NULL, NULL);
  return &page->stats;
}

/**
 * hbase_index_page_free:
 * @page: (nullable) (transfer full): a page
 *
 * Frees @page and drops its references to its rows.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_index_page_free (HBaseIndexPage *page)
{
  if (page == NULL)
    return;
  g_ptr_array_unref (page->rows);
  g_free (page->next_token);
  g_free (page);
}

HBaseIndexPage *
_hbase_index_page_new (void)
{
  HBaseIndexPage *page = g_new0 (HBaseIndexPage, 1);

  page->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  return page;
}
