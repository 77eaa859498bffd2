/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-query.c: queries answered from the Redis index: the
 * conditions (HBaseIndexQuery) and hbase_index_find() and
 * hbase_index_count(), which answer them.
 *
 * A query is resolved against the definitions into a plan
 * (hbase-index-plan.c).  One pipeline learns the index's state and the
 * size of every condition; then the candidates' row keys are read from
 * Redis (hbase-index-materialize.c).  Row keys are sorted, paged after the
 * page token (hbase-index-page.c) and fetched from HBase with
 * get-multiple; every row is checked against the query again, and a row
 * that no longer matches is corrected in the index (read repair) when no
 * write of it is in flight (hbase-index-fetch.c).
 *
 * When the index may lack entries (dirty, not built) or Redis is down,
 * the policy either refuses or answers with a scan of the table
 * (hbase-index-fallback.c). */
#include "config.h"

#include "hbase-index-query-private.h"

/* --- conditions ---------------------------------------------------------------------- */

/* A boxed copy (g_boxed_copy(), a binding keeping a query it was handed)
 * is a new reference: the caller's reference stays the caller's. */
G_DEFINE_BOXED_TYPE (HBaseIndexQuery, hbase_index_query, hbase_index_query_ref,
                     hbase_index_query_unref)

static void
input_clear (gpointer data)
{
  QueryInput *input = data;

  g_clear_pointer (&input->bytes, g_bytes_unref);
}

static HBaseIndexQuery *
query_new (QueryKind kind, const char *index)
{
  HBaseIndexQuery *query = g_new0 (HBaseIndexQuery, 1);

  g_atomic_ref_count_init (&query->ref_count);
  query->floating = 1;
  query->kind = kind;
  query->index = g_strdup (index);
  query->values = g_array_new (FALSE, TRUE, sizeof (QueryInput));
  g_array_set_clear_func (query->values, input_clear);
  query->children = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_index_query_unref);
  return query;
}

/**
 * hbase_index_query_ref:
 * @query: a query
 *
 * Takes a reference on @query; release it with hbase_index_query_unref().
 *
 * Returns: (transfer full): @query
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_ref (HBaseIndexQuery *query)
{
  g_return_val_if_fail (query != NULL, NULL);
  g_atomic_ref_count_inc (&query->ref_count);
  return query;
}

/**
 * hbase_index_query_ref_sink:
 * @query: a query
 *
 * On a query fresh from a builder (one hbase_index_query_is_floating()
 * says is floating), marks it as sunk and returns it: the reference stays
 * the one the caller holds, so `q = hbase_index_query_ref_sink (builder
 * (...))` is released with one hbase_index_query_unref().  On any other
 * query, takes a new reference, like hbase_index_query_ref().
 *
 * Compositions take their own references to their operands and never the
 * caller's (see docs/api-conventions.md), so no code needs this call.
 *
 * Returns: (transfer full): @query
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: a builder's result is already the caller's reference;
 *   keep it as it is, or use hbase_index_query_ref() for another one.
 */
HBaseIndexQuery *
hbase_index_query_ref_sink (HBaseIndexQuery *query)
{
  g_return_val_if_fail (query != NULL, NULL);
  if (!g_atomic_int_compare_and_exchange (&query->floating, 1, 0))
    g_atomic_ref_count_inc (&query->ref_count);
  return query;
}

/**
 * hbase_index_query_is_floating:
 * @query: a query
 *
 * Whether @query came from a builder and hbase_index_query_ref_sink() has
 * not been called on it.  Says nothing about who owns it: a builder's
 * result is always the caller's reference.
 *
 * Returns: %TRUE until hbase_index_query_ref_sink() is called on @query
 *
 * Since: 0.1
 *
 * Deprecated: 0.2: queries have no floating references to track.
 */
gboolean
hbase_index_query_is_floating (HBaseIndexQuery *query)
{
  g_return_val_if_fail (query != NULL, FALSE);
  return g_atomic_int_get (&query->floating) != 0;
}

/**
 * hbase_index_query_unref:
 * @query: (nullable) (transfer full): a query
 *
 * Drops a reference; the last one frees the query.  Does nothing for %NULL.
 *
 * Since: 0.1
 */
