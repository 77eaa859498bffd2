/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-query.c: queries answered from the Redis index.
 *
 * A query is resolved against the definitions into a plan: equality and
 * IN on an index with an exact part read its sets (one per value), ranges
 * (and equality without an exact part) read the sorted set.  One pipeline
 * learns the index's state and the size of every condition; then the
 * smallest condition of each AND is read and the others only probe its
 * row keys (SMISMEMBER for sets, the row records for ranges), unless they
 * are smaller still.  Row keys are sorted, paged after the page token and
 * fetched from HBase with get-multiple; every row is checked against the
 * query again, and a row that no longer matches is corrected in the index
 * (read repair) when no write of it is in flight.
 *
 * When the index may lack entries (dirty, not built) or Redis is down,
 * the policy either refuses or answers with a scan of the table: string
 * conditions become server-side SingleColumnValueFilters, and every row
 * is checked by the client as well. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hbase-index-private.h"

/* --- conditions ---------------------------------------------------------------------- */

typedef enum {
  QUERY_IN,               /* equality is IN with one value */
  QUERY_RANGE,
  QUERY_AND,
  QUERY_OR,
} QueryKind;

typedef enum {
  INPUT_BYTES,
  INPUT_INT64,
  INPUT_DOUBLE,
} InputKind;

typedef struct {
  InputKind kind;
  GBytes *bytes;
  gint64 i;
  double d;
} QueryInput;

struct _HBaseIndexQuery {
  gatomicrefcount ref_count;
  QueryKind kind;
  char *index;
  GArray *values;         /* QueryInput, IN */
  gboolean has_min, has_max;
  QueryInput min, max;
  gboolean min_inclusive, max_inclusive;
  GPtrArray *children;    /* HBaseIndexQuery, AND / OR */
};

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
 * Returns: (transfer full): @query
 */
HBaseIndexQuery *
hbase_index_query_ref (HBaseIndexQuery *query)
{
  g_return_val_if_fail (query != NULL, NULL);
  g_atomic_ref_count_inc (&query->ref_count);
  return query;
}

/**
 * hbase_index_query_unref:
 * @query: (nullable) (transfer full): a query
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
 * Returns: (transfer full): the condition
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
 * Returns: (transfer full): the condition
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
 * @min: (nullable): the lower bound, %NULL for none
 * @min_inclusive: whether @min itself matches
 * @max: (nullable): the upper bound, %NULL for none
 * @max_inclusive: whether @max itself matches
 *
 * Returns: (transfer full): the condition
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
 * @min: (nullable): the lower bound, %NULL for none
 * @min_inclusive: whether @min itself matches
 * @max: (nullable): the upper bound, %NULL for none
 * @max_inclusive: whether @max itself matches
 *
 * Returns: (transfer full): the condition
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
  HBaseIndexQuery *query = query_new (kind, NULL);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (query->children, queries[i] != NULL ? hbase_index_query_ref (queries[i]) : NULL);
  return query;
}

/**
 * hbase_index_query_and:
 * @first: a condition
 * @second: another
 *
 * Returns: (transfer full): both; the operands are referenced, not taken
 */
HBaseIndexQuery *
hbase_index_query_and (HBaseIndexQuery *first, HBaseIndexQuery *second)
{
  HBaseIndexQuery *both[2] = { first, second };

  return combine (QUERY_AND, both, 2);
}

/**
 * hbase_index_query_or:
 * @first: a condition
 * @second: another
 *
 * Returns: (transfer full): either; the operands are referenced
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
 * Returns: (transfer full): all of them
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
 * Returns: (transfer full): any of them
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
 */
char *
hbase_index_query_to_string (HBaseIndexQuery *query)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (query != NULL, NULL);
  append_query (out, query);
  return g_string_free (out, FALSE);
}

/* --- plans -------------------------------------------------------------------------------------- */

typedef enum {
  NODE_SETS,              /* IN through exact sets */
  NODE_RANGE,             /* a range of the sorted set (also IN of one value) */
  NODE_AND,
  NODE_OR,
} NodeKind;

typedef struct {
  NodeKind kind;
  const IndexColumn *column;
  GArray *values;         /* IndexValue: NODE_SETS values, or a RANGE's one value */
  GPtrArray *keys;        /* GBytes: exact set keys */
  gboolean has_min, has_max;
  IndexValue min, max;
  gboolean min_inclusive, max_inclusive;
  GBytes *redis_min, *redis_max;
  gboolean empty;         /* cannot match */
  GPtrArray *children;    /* Node */
  guint64 size;
} Node;

static void
value_clear (gpointer data)
{
  _hbase_index_value_clear (data);
}

static void
node_free (gpointer data)
{
  Node *node = data;

  if (node == NULL)
    return;
  g_clear_pointer (&node->values, g_array_unref);
  g_clear_pointer (&node->keys, g_ptr_array_unref);
  _hbase_index_value_clear (&node->min);
  _hbase_index_value_clear (&node->max);
  g_clear_pointer (&node->redis_min, g_bytes_unref);
  g_clear_pointer (&node->redis_max, g_bytes_unref);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_free (node);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Node, node_free)

static Node *
node_new (NodeKind kind)
{
  Node *node = g_new0 (Node, 1);

  node->kind = kind;
  node->values = g_array_new (FALSE, TRUE, sizeof (IndexValue));
  g_array_set_clear_func (node->values, value_clear);
  node->children = g_ptr_array_new_with_free_func (node_free);
  return node;
}

/* @input as a value of @column's type; *@nothing when it cannot equal any
 * (a fraction for an integer column). */
