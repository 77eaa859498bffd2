/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-plan.c: the plan of a query: its conditions resolved
 * against the index definitions (equality and IN on an index with an
 * exact part read its sets, one per value; ranges, and equality without
 * an exact part, read the sorted set), and a row checked against a plan. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hbase-index-query-private.h"

/* --- plans -------------------------------------------------------------------------------------- */

static void
value_clear (gpointer data)
{
  _hbase_index_value_clear (data);
}

void
_hbase_index_node_free (gpointer data)
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

static Node *
node_new (NodeKind kind)
{
  Node *node = g_new0 (Node, 1);

  node->kind = kind;
  node->values = g_array_new (FALSE, TRUE, sizeof (IndexValue));
  g_array_set_clear_func (node->values, value_clear);
  node->children = g_ptr_array_new_with_free_func (_hbase_index_node_free);
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

Node *
_hbase_index_resolve (IndexCore *core, HBaseIndexQuery *query, GError **error)
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
          Node *child = _hbase_index_resolve (core, g_ptr_array_index (query->children, i), error);

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

gboolean
_hbase_index_leaf_matches_value (Node *node, const IndexValue *value)
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

gboolean
_hbase_index_node_matches_row (Node *node, HBaseRow *row)
{
  switch (node->kind)
    {
    case NODE_AND:
      for (guint i = 0; i < node->children->len; i++)
        if (!_hbase_index_node_matches_row (g_ptr_array_index (node->children, i), row))
          return FALSE;
      return TRUE;
    case NODE_OR:
      for (guint i = 0; i < node->children->len; i++)
        if (_hbase_index_node_matches_row (g_ptr_array_index (node->children, i), row))
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
        matches = _hbase_index_leaf_matches_value (node, &value);
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
 *
 * Since: 0.1
 */
gboolean
hbase_index_query_matches (HBaseIndex *index, HBaseIndexQuery *query, HBaseRow *row,
                           gboolean *matches, GError **error)
{
  g_autoptr(Node) node = NULL;

  g_return_val_if_fail (_hbase_index_is_opened (index) && row != NULL && matches != NULL, FALSE);
  node = _hbase_index_resolve (index->core, query, error);
  if (node == NULL)
    return FALSE;
  *matches = _hbase_index_node_matches_row (node, row);
  return TRUE;
}