void
hbase_index_query_unref (HBaseIndexQuery *query)
{
  if (query == NULL || !g_atomic_ref_count_dec (&query->ref_count))
    return;
  g_free (query->index);
  g_array_unref (query->values);
  input_clear (&query->min);
  input_clear (&query->max);
  g_ptr_array_unref (query->children);
  g_free (query);
}

static void
add_bytes_value (HBaseIndexQuery *query, GBytes *value)
{
  QueryInput input = { INPUT_BYTES, value != NULL ? g_bytes_ref (value) : NULL, 0, 0.0 };

  g_array_append_val (query->values, input);
}

/**
 * hbase_index_query_equal:
 * @index: an index name
 * @value: the value, as the column stores it
 *
 * Rows whose indexed column equals @value (as numbers for numeric types).
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_equal (const char *index, GBytes *value)
{
  HBaseIndexQuery *query = query_new (QUERY_IN, index);

  add_bytes_value (query, value);
  return query;
}

/**
 * hbase_index_query_equal_int64:
 * @index: an index name (of a numeric column)
 * @value: the value
 *
 * Rows whose indexed numeric column equals @value.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_equal_int64 (const char *index, gint64 value)
{
  HBaseIndexQuery *query = query_new (QUERY_IN, index);
  QueryInput input = { INPUT_INT64, NULL, value, 0.0 };

  g_array_append_val (query->values, input);
  return query;
}

/**
 * hbase_index_query_in:
 * @index: an index name
 * @values: (array length=n_values): values, as the column stores them
 * @n_values: how many
 *
 * Rows whose indexed column equals one of @values.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_in (const char *index, GBytes *const *values, guint n_values)
{
  HBaseIndexQuery *query = query_new (QUERY_IN, index);

  for (guint i = 0; i < n_values; i++)
    add_bytes_value (query, values[i]);
  return query;
}

/* A range over @index from the bounds given (%NULL: open). */
static HBaseIndexQuery *
range_new (const char *index, const QueryInput *min, gboolean min_inclusive, const QueryInput *max,
           gboolean max_inclusive)
{
  HBaseIndexQuery *query = query_new (QUERY_RANGE, index);

  if (min != NULL)
    {
      query->has_min = TRUE;
      query->min = *min;
      if (min->bytes != NULL)
        query->min.bytes = g_bytes_ref (min->bytes);
    }
  if (max != NULL)
    {
      query->has_max = TRUE;
      query->max = *max;
      if (max->bytes != NULL)
        query->max.bytes = g_bytes_ref (max->bytes);
    }
  query->min_inclusive = min_inclusive;
  query->max_inclusive = max_inclusive;
  return query;
}