static gboolean
input_value (const IndexColumn *column, const QueryInput *input, IndexValue *value,
             gboolean *nothing, GError **error)
{
  *nothing = FALSE;
  memset (value, 0, sizeof *value);
  value->type = column->type;
  switch (input->kind)
    {
    case INPUT_BYTES:
      if (input->bytes == NULL)
        break;
      if (_hbase_index_value_parse (column->type, g_bytes_get_data (input->bytes, NULL),
                                    g_bytes_get_size (input->bytes), value))
        return TRUE;
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "index %s: a condition's value does not parse as the column's type",
                   column->name);
      return FALSE;
    case INPUT_INT64:
      if (column->type == HBASE_INDEX_VALUE_STRING)
        break;
      if (column->type == HBASE_INDEX_VALUE_DOUBLE)
        value->d = (double) input->i;
      else
        value->i = input->i;
      return TRUE;
    case INPUT_DOUBLE:
    default:
      if (column->type == HBASE_INDEX_VALUE_STRING || isnan (input->d))
        break;
      if (column->type == HBASE_INDEX_VALUE_DOUBLE)
        {
          value->d = input->d == 0.0 ? 0.0 : input->d;
          return TRUE;
        }
      if (input->d != floor (input->d) || input->d < -9223372036854775808.0 ||
          input->d >= 9223372036854775808.0)
        {
          *nothing = TRUE;
          return TRUE;
        }
      value->i = (gint64) input->d;
      return TRUE;
    }
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
               "index %s: a condition's value is missing or of the wrong kind for a %s column",
               column->name, column->type == HBASE_INDEX_VALUE_STRING ? "string" : "numeric");
  return FALSE;
}

static const IndexColumn *
find_column (const HBaseIndexSpec *spec, const char *name, GError **error)
{
  const IndexColumn *column = _hbase_index_spec_find (spec, name);

  if (column == NULL)
    g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX,
                 "there is no index named %s", name != NULL ? name : "(null)");
  return column;
}

static Node *
range_node (const IndexColumn *column, const IndexValue *min, gboolean min_inclusive,
            const IndexValue *max, gboolean max_inclusive, GError **error)
{
  Node *node;

  if (!(column->flags & HBASE_INDEX_RANGE))
    {
      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX,
                   "index %s has no range part: it answers equality and IN only", column->name);
      return NULL;
    }
  node = node_new (NODE_RANGE);
  node->column = column;
  node->has_min = min != NULL;
  node->has_max = max != NULL;
  if (min != NULL)
    {
      node->min = *min;
      node->min.bytes = min->bytes != NULL ? g_bytes_ref (min->bytes) : NULL;
    }
  if (max != NULL)
    {
      node->max = *max;
      node->max.bytes = max->bytes != NULL ? g_bytes_ref (max->bytes) : NULL;
    }
  node->min_inclusive = min_inclusive;
  node->max_inclusive = max_inclusive;
  node->empty = !_hbase_index_range_bounds (column, min, min_inclusive, max, max_inclusive,
                                            &node->redis_min, &node->redis_max);
  return node;
}

#define SMALL_RANGE 64

/* A range of few integers on a column with an exact part is answered by
 * its sets (IN of every value): their members can be probed by row key,
 * the sorted set's cannot.  NULL when the range is not such. */
static Node *
small_integer_range (IndexCore *core, const IndexColumn *column, HBaseIndexQuery *query,
                     const IndexValue *min, const IndexValue *max, gboolean nothing_min,
                     gboolean nothing_max)
{
  gint64 lo, hi;
  Node *node;

  if (!(column->flags & HBASE_INDEX_EXACT) || !query->has_min || !query->has_max ||
      (column->type != HBASE_INDEX_VALUE_INT64 && column->type != HBASE_INDEX_VALUE_COUNTER))
    return NULL;
  lo = min->i;
  hi = max->i;
  if (!(query->min_inclusive || nothing_min))
    {
      if (lo == G_MAXINT64)
        return NULL;
      lo++;
    }
  if (!(query->max_inclusive || nothing_max))
    {
      if (hi == G_MININT64)
        return NULL;
      hi--;
    }
  if (hi < lo || (guint64) hi - (guint64) lo >= SMALL_RANGE)
    return NULL;
  node = node_new (NODE_SETS);
  node->column = column;
  node->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (gint64 i = lo;; i++)
    {
      IndexValue value = { column->type, NULL, i, 0.0 };
      GBytes *canonical = _hbase_index_value_canonical (&value);

      g_ptr_array_add (node->keys, _hbase_index_exact_key (core->base, column->name, canonical));
      g_bytes_unref (canonical);
      g_array_append_val (node->values, value);
      if (i == hi)
        break;
    }
  return node;
}

static Node *
resolve (IndexCore *core, HBaseIndexQuery *query, GError **error)
{
  const IndexColumn *column;
  g_autoptr(Node) node = NULL;

  if (query == NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "a condition is NULL");
      return NULL;
    }
  switch (query->kind)
    {
    case QUERY_AND:
    case QUERY_OR:
      if (query->children->len == 0)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "an AND or OR of no condition");
          return NULL;
        }
      node = node_new (query->kind == QUERY_AND ? NODE_AND : NODE_OR);
      for (guint i = 0; i < query->children->len; i++)
        {
          Node *child = resolve (core, g_ptr_array_index (query->children, i), error);

          if (child == NULL)
            return NULL;
          g_ptr_array_add (node->children, child);
        }
      return g_steal_pointer (&node);

    case QUERY_RANGE:
      {
        IndexValue min, max;
        gboolean nothing_min = FALSE, nothing_max = FALSE;
        Node *range;

        column = find_column (core->spec, query->index, error);
        if (column == NULL)
          return NULL;
        memset (&min, 0, sizeof min);
        memset (&max, 0, sizeof max);
        if ((query->has_min && !input_value (column, &query->min, &min, &nothing_min, error)) ||
            (query->has_max && !input_value (column, &query->max, &max, &nothing_max, error)))
          {
            _hbase_index_value_clear (&min);
            return NULL;
          }
        /* a fractional or out-of-range bound of an integer column:
         * rounded inward, inclusive */
        if ((nothing_min && query->min.d >= 9223372036854775808.0) ||
            (nothing_max && query->max.d < -9223372036854775808.0))
          {
            range = range_node (column, NULL, TRUE, NULL, TRUE, error);
            if (range != NULL)
              range->empty = TRUE;
            return range;
          }
        if (nothing_min)
          min.i = query->min.d < -9223372036854775808.0 ? G_MININT64 : (gint64) ceil (query->min.d);
        if (nothing_max)
          max.i = query->max.d >= 9223372036854775808.0 ? G_MAXINT64 : (gint64) floor (query->max.d);
        range = small_integer_range (core, column, query, &min, &max, nothing_min, nothing_max);
        if (range == NULL)
          range = range_node (column, query->has_min ? &min : NULL,
                              query->min_inclusive || nothing_min,
                              query->has_max ? &max : NULL, query->max_inclusive || nothing_max,
                              error);
        _hbase_index_value_clear (&min);
        _hbase_index_value_clear (&max);
        return range;
      }

    case QUERY_IN:
    default:
      column = find_column (core->spec, query->index, error);
      if (column == NULL)
        return NULL;
      if (query->values->len == 0)
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "index %s: an IN of no value", column->name);
          return NULL;
        }
      node = node_new (column->flags & HBASE_INDEX_EXACT ? NODE_SETS : NODE_OR);
      node->column = column;
      node->keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      for (guint i = 0; i < query->values->len; i++)
        {
          IndexValue value;
          gboolean nothing;

          if (!input_value (column, &g_array_index (query->values, QueryInput, i), &value,
                            &nothing, error))
            return NULL;
          if (nothing)
            continue;
          if (node->kind == NODE_SETS)
            {
              GBytes *canonical = _hbase_index_value_canonical (&value);

              g_ptr_array_add (node->keys, _hbase_index_exact_key (core->base, column->name,
                                                                   canonical));
              g_bytes_unref (canonical);
              g_array_append_val (node->values, value);
            }
          else
            {
              Node *range = range_node (column, &value, TRUE, &value, TRUE, error);

              _hbase_index_value_clear (&value);
              if (range == NULL)
                return NULL;
              g_ptr_array_add (node->children, range);
            }
        }
      if (node->kind == NODE_SETS && node->values->len == 0)
        node->empty = TRUE;
      if (node->kind == NODE_OR && node->children->len == 0)
        {
          /* no value can match: an empty range */
          node->kind = NODE_SETS;
          node->empty = TRUE;
        }
      return g_steal_pointer (&node);
    }
}

/* --- checking a row -------------------------------------------------------------------------------- */

static gboolean
leaf_matches_value (Node *node, const IndexValue *value)
{
  if (node->empty)
    return FALSE;
  if (node->kind == NODE_SETS)
    {
      for (guint i = 0; i < node->values->len; i++)
        if (_hbase_index_value_compare (&g_array_index (node->values, IndexValue, i), value) == 0)
          return TRUE;
      return FALSE;
    }
  if (node->has_min)
    {
      int cmp = _hbase_index_value_compare (value, &node->min);

      if (cmp < 0 || (cmp == 0 && !node->min_inclusive))
        return FALSE;
    }
  if (node->has_max)
    {
      int cmp = _hbase_index_value_compare (value, &node->max);

      if (cmp > 0 || (cmp == 0 && !node->max_inclusive))
        return FALSE;
    }
  return TRUE;
}

static gboolean
node_matches_row (Node *node, HBaseRow *row)
{
  switch (node->kind)
    {
    case NODE_AND:
      for (guint i = 0; i < node->children->len; i++)
        if (!node_matches_row (g_ptr_array_index (node->children, i), row))
          return FALSE;
      return TRUE;
    case NODE_OR:
      for (guint i = 0; i < node->children->len; i++)
        if (node_matches_row (g_ptr_array_index (node->children, i), row))
          return TRUE;
      return FALSE;
    case NODE_SETS:
    case NODE_RANGE:
    default:
      {
        const HBaseCell *cell = hbase_row_lookup_cell_bytes (row, node->column->family_bytes,
                                                             node->column->qualifier_bytes);
        IndexValue value;
        gboolean matches;
        GBytes *bytes;

        if (cell == NULL)
          return FALSE;
        bytes = hbase_cell_get_value (cell);
        if (!_hbase_index_value_parse (node->column->type, g_bytes_get_data (bytes, NULL),
                                       g_bytes_get_size (bytes), &value))
          return FALSE;
        matches = leaf_matches_value (node, &value);
        _hbase_index_value_clear (&value);
        return matches;
      }
    }
}

/**
 * hbase_index_query_matches:
 * @index: an index
 * @query: a query on it
 * @row: a row
 * @matches: (out): whether @row matches @query
 * @error: return location for an error
 *
 * Checks a row against a query, as queries check every row they fetch:
 * the newest version of each indexed column, read as its type.
 *
 * Returns: %FALSE when the query is invalid for the index
 */