/**
 * hbase_index_query_range:
 * @index: an index name (with a range part)
 * @min: (nullable): the lower bound, as the column stores it; %NULL for
 *   none
 * @min_inclusive: whether @min itself matches
 * @max: (nullable): the upper bound; %NULL for none
 * @max_inclusive: whether @max itself matches
 *
 * Rows whose indexed column lies between @min and @max, compared as values of
 * the index's type.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_range (const char *index, GBytes *min, gboolean min_inclusive, GBytes *max,
                         gboolean max_inclusive)
{
  QueryInput low = { INPUT_BYTES, NULL, 0, 0.0 }, high = { INPUT_BYTES, NULL, 0, 0.0 };

  if (min != NULL)
    low.bytes = min;
  if (max != NULL)
    high.bytes = max;
  return range_new (index, min != NULL ? &low : NULL, min_inclusive, max != NULL ? &high : NULL,
                    max_inclusive);
}

/**
 * hbase_index_query_range_int64:
 * @index: an index name (numeric, with a range part)
 * @min: (nullable) (array fixed-size=1): the lower bound, %NULL for none
 * @min_inclusive: whether @min itself matches
 * @max: (nullable) (array fixed-size=1): the upper bound, %NULL for none
 * @max_inclusive: whether @max itself matches
 *
 * Rows whose indexed numeric column lies between @min and @max.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_range_int64 (const char *index, const gint64 *min, gboolean min_inclusive,
                               const gint64 *max, gboolean max_inclusive)
{
  QueryInput low = { INPUT_INT64, NULL, 0, 0.0 }, high = { INPUT_INT64, NULL, 0, 0.0 };

  if (min != NULL)
    low.i = *min;
  if (max != NULL)
    high.i = *max;
  return range_new (index, min != NULL ? &low : NULL, min_inclusive, max != NULL ? &high : NULL,
                    max_inclusive);
}

/**
 * hbase_index_query_range_double:
 * @index: an index name (numeric, with a range part)
 * @min: (nullable) (array fixed-size=1): the lower bound, %NULL for none
 * @min_inclusive: whether @min itself matches
 * @max: (nullable) (array fixed-size=1): the upper bound, %NULL for none
 * @max_inclusive: whether @max itself matches
 *
 * Rows whose indexed numeric column lies between @min and @max.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_range_double (const char *index, const double *min, gboolean min_inclusive,
                                const double *max, gboolean max_inclusive)
{
  QueryInput low = { INPUT_DOUBLE, NULL, 0, 0.0 }, high = { INPUT_DOUBLE, NULL, 0, 0.0 };

  if (min != NULL)
    low.d = *min;
  if (max != NULL)
    high.d = *max;
  return range_new (index, min != NULL ? &low : NULL, min_inclusive, max != NULL ? &high : NULL,
                    max_inclusive);
}

static HBaseIndexQuery *
combine (QueryKind kind, HBaseIndexQuery **queries, guint n)
{
  HBaseIndexQuery *query;

  g_return_val_if_fail (queries != NULL || n == 0, NULL);
  query = query_new (kind, NULL);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (query->children,
                     queries[i] != NULL ? hbase_index_query_ref (queries[i]) : NULL);
  return query;
}

/**
 * hbase_index_query_and:
 * @first: (nullable): a condition
 * @second: (nullable): another
 *
 * Rows that match both conditions.  The result takes its own reference
 * to each operand; the caller's references stay the caller's, to release
 * before or after the result (see docs/api-conventions.md).  A %NULL
 * operand is reported by the query that uses the result.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_and (HBaseIndexQuery *first, HBaseIndexQuery *second)
{
  HBaseIndexQuery *both[2] = { first, second };

  return combine (QUERY_AND, both, 2);
}

/**
 * hbase_index_query_or:
 * @first: (nullable): a condition
 * @second: (nullable): another
 *
 * Rows that match either condition.  The operands are referenced, as by
 * hbase_index_query_and().  A %NULL operand is reported by the query that
 * uses the result.
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_or (HBaseIndexQuery *first, HBaseIndexQuery *second)
{
  HBaseIndexQuery *both[2] = { first, second };

  return combine (QUERY_OR, both, 2);
}

/**
 * hbase_index_query_all:
 * @queries: (array length=n_queries): conditions
 * @n_queries: how many, at least 1
 *
 * Rows that match every condition of @queries.  Each condition is
 * referenced, as by hbase_index_query_and(); the array and the caller's
 * references stay the caller's.  No
 * condition at all, or a %NULL one, is reported by the query that uses the
 * result; a %NULL array with @n_queries > 0 is a programming error
 * (returns %NULL).
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_all (HBaseIndexQuery **queries, guint n_queries)
{
  return combine (QUERY_AND, queries, n_queries);
}

/**
 * hbase_index_query_any:
 * @queries: (array length=n_queries): conditions
 * @n_queries: how many, at least 1
 *
 * Rows that match at least one condition of @queries.  Each condition is
 * referenced, as by hbase_index_query_and(); the array and the caller's
 * references stay the caller's.  No condition at all, or a %NULL one, is reported by the query
 * that uses the result; a %NULL array with @n_queries > 0 is a programming
 * error (returns %NULL).
 *
 * Returns: (transfer full): the condition
 *
 * Since: 0.1
 */
HBaseIndexQuery *
hbase_index_query_any (HBaseIndexQuery **queries, guint n_queries)
{
  return combine (QUERY_OR, queries, n_queries);
}