gboolean
hbase_index_query_matches (HBaseIndex *index, HBaseIndexQuery *query, HBaseRow *row,
                           gboolean *matches, GError **error)
{
  g_autoptr(Node) node = NULL;

  g_return_val_if_fail (index != NULL && row != NULL && matches != NULL, FALSE);
  node = resolve (index->core, query, error);
  if (node == NULL)
    return FALSE;
  *matches = node_matches_row (node, row);
  return TRUE;
}

/* --- evaluating a plan in Redis -------------------------------------------------------------- */

typedef struct {
  IndexCore *core;
  GHashTable *records;    /* GBytes row -> IndexRecord (NULL: none) */
  HBaseIndexQueryStats stats;
} Ctx;

static GHashTable *
key_set_new (void)
{
  return g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);
}

static void
key_set_add (GHashTable *set, GBytes *key)
{
  if (!g_hash_table_contains (set, key))
    g_hash_table_add (set, g_bytes_ref (key));
}

/* The commands that size a leaf (or NULL for composite nodes). */
static void
batch_sizes (Ctx *ctx, RedisBatch *batch, Node *node, GPtrArray *leaves)
{
  if (node->kind == NODE_AND || node->kind == NODE_OR)
    {
      for (guint i = 0; i < node->children->len; i++)
        batch_sizes (ctx, batch, g_ptr_array_index (node->children, i), leaves);
      return;
    }
  if (node->empty)
    return;
  if (node->kind == NODE_SETS)
    for (guint i = 0; i < node->keys->len; i++)
      {
        _hbase_index_batch_command (batch);
        _hbase_index_batch_str (batch, "SCARD");
        _hbase_index_batch_bytes (batch, g_ptr_array_index (node->keys, i));
        g_ptr_array_add (leaves, node);
      }
  else
    {
      g_autofree char *key = _hbase_index_range_key (ctx->core->base, node->column->name);

      _hbase_index_batch_command (batch);
      _hbase_index_batch_str (batch, _hbase_index_column_is_lex (node->column) ? "ZLEXCOUNT"
                                                                                : "ZCOUNT");
      _hbase_index_batch_str (batch, key);
      _hbase_index_batch_bytes (batch, node->redis_min);
      _hbase_index_batch_bytes (batch, node->redis_max);
      g_ptr_array_add (leaves, node);
    }
}

static guint64
node_size (Node *node)
{
  guint64 size;

  switch (node->kind)
    {
    case NODE_AND:
      size = G_MAXUINT64;
      for (guint i = 0; i < node->children->len; i++)
        size = MIN (size, node_size (g_ptr_array_index (node->children, i)));
      break;
    case NODE_OR:
      size = 0;
      for (guint i = 0; i < node->children->len; i++)
        size += node_size (g_ptr_array_index (node->children, i));
      break;
    case NODE_SETS:
    case NODE_RANGE:
    default:
      size = node->empty ? 0 : node->size;
    }
  node->size = size;
  return size;
}

static gint
by_size (gconstpointer a, gconstpointer b)
{
  const Node *x = *(Node *const *) a;
  const Node *y = *(Node *const *) b;

  return x->size < y->size ? -1 : x->size > y->size ? 1 : 0;
}

static GHashTable *materialize (Ctx *ctx, Node *node, GError **error);
static GHashTable *probe (Ctx *ctx, Node *node, GHashTable *candidates, GError **error);

static GHashTable *
materialize_leaf (Ctx *ctx, Node *node, GError **error)
{
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;
  GHashTable *set = key_set_new ();

  if (node->empty)
    return set;
  if (node->kind == NODE_SETS)
    for (guint i = 0; i < node->keys->len; i++)
      {
        _hbase_index_batch_command (batch);
        _hbase_index_batch_str (batch, "SMEMBERS");
        _hbase_index_batch_bytes (batch, g_ptr_array_index (node->keys, i));
      }
  else
    {
      g_autofree char *key = _hbase_index_range_key (ctx->core->base, node->column->name);

      _hbase_index_batch_command (batch);
      _hbase_index_batch_str (batch, _hbase_index_column_is_lex (node->column) ? "ZRANGEBYLEX"
                                                                                : "ZRANGEBYSCORE");
      _hbase_index_batch_str (batch, key);
      _hbase_index_batch_bytes (batch, node->redis_min);
      _hbase_index_batch_bytes (batch, node->redis_max);
    }
  replies = _hbase_index_redis_run (ctx->core->pool, batch, error);
  if (replies == NULL)
    {
      g_hash_table_unref (set);
      return NULL;
    }
  for (guint r = 0; r < replies->len; r++)
    {
      redisReply *reply = g_ptr_array_index (replies, r);

      if (_hbase_index_reply_error (reply, error))
        {
          g_hash_table_unref (set);
          return NULL;
        }
      for (size_t e = 0; e < reply->elements; e++)
        {
          redisReply *member = reply->element[e];

          if (node->kind == NODE_SETS)
            g_hash_table_add (set, g_bytes_new (member->str, member->len));
          else
            {
              GBytes *row = _hbase_index_member_row (node->column, (const guint8 *) member->str,
                                                     member->len);

              if (row == NULL)
                continue;
              if (g_hash_table_contains (set, row))
                g_bytes_unref (row);
              else
                g_hash_table_add (set, row);
            }
        }
    }
  return set;
}