static void
append_input (GString *out, const QueryInput *input)
{
  gsize len;
  const guint8 *data;

  switch (input->kind)
    {
    case INPUT_INT64:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, input->i);
      return;
    case INPUT_DOUBLE:
      {
        char buffer[G_ASCII_DTOSTR_BUF_SIZE];

        g_string_append (out, g_ascii_dtostr (buffer, sizeof buffer, input->d));
        return;
      }
    case INPUT_BYTES:
    default:
      if (input->bytes == NULL)
        {
          g_string_append (out, "NULL");
          return;
        }
      data = g_bytes_get_data (input->bytes, &len);
      g_string_append_c (out, '"');
      for (gsize i = 0; i < len; i++)
        if (data[i] >= 0x20 && data[i] < 0x7f && data[i] != '"' && data[i] != '\\')
          g_string_append_c (out, (char) data[i]);
        else
          g_string_append_printf (out, "\\x%02x", data[i]);
      g_string_append_c (out, '"');
    }
}

static void
append_query (GString *out, HBaseIndexQuery *query)
{
  switch (query->kind)
    {
    case QUERY_IN:
      g_string_append_printf (out, "%s IN (", query->index);
      for (guint i = 0; i < query->values->len; i++)
        {
          if (i > 0)
            g_string_append (out, ", ");
          append_input (out, &g_array_index (query->values, QueryInput, i));
        }
      g_string_append_c (out, ')');
      break;
    case QUERY_RANGE:
      g_string_append_printf (out, "%s IN %c", query->index,
                              query->has_min && query->min_inclusive ? '[' : '(');
      if (query->has_min)
        append_input (out, &query->min);
      else
        g_string_append (out, "-inf");
      g_string_append (out, ", ");
      if (query->has_max)
        append_input (out, &query->max);
      else
        g_string_append (out, "+inf");
      g_string_append_c (out, query->has_max && query->max_inclusive ? ']' : ')');
      break;
    case QUERY_AND:
    case QUERY_OR:
    default:
      g_string_append_c (out, '(');
      for (guint i = 0; i < query->children->len; i++)
        {
          HBaseIndexQuery *child = g_ptr_array_index (query->children, i);

          if (i > 0)
            g_string_append (out, query->kind == QUERY_AND ? " AND " : " OR ");
          if (child != NULL)
            append_query (out, child);
          else
            g_string_append (out, "NULL");
        }
      g_string_append_c (out, ')');
    }
}

/**
 * hbase_index_query_to_string:
 * @query: a query
 *
 * The query in words, for logs and the command line: `age IN [18, 65)`,
 * `(city IN ("Paris") AND age IN [18, +inf))`.
 *
 * Returns: (transfer full): the text
 *
 * Since: 0.1
 */
char *
hbase_index_query_to_string (HBaseIndexQuery *query)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (query != NULL, NULL);
  append_query (out, query);
  return g_string_free (out, FALSE);
}

static gint
key_compare (gconstpointer a, gconstpointer b)
{
  return g_bytes_compare (*(GBytes *const *) a, *(GBytes *const *) b);
}

static gint
key_compare_desc (gconstpointer a, gconstpointer b)
{
  return -key_compare (a, b);
}