static GHashTable *
materialize (Ctx *ctx, Node *node, GError **error)
{
  GHashTable *set;

  switch (node->kind)
    {
    case NODE_OR:
      set = key_set_new ();
      for (guint i = 0; i < node->children->len; i++)
        {
          GHashTable *child = materialize (ctx, g_ptr_array_index (node->children, i), error);
          GHashTableIter iter;
          gpointer key;

          if (child == NULL)
            {
              g_hash_table_unref (set);
              return NULL;
            }
          g_hash_table_iter_init (&iter, child);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            key_set_add (set, key);
          g_hash_table_unref (child);
        }
      return set;

    case NODE_AND:
      {
        g_autoptr(GPtrArray) order = g_ptr_array_new ();

        for (guint i = 0; i < node->children->len; i++)
          g_ptr_array_add (order, g_ptr_array_index (node->children, i));
        /* smallest first */
        g_ptr_array_sort (order, by_size);
        set = materialize (ctx, g_ptr_array_index (order, 0), error);
        for (guint i = 1; set != NULL && i < order->len && g_hash_table_size (set) > 0; i++)
          {
            Node *child = g_ptr_array_index (order, i);
            GHashTable *next;

            if (child->size <= g_hash_table_size (set))
              {
                /* smaller than the candidates: read it and intersect */
                GHashTable *other = materialize (ctx, child, error);
                GHashTableIter iter;
                gpointer key;

                if (other == NULL)
                  {
                    g_hash_table_unref (set);
                    return NULL;
                  }
                g_hash_table_iter_init (&iter, set);
                while (g_hash_table_iter_next (&iter, &key, NULL))
                  if (!g_hash_table_contains (other, key))
                    g_hash_table_iter_remove (&iter);
                g_hash_table_unref (other);
                continue;
              }
            next = probe (ctx, child, set, error);
            g_hash_table_unref (set);
            set = next;
          }
        return set;
      }

    case NODE_SETS:
    case NODE_RANGE:
    default:
      return materialize_leaf (ctx, node, error);
    }
}

static GPtrArray *
set_keys (GHashTable *set)
{
  GPtrArray *keys = g_ptr_array_new_full (g_hash_table_size (set), (GDestroyNotify) g_bytes_unref);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, set);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, g_bytes_ref (key));
  return keys;
}

/* Loads the records of @keys not loaded yet. */
static gboolean
load_records (Ctx *ctx, GPtrArray *keys, GError **error)
{
  g_autoptr(GPtrArray) missing = g_ptr_array_new ();
  g_autoptr(GPtrArray) records = NULL;

  for (guint i = 0; i < keys->len; i++)
    if (!g_hash_table_contains (ctx->records, g_ptr_array_index (keys, i)))
      g_ptr_array_add (missing, g_ptr_array_index (keys, i));
  if (missing->len == 0)
    return TRUE;
  records = _hbase_index_read_records (ctx->core, missing, error);
  if (records == NULL)
    return FALSE;
  for (guint i = 0; i < missing->len; i++)
    {
      g_hash_table_insert (ctx->records, g_bytes_ref (g_ptr_array_index (missing, i)),
                           g_ptr_array_index (records, i));
      g_ptr_array_index (records, i) = NULL;
    }
  return TRUE;
}

static gboolean
record_matches (Node *node, IndexRecord *record)
{
  for (guint i = 0; record != NULL && i < record->entries->len; i++)
    {
      RecordEntry *entry = g_ptr_array_index (record->entries, i);
      IndexValue value;
      gboolean matches;

      if (strcmp (entry->name, node->column->name) != 0 ||
          !_hbase_index_value_parse (node->column->type, g_bytes_get_data (entry->value, NULL),
                                     g_bytes_get_size (entry->value), &value))
        continue;
      matches = leaf_matches_value (node, &value);
      _hbase_index_value_clear (&value);
      if (matches)
        return TRUE;
    }
  return FALSE;
}

/* The candidates that satisfy @node, asking Redis about them only. */
static GHashTable *
probe (Ctx *ctx, Node *node, GHashTable *candidates, GError **error)
{
  g_autoptr(GPtrArray) keys = set_keys (candidates);
  GHashTable *result = key_set_new ();

  if (keys->len == 0)
    return result;
  switch (node->kind)
    {
    case NODE_AND:
      {
        GHashTable *current = g_hash_table_ref (candidates);

        g_hash_table_unref (result);
        for (guint i = 0; i < node->children->len && g_hash_table_size (current) > 0; i++)
          {
            GHashTable *next = probe (ctx, g_ptr_array_index (node->children, i), current, error);

            g_hash_table_unref (current);
            if (next == NULL)
              return NULL;
            current = next;
          }
        return current;
      }

    case NODE_OR:
      for (guint i = 0; i < node->children->len; i++)
        {
          GHashTable *part = probe (ctx, g_ptr_array_index (node->children, i), candidates, error);
          GHashTableIter iter;
          gpointer key;

          if (part == NULL)
            {
              g_hash_table_unref (result);
              return NULL;
            }
          g_hash_table_iter_init (&iter, part);
          while (g_hash_table_iter_next (&iter, &key, NULL))
            key_set_add (result, key);
          g_hash_table_unref (part);
        }
      return result;

    case NODE_SETS:
      {
        g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
        g_autoptr(GPtrArray) replies = NULL;
        guint reply_index = 0;

        if (node->empty)
          return result;
        for (guint k = 0; k < node->keys->len; k++)
          for (guint start = 0; start < keys->len; start += 1000)
            {
              _hbase_index_batch_command (batch);
              _hbase_index_batch_str (batch, "SMISMEMBER");
              _hbase_index_batch_bytes (batch, g_ptr_array_index (node->keys, k));
              for (guint i = start; i < keys->len && i < start + 1000; i++)
                _hbase_index_batch_bytes (batch, g_ptr_array_index (keys, i));
            }
        replies = _hbase_index_redis_run (ctx->core->pool, batch, error);
        if (replies == NULL)
          {
            g_hash_table_unref (result);
            return NULL;
          }
        for (guint k = 0; k < node->keys->len; k++)
          for (guint start = 0; start < keys->len; start += 1000)
            {
              redisReply *reply = g_ptr_array_index (replies, reply_index++);

              if (_hbase_index_reply_error (reply, error))
                {
                  g_hash_table_unref (result);
                  return NULL;
                }
              for (size_t e = 0; e < reply->elements; e++)
                if (reply->element[e]->integer == 1)
                  key_set_add (result, g_ptr_array_index (keys, start + (guint) e));
            }
        return result;
      }

    case NODE_RANGE:
    default:
      if (node->empty)
        return result;
      if (!load_records (ctx, keys, error))
        {
          g_hash_table_unref (result);
          return NULL;
        }
      for (guint i = 0; i < keys->len; i++)
        if (record_matches (node, g_hash_table_lookup (ctx->records, g_ptr_array_index (keys, i))))
          key_set_add (result, g_ptr_array_index (keys, i));
      return result;
    }
}

/* --- the state check and the candidates ------------------------------------------------------- */

#define MAX_DUE_REPAIRS 1000

/* Whether the index can answer (and its plan's sizes): FALSE with
 * @error for hard failures; *@unusable with a reason when the policy
 * applies. */
static gboolean
prepare (Ctx *ctx, Node *root, char **unusable, GCancellable *cancellable, GError **error)
{
  IndexCore *core = ctx->core;
  g_autoptr(RedisBatch) batch = _hbase_index_batch_new ();
  g_autoptr(GPtrArray) replies = NULL;
  g_autoptr(GPtrArray) leaves = g_ptr_array_new ();
  g_autofree char *mark = NULL;
  g_autoptr(GError) local = NULL;
  redisReply *state, *fix, *now;
  guint first_size = 3;

  *unusable = NULL;
  if (!_hbase_index_read_dirty_mark (core, FALSE, &mark, cancellable, error))
    return FALSE;
  if (mark != NULL)
    {
      *unusable = g_strdup_printf ("the index is marked dirty: %s", mark);
      return TRUE;
    }
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "HMGET");
  _hbase_index_batch_str (batch, core->key_state);
  _hbase_index_batch_str (batch, "status");
  _hbase_index_batch_str (batch, "version");
  _hbase_index_batch_str (batch, "run");
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "ZRANGE");
  _hbase_index_batch_str (batch, core->key_fix);
  _hbase_index_batch_str (batch, "0");
  _hbase_index_batch_str (batch, "0");
  _hbase_index_batch_str (batch, "WITHSCORES");
  _hbase_index_batch_command (batch);
  _hbase_index_batch_str (batch, "TIME");
  batch_sizes (ctx, batch, root, leaves);
  replies = _hbase_index_redis_run (core->pool, batch, &local);
  if (replies == NULL)
    {
      *unusable = g_strdup (local->message);
      return TRUE;
    }
  for (guint i = 0; i < replies->len; i++)
    if (_hbase_index_reply_error (g_ptr_array_index (replies, i), error))
      return FALSE;
  state = g_ptr_array_index (replies, 0);
  fix = g_ptr_array_index (replies, 1);
  now = g_ptr_array_index (replies, 2);
  if (_hbase_index_state_of_reply (core, state, unusable) != HBASE_INDEX_STATE_READY)
    return TRUE;
  g_clear_pointer (unusable, g_free);
  for (guint i = 0; i < leaves->len; i++)
    ((Node *) g_ptr_array_index (leaves, i))->size = 0;
  for (guint i = 0; i < leaves->len; i++)
    ((Node *) g_ptr_array_index (leaves, i))->size +=
      (guint64) ((redisReply *) g_ptr_array_index (replies, first_size + i))->integer;
  node_size (root);
  /* rows whose values a writer never learned, due now: read them first */
  if (fix->elements == 2)
    {
      double due = g_ascii_strtod (fix->element[1]->str, NULL);
      double now_ms = g_ascii_strtod (now->element[0]->str, NULL) * 1000.0 +
                      g_ascii_strtod (now->element[1]->str, NULL) / 1000.0;
      gboolean too_many = FALSE;

      if (due <= now_ms)
        {
          if (!_hbase_index_repair_due (core, MAX_DUE_REPAIRS, &too_many, cancellable, &local))
            {
              *unusable = g_strdup (local->message);
              return TRUE;
            }
          if (too_many)
            {
              *unusable = g_strdup_printf ("more than %u rows wait to be read again from HBase: "
                                           "repair the index", MAX_DUE_REPAIRS);
              return TRUE;
            }
        }
    }
  return TRUE;
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

static char *
token_new (HBaseIndexQuery *query, gboolean reversed, GBytes *last)
{
  g_autofree char *key = g_base64_encode (g_bytes_get_data (last, NULL), g_bytes_get_size (last));

  return g_strdup_printf ("%08x.%s", query_checksum (query, reversed), key);
}

static GBytes *
token_parse (HBaseIndexQuery *query, gboolean reversed, const char *token, GError **error)
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

struct _HBaseIndexPage {
  GPtrArray *rows;
  char *next_token;
  HBaseIndexQueryStats stats;
};

/**
 * hbase_index_page_get_rows:
 * @page: a page
 *
 * Returns: (transfer none) (element-type HBaseRow): its rows, in row key
 *   order
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
 * Returns: (nullable): the token of the next page, %NULL after the last
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
 * Returns: (transfer none): what answering took
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

static HBaseIndexPage *
page_new (void)
{
  HBaseIndexPage *page = g_new0 (HBaseIndexPage, 1);

  page->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  return page;
}

/* The columns to read: the requested ones and every indexed column (to
 * check the rows and repair their entries); NULL for whole rows. */