static HBaseIndexPage *
run_query (HBaseIndex *index, HBaseIndexQuery *query, const HBaseIndexFindOptions *options,
           gboolean count_only, guint64 *count, GCancellable *cancellable, GError **error)
{
  HBaseIndexFindOptions defaults = HBASE_INDEX_FIND_OPTIONS_INIT;
  QueryCtx ctx = { index->core, NULL, { 0 } };
  g_autoptr(Node) root = NULL;
  g_autoptr(GBytes) after = NULL;
  g_autoptr(GHashTable) candidates = NULL;
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(HBaseIndexPage) page = NULL;
  g_autofree char *unusable = NULL;
  g_auto(GStrv) columns = NULL;
  GBytes *last = NULL;
  guint batch_rows, next = 0;

  if (options == NULL)
    options = &defaults;
  root = _hbase_index_resolve (index->core, query, error);
  if (root == NULL)
    return NULL;
  if (options->page_token != NULL)
    {
      after = _hbase_index_token_parse (query, options->reversed, options->page_token, error);
      if (after == NULL)
        return NULL;
    }
  if (!_hbase_index_prepare (&ctx, root, &unusable, cancellable, error))
    return NULL;
  if (unusable != NULL)
    {
      if (index->core->when_dirty == HBASE_INDEX_DIRTY_REFUSE)
        {
          g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_DIRTY,
                       "the index of %s cannot answer: %s", index->core->table_name, unusable);
          return NULL;
        }
      g_debug ("index of %s: answering by a scan: %s", index->core->table_name, unusable);
      return _hbase_index_find_by_scan (&ctx, root, query, options, after, count_only, count,
                                        cancellable, error);
    }

  ctx.records = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                       _hbase_index_record_free);
  candidates = _hbase_index_materialize (&ctx, root, error);
  g_clear_pointer (&ctx.records, g_hash_table_unref);
  if (candidates == NULL)
    return NULL;
  if (count_only)
    {
      *count = g_hash_table_size (candidates);
      return _hbase_index_page_new ();
    }
  keys = _hbase_index_set_keys (candidates);
  g_ptr_array_sort (keys, options->reversed ? key_compare_desc : key_compare);
  if (after != NULL)
    {
      /* skip to just after the token's row */
      while (next < keys->len)
        {
          int cmp = g_bytes_compare (g_ptr_array_index (keys, next), after);

          if (options->reversed ? cmp < 0 : cmp > 0)
            break;
          next++;
        }
    }
  page = _hbase_index_page_new ();
  page->stats.candidates = keys->len - next;
  columns = _hbase_index_read_columns (index->core, options->columns);
  batch_rows = options->batch_rows != 0 ? options->batch_rows : 500;
  while (next < keys->len && (options->limit == 0 || page->rows->len < options->limit))
    {
      /* every row left, or what the page still needs (a few rows may be
       * stale: the loop fetches more then) */
      guint want = options->limit == 0 ? keys->len - next : options->limit - page->rows->len;
      g_autoptr(GPtrArray) batch = g_ptr_array_new ();

      for (; next < keys->len && batch->len < want; next++)
        g_ptr_array_add (batch, g_ptr_array_index (keys, next));
      if (!_hbase_index_fetch_rows (&ctx, root, batch, (const char *const *) columns, batch_rows,
                                    page->rows, options->limit != 0 ? options->limit : G_MAXUINT,
                                    &last, cancellable, error))
        return NULL;
    }
  if (next < keys->len && last != NULL)
    page->next_token = _hbase_index_token_new (query, options->reversed, last);
  page->stats.fetched = ctx.stats.fetched;
  page->stats.stale = ctx.stats.stale;
  page->stats.repaired = ctx.stats.repaired;
  return g_steal_pointer (&page);
}

/**
 * hbase_index_find:
 * @index: an index
 * @query: the condition
 * @options: (nullable): page size, page token, order, columns; %NULL for
 *   every matching row, ascending
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * The rows that match @query, in row key order, one page at a time:
 * row keys from Redis (the smallest condition first), rows from HBase in
 * get-multiple batches.  Every row is checked again: a row whose entry
 * is stale (written by a change that failed, or overlapping writes) is
 * left out, and its entries corrected.  With a dirty index or Redis down
 * the #HBaseIndexDirtyPolicy applies.
 *
 * Returns: (transfer full) (nullable): the page, or %NULL with @error
 *
 * Since: 0.1
 */
HBaseIndexPage *
hbase_index_find (HBaseIndex *index, HBaseIndexQuery *query, const HBaseIndexFindOptions *options,
                  GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (_hbase_index_is_opened (index), NULL);
  return run_query (index, query, options, FALSE, NULL, cancellable, error);
}

/**
 * hbase_index_count:
 * @index: an index
 * @query: the condition
 * @count: (out): how many rows match
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Counts the rows the index gives for @query without fetching them.  The
 * count is exact when no write of a matching row is in flight or in doubt
 * (such rows may be counted under both their old and new values until
 * they settle).  With a dirty index and %HBASE_INDEX_DIRTY_SCAN the rows
 * are scanned and checked.
 *
 * Returns: %TRUE on success
 *
 * Since: 0.1
 */
gboolean
hbase_index_count (HBaseIndex *index, HBaseIndexQuery *query, guint64 *count,
                   GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseIndexPage) page = NULL;

  g_return_val_if_fail (_hbase_index_is_opened (index) && count != NULL, FALSE);
  *count = 0;
  page = run_query (index, query, NULL, TRUE, count, cancellable, error);
  return page != NULL;
}