static char **
read_columns (IndexCore *core, const char *const *requested)
{
  GStrvBuilder *builder;
  g_auto(GStrv) indexed = NULL;
  char **columns;

  if (requested == NULL)
    return NULL;
  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) requested);
  indexed = _hbase_index_columns (core->spec);
  g_strv_builder_addv (builder, (const char **) indexed);
  columns = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return columns;
}

/* One get-multiple of a fetch. */
typedef struct {
  GPtrArray *keys;
  GPtrArray *rows;
  GError *error;
} Fetch;

/* The get-multiples of a fetch, taken in turn by up to FETCH_THREADS
 * workers: no worker waits for another's batch (no rounds). */
typedef struct {
  HBaseTable *table;
  const char *const *columns;
  GCancellable *cancellable;
  Fetch *fetches;
  guint n_fetches;
  gint next;              /* the next fetch to take (atomic) */
  gint failed;            /* set once one failed: the others stop (atomic) */
} FetchWork;

static gpointer
fetch_worker (gpointer data)
{
  FetchWork *work = data;
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  guint f;

  read.columns = work->columns;
  while (!g_atomic_int_get (&work->failed) &&
         (f = (guint) g_atomic_int_add (&work->next, 1)) < work->n_fetches)
    {
      Fetch *fetch = &work->fetches[f];

      fetch->rows = hbase_table_get_multiple (work->table, fetch->keys, &read, work->cancellable,
                                              &fetch->error);
      if (fetch->rows == NULL)
        g_atomic_int_set (&work->failed, 1);
    }
  return NULL;
}

#define FETCH_THREADS 4

/* The rows of @keys, in order, @batch_rows per get-multiple, up to
 * FETCH_THREADS of them at once. */
static GPtrArray *
fetch_all (Ctx *ctx, GPtrArray *keys, guint batch_rows, const char *const *columns,
           GCancellable *cancellable, GError **error)
{
  FetchWork work = { ctx->core->plain, columns, cancellable, NULL, 0, 0, 0 };
  GThread *threads[FETCH_THREADS] = { NULL };
  guint n_threads;
  GPtrArray *rows = g_ptr_array_new_full (keys->len, (GDestroyNotify) hbase_row_unref);
  GError *first_error = NULL;

  work.n_fetches = (keys->len + batch_rows - 1) / batch_rows;
  work.fetches = g_new0 (Fetch, MAX (work.n_fetches, 1));
  for (guint f = 0; f < work.n_fetches; f++)
    {
      work.fetches[f].keys = g_ptr_array_new ();
      for (guint i = f * batch_rows; i < keys->len && i < (f + 1) * batch_rows; i++)
        g_ptr_array_add (work.fetches[f].keys, g_ptr_array_index (keys, i));
    }
  n_threads = MIN (work.n_fetches, FETCH_THREADS);
  if (n_threads <= 1)
    fetch_worker (&work);
  else
    {
      for (guint t = 0; t < n_threads; t++)
        threads[t] = g_thread_new ("hbase-index-fetch", fetch_worker, &work);
      for (guint t = 0; t < n_threads; t++)
        g_thread_join (threads[t]);
    }
  for (guint f = 0; f < work.n_fetches; f++)
    {
      Fetch *fetch = &work.fetches[f];

      if (fetch->rows != NULL && first_error == NULL)
        for (guint i = 0; i < fetch->rows->len; i++)
          g_ptr_array_add (rows, hbase_row_ref (g_ptr_array_index (fetch->rows, i)));
      else if (fetch->error != NULL && first_error == NULL)
        first_error = g_steal_pointer (&fetch->error);
      g_clear_error (&fetch->error);
      g_clear_pointer (&fetch->rows, g_ptr_array_unref);
      g_ptr_array_unref (fetch->keys);
    }
  g_free (work.fetches);
  if (first_error != NULL)
    {
      g_propagate_error (error, first_error);
      g_ptr_array_unref (rows);
      return NULL;
    }
  return rows;
}

/* Read repair of rows a query found stale: each is read again after a
 * snapshot of its record (a write of the row pending then, or started
 * after, makes the repair only add, never remove), and corrected when
 * still stale. */
static void
repair_stale (Ctx *ctx, Node *root, GPtrArray *stale, GCancellable *cancellable)
{
  g_autoptr(GPtrArray) all_snapshots = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  g_autoptr(GPtrArray) snapshots = g_ptr_array_new ();
  g_autoptr(GPtrArray) still = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) columns = _hbase_index_columns (ctx->core->spec);
  HBaseReadOptions read = HBASE_READ_OPTIONS_INIT;
  guint repaired = 0;

  all_snapshots = _hbase_index_snapshot_rows (ctx->core, stale, FALSE, &error);
  read.columns = (const char *const *) columns;
  if (all_snapshots != NULL)
    rows = hbase_table_get_multiple (ctx->core->plain, stale, &read, cancellable, &error);
  if (rows == NULL)
    {
      g_debug ("index of %s: read repair failed: %s", ctx->core->table_name, error->message);
      return;
    }
  for (guint i = 0; i < rows->len; i++)
    {
      HBaseRow *row = g_ptr_array_index (rows, i);

      if (!hbase_row_is_empty (row) && node_matches_row (root, row))
        continue;   /* written meanwhile: it matches now */
      g_ptr_array_add (keys, g_ptr_array_index (stale, i));
      g_ptr_array_add (still, row);
      g_ptr_array_add (snapshots, g_ptr_array_index (all_snapshots, i));
    }
  if (keys->len > 0 &&
      !_hbase_index_repair_rows (ctx->core, keys, still, snapshots, NULL, FALSE, &repaired, NULL,
                                 &error))
    g_debug ("index of %s: read repair failed: %s", ctx->core->table_name, error->message);
  ctx->stats.repaired += repaired;
}

/* Fetches @keys, keeps the rows that match (up to @max in @into), and
 * repairs the entries of the others. */
static gboolean
fetch_rows (Ctx *ctx, Node *root, GPtrArray *keys, const char *const *columns, guint batch_rows,
            GPtrArray *into, guint max, GBytes **last, GCancellable *cancellable, GError **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) stale = g_ptr_array_new ();

  rows = fetch_all (ctx, keys, batch_rows, columns, cancellable, error);
  if (rows == NULL)
    return FALSE;
  ctx->stats.fetched += rows->len;
  for (guint i = 0; i < rows->len; i++)
    {
      HBaseRow *row = g_ptr_array_index (rows, i);

      if (!hbase_row_is_empty (row) && node_matches_row (root, row))
        {
          if (into->len < max)
            {
              g_ptr_array_add (into, hbase_row_ref (row));
              *last = g_ptr_array_index (keys, i);
            }
          continue;
        }
      ctx->stats.stale++;
      g_ptr_array_add (stale, g_ptr_array_index (keys, i));
    }
  /* best effort: the answer is right either way */
  if (stale->len > 0)
    repair_stale (ctx, root, stale, cancellable);
  return TRUE;
}

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
static HBaseIndexPage *
find_by_scan (Ctx *ctx, Node *root, HBaseIndexQuery *query, const HBaseIndexFindOptions *options,
              GBytes *after, gboolean count_only, guint64 *count, GCancellable *cancellable,
              GError **error)
{
  g_autoptr(HBaseIndexPage) page = page_new ();
  g_autoptr(HBaseFilter) filter = node_filter (root);
  g_autofree char *filter_text = NULL;
  g_autoptr(HBaseScanner) scanner = NULL;
  g_autoptr(GBytes) start = NULL;
  g_auto(GStrv) columns = read_columns (ctx->core, options->columns);
  HBaseScanOptions scan = HBASE_SCAN_OPTIONS_INIT;
  guint limit = count_only ? 0 : options->limit;
  HBaseRow *row;
  GError *local = NULL;

  if (filter != NULL)
    filter_text = hbase_filter_to_string (filter, NULL);
  scan.reversed = options->reversed;
  scan.caching = 1000;
  scan.read.filter = filter_text;
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
  while ((row = hbase_scanner_next (scanner, cancellable, &local)) != NULL)
    {
      g_autoptr(HBaseRow) owned = row;

      page->stats.fetched++;
      if (after != NULL && options->reversed && g_bytes_compare (hbase_row_get_key (row), after) >= 0)
        continue;
      if (!node_matches_row (root, row))
        continue;
      if (count_only)
        {
          (*count)++;
          continue;
        }
      if (limit != 0 && page->rows->len == limit)
        {
          page->next_token = token_new (query, options->reversed,
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

static HBaseIndexPage *
run_query (HBaseIndex *index, HBaseIndexQuery *query, const HBaseIndexFindOptions *options,
           gboolean count_only, guint64 *count, GCancellable *cancellable, GError **error)
{
  HBaseIndexFindOptions defaults = HBASE_INDEX_FIND_OPTIONS_INIT;
  Ctx ctx = { index->core, NULL, { 0 } };
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
  root = resolve (index->core, query, error);
  if (root == NULL)
    return NULL;
  if (options->page_token != NULL)
    {
      after = token_parse (query, options->reversed, options->page_token, error);
      if (after == NULL)
        return NULL;
    }
  if (!prepare (&ctx, root, &unusable, cancellable, error))
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
      return find_by_scan (&ctx, root, query, options, after, count_only, count, cancellable, error);
    }

  ctx.records = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref,
                                       _hbase_index_record_free);
  candidates = materialize (&ctx, root, error);
  g_clear_pointer (&ctx.records, g_hash_table_unref);
  if (candidates == NULL)
    return NULL;
  if (count_only)
    {
      *count = g_hash_table_size (candidates);
      return page_new ();
    }
  keys = set_keys (candidates);
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
  page = page_new ();
  page->stats.candidates = keys->len - next;
  columns = read_columns (index->core, options->columns);
  batch_rows = options->batch_rows != 0 ? options->batch_rows : 500;
  while (next < keys->len && (options->limit == 0 || page->rows->len < options->limit))
    {
      /* every row left, or what the page still needs (a few rows may be
       * stale: the loop fetches more then) */
      guint want = options->limit == 0 ? keys->len - next : options->limit - page->rows->len;
      g_autoptr(GPtrArray) batch = g_ptr_array_new ();

      for (; next < keys->len && batch->len < want; next++)
        g_ptr_array_add (batch, g_ptr_array_index (keys, next));
      if (!fetch_rows (&ctx, root, batch, (const char *const *) columns, batch_rows, page->rows,
                       options->limit != 0 ? options->limit : G_MAXUINT, &last, cancellable, error))
        return NULL;
    }
  if (next < keys->len && last != NULL)
    page->next_token = token_new (query, options->reversed, last);
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
 */
HBaseIndexPage *
hbase_index_find (HBaseIndex *index, HBaseIndexQuery *query, const HBaseIndexFindOptions *options,
                  GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (index != NULL, NULL);
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
 */
gboolean
hbase_index_count (HBaseIndex *index, HBaseIndexQuery *query, guint64 *count,
                   GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseIndexPage) page = NULL;

  g_return_val_if_fail (index != NULL && count != NULL, FALSE);
  *count = 0;
  page = run_query (index, query, NULL, TRUE, count, cancellable, error);
  return page != NULL;
}
