/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-structures-io.c: encodings, the meta cell, reads and the
 * compare-and-set write shared by sets and sorted sets.  See
 * hbase-structures-private.h and docs/structures-layout.md. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hbase-structures-private.h"

/* --- encodings --------------------------------------------------------------------------- */

void
_hbase_score_encode (gdouble score, guint8 *out)
{
  guint64 bits;

  if (score == 0.0)
    score = 0.0;  /* -0.0 == 0.0: both become +0.0 */
  memcpy (&bits, &score, sizeof bits);
  if (bits >> 63)
    bits = ~bits;
  else
    bits |= G_GUINT64_CONSTANT (1) << 63;
  for (guint i = 0; i < 8; i++)
    out[i] = (guint8) (bits >> (56 - 8 * i));
}

gdouble
_hbase_score_decode (const guint8 *in)
{
  guint64 bits = 0;
  gdouble score;

  for (guint i = 0; i < 8; i++)
    bits = (bits << 8) | in[i];
  if (bits >> 63)
    bits &= ~(G_GUINT64_CONSTANT (1) << 63);
  else
    bits = ~bits;
  memcpy (&score, &bits, sizeof score);
  return score;
}

void
_hbase_desc_member_append (GByteArray *out, const guint8 *member, gsize len)
{
  static const guint8 escaped_nul[2] = { 0xFF, 0x00 };  /* ~0x00 ~0xFF */
  static const guint8 end[2] = { 0xFF, 0xFF };          /* ~0x00 ~0x00 */

  for (gsize i = 0; i < len; i++)
    {
      if (member[i] == 0)
        g_byte_array_append (out, escaped_nul, 2);
      else
        {
          guint8 c = (guint8) ~member[i];

          g_byte_array_append (out, &c, 1);
        }
    }
  g_byte_array_append (out, end, 2);
}

GBytes *
_hbase_desc_member_decode (const guint8 *data, gsize len)
{
  g_autoptr(GByteArray) member = g_byte_array_sized_new ((guint) len);

  for (gsize i = 0; i < len; i++)
    {
      guint8 c = (guint8) ~data[i];
      guint8 next;

      if (c != 0)
        {
          g_byte_array_append (member, &c, 1);
          continue;
        }
      if (i + 1 >= len)
        return NULL;
      next = (guint8) ~data[i + 1];
      if (next == 0x00)
        return i + 2 == len ? g_byte_array_free_to_bytes (g_steal_pointer (&member)) : NULL;
      if (next != 0xFF)
        return NULL;
      g_byte_array_append (member, &c, 1);
      i++;
    }
  return NULL;  /* no end mark */
}

guint32
_hbase_member_hash (const guint8 *member, gsize len)
{
  guint32 hash = 2166136261u;

  for (gsize i = 0; i < len; i++)
    {
      hash ^= member[i];
      hash *= 16777619u;
    }
  return hash;
}

int
_hbase_bytes_compare (const guint8 *a, gsize a_len, const guint8 *b, gsize b_len)
{
  int cmp = MIN (a_len, b_len) > 0 ? memcmp (a, b, MIN (a_len, b_len)) : 0;

  if (cmp != 0)
    return cmp;
  return a_len < b_len ? -1 : a_len > b_len ? 1 : 0;
}

gint
_hbase_gbytes_compare (gconstpointer a, gconstpointer b)
{
  gsize a_len, b_len;
  const guint8 *a_data = g_bytes_get_data ((GBytes *) a, &a_len);
  const guint8 *b_data = g_bytes_get_data ((GBytes *) b, &b_len);

  return _hbase_bytes_compare (a_data, a_len, b_data, b_len);
}

/* --- the meta cell ------------------------------------------------------------------------ */

static void
put_be (guint8 *out, guint64 value, guint n)
{
  for (guint i = 0; i < n; i++)
    out[i] = (guint8) (value >> (8 * (n - 1 - i)));
}

static guint64
get_be (const guint8 *in, guint n)
{
  guint64 value = 0;

  for (guint i = 0; i < n; i++)
    value = (value << 8) | in[i];
  return value;
}

static const char *
kind_name (guint8 kind)
{
  return kind == STRUCT_KIND_SET ? "a set" : kind == STRUCT_KIND_ZSET ? "a sorted set"
                                                                      : "an unknown structure";
}

gboolean
_hbase_meta_parse (const guint8 *data, gsize len, guint8 kind, guint16 shards, StructMeta *meta,
                   GError **error)
{
  memset (meta, 0, sizeof *meta);
  if (len != STRUCT_META_SIZE || data[17] != STRUCT_META_FORMAT)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                   "the meta cell '#' is not one hbase-glib wrote (%" G_GSIZE_FORMAT " bytes, "
                   "expected %d of format %d): is the row used for something else?",
                   len, STRUCT_META_SIZE, STRUCT_META_FORMAT);
      return FALSE;
    }
  meta->present = TRUE;
  meta->card = (gint64) get_be (data, 8);
  meta->clock = (gint64) get_be (data + 8, 8);
  meta->kind = data[16];
  meta->shards = (guint16) get_be (data + 18, 2);
  meta->nonce = (guint32) get_be (data + 20, 4);
  memcpy (meta->raw, data, STRUCT_META_SIZE);
  if (meta->kind != kind)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA, "the row holds %s, not %s",
                   kind_name (meta->kind), kind_name (kind));
      return FALSE;
    }
  if (meta->shards != shards)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                   "the set was written with %u shard(s), opened with %u", meta->shards, shards);
      return FALSE;
    }
  /* a change adds at most a call's members to the cardinality: far from
   * overflowing any cardinality a table can hold */
  if (meta->card < 0 || meta->card > G_MAXINT64 / 2)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                   "the meta cell holds an impossible cardinality (%" G_GINT64_FORMAT ")",
                   meta->card);
      return FALSE;
    }
  /* the clock is a cell timestamp, and the next change's is one more */
  if (meta->clock < 0 || meta->clock == G_MAXINT64)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA,
                   "the meta cell holds an impossible clock (%" G_GINT64_FORMAT ")", meta->clock);
      return FALSE;
    }
  return TRUE;
}

void
_hbase_meta_next (const StructMeta *old, guint8 kind, guint16 shards, gint64 card,
                  gint64 min_clock, StructMeta *next)
{
  gint64 now = g_get_real_time () / 1000;
  /* G_MAXINT64 - 1 at most, the largest clock _hbase_meta_parse() takes
   * (reached only from corrupt cells: the clock is milliseconds) */
  gint64 clock = MAX (now, MIN (min_clock, G_MAXINT64 - 1));

  if (old != NULL && old->present && old->clock < G_MAXINT64 - 1)
    clock = MAX (clock, old->clock + 1);
  else if (old != NULL && old->present)
    clock = G_MAXINT64 - 1;
  memset (next, 0, sizeof *next);
  next->present = TRUE;
  next->card = card;
  next->clock = clock;
  next->kind = kind;
  next->shards = shards;
  next->nonce = g_random_int ();
  put_be (next->raw, (guint64) card, 8);
  put_be (next->raw + 8, (guint64) clock, 8);
  next->raw[16] = kind;
  next->raw[17] = STRUCT_META_FORMAT;
  put_be (next->raw + 18, shards, 2);
  put_be (next->raw + 20, next->nonce, 4);
}

/* --- the store ---------------------------------------------------------------------------- */

gboolean
_hbase_store_init (StructStore *store, HBaseTable *table, const char *family,
                   const char *default_family, GError **error)
{
  memset (store, 0, sizeof *store);
  if (!_hbase_table_check (table, error))
    return FALSE;
  if (family == NULL)
    family = default_family;
  if (family[0] == '\0')
    return _hbase_illegal (error, "the family name is empty");
  if (strchr (family, ':') != NULL)
    return _hbase_illegal (error, "the family name \"%s\" contains ':'", family);
  store->table = g_object_ref (table);
  store->family_name = g_strdup (family);
  store->family = _hbase_byte_array_from_string (family);
  return TRUE;
}

void
_hbase_store_clear (StructStore *store)
{
  g_clear_object (&store->table);
  g_clear_pointer (&store->family, g_byte_array_unref);
  g_clear_pointer (&store->family_name, g_free);
}

void
_hbase_store_copy (StructStore *dest, const StructStore *src)
{
  dest->table = g_object_ref (src->table);
  dest->family = g_byte_array_ref (src->family);
  dest->family_name = g_strdup (src->family_name);
}

/* --- reads -------------------------------------------------------------------------------- */

static GByteArray *
array_of (const guint8 *data, gsize len)
{
  GByteArray *array = g_byte_array_sized_new ((guint) len);

  if (len > 0)
    g_byte_array_append (array, data, (guint) len);
  return array;
}

HbaseThriftTGet *
_hbase_sget_new (const StructStore *store, const guint8 *row, gsize row_len)
{
  HbaseThriftTGet *get = g_object_new (HBASE_THRIFT_TYPE_T_GET, NULL);

  get->row = array_of (row, row_len);
  get->maxVersions = 1;
  get->__isset_maxVersions = TRUE;
  return get;
}

void
_hbase_sget_add_column (HbaseThriftTGet *get, const StructStore *store, const guint8 *qualifier,
                        gsize len)
{
  HbaseThriftTColumn *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);

  column->family = g_byte_array_ref (store->family);
  column->qualifier = array_of (qualifier, len);
  column->__isset_qualifier = TRUE;
  g_ptr_array_add (get->columns, column);
  get->__isset_columns = TRUE;
}

/* Protocol Buffers, as much as HBase's Filter messages need. */
static void
pb_varint (GByteArray *out, guint64 value)
{
  do
    {
      guint8 c = value & 0x7f;

      value >>= 7;
      if (value != 0)
        c |= 0x80;
      g_byte_array_append (out, &c, 1);
    }
  while (value != 0);
}

static void
pb_bytes (GByteArray *out, guint field, const guint8 *data, gsize len)
{
  pb_varint (out, (field << 3) | 2);
  pb_varint (out, len);
  if (len > 0)
    g_byte_array_append (out, data, (guint) len);
}

static void
pb_bool (GByteArray *out, guint field, gboolean value)
{
  pb_varint (out, field << 3);
  pb_varint (out, value ? 1 : 0);
}

/* A serialized FilterProtos.Filter of a ColumnRangeFilter. */
static GByteArray *
column_range_filter (const guint8 *lo, gsize lo_len, gboolean lo_inclusive, const guint8 *hi,
                     gsize hi_len, gboolean hi_inclusive)
{
  static const char name[] = "org.apache.hadoop.hbase.filter.ColumnRangeFilter";
  g_autoptr(GByteArray) range = g_byte_array_new ();
  GByteArray *filter = g_byte_array_new ();

  if (lo != NULL)
    pb_bytes (range, 1, lo, lo_len);
  pb_bool (range, 2, lo_inclusive);
  if (hi != NULL)
    pb_bytes (range, 3, hi, hi_len);
  pb_bool (range, 4, hi_inclusive);
  pb_bytes (filter, 1, (const guint8 *) name, sizeof name - 1);
  pb_bytes (filter, 2, range->data, range->len);
  return filter;
}

void
_hbase_sget_set_range (HbaseThriftTGet *get, const guint8 *lo, gsize lo_len,
                       gboolean lo_inclusive, const guint8 *hi, gsize hi_len,
                       gboolean hi_inclusive, guint offset, guint limit)
{
  if (lo != NULL || hi != NULL)
    {
      g_clear_pointer (&get->filterBytes, g_byte_array_unref);
      get->filterBytes = column_range_filter (lo, lo_len, lo_inclusive, hi, hi_len, hi_inclusive);
      get->__isset_filterBytes = TRUE;
    }
  if (offset > 0)
    {
      get->storeOffset = (gint32) MIN (offset, (guint) G_MAXINT32);
      get->__isset_storeOffset = TRUE;
    }
  if (limit > 0)
    {
      get->storeLimit = (gint32) MIN (limit, (guint) G_MAXINT32);
      get->__isset_storeLimit = TRUE;
    }
}

/* A family the table lacks fails every read and write of the structure
 * with HBase's NoSuchColumnFamilyException (HBASE_ERROR_NOT_FOUND, the
 * table's whole description in the server's text): said in one line
 * naming both, the server's text kept with the error. */
static void
name_missing_family (const StructStore *store, GError **error)
{
  GError *local = error != NULL ? *error : NULL;

  if (local == NULL || !_hbase_error_is_missing_family (local))
    return;
  g_free (local->message);
  local->message = g_strdup_printf ("table '%s' has no column family '%s'",
                                    hbase_table_get_name (store->table), store->family_name);
}

GPtrArray *
_hbase_sget_run (const StructStore *store, GPtrArray *gets, GCancellable *cancellable,
                 GError **error)
{
  GPtrArray *results = _hbase_table_get_generated (store->table, gets, cancellable, error);

  if (results == NULL)
    name_missing_family (store, error);
  return results;
}

HbaseThriftTColumnValue *
_hbase_result_find (HbaseThriftTResult *result, const guint8 *qualifier, gsize len)
{
  GPtrArray *values = result->columnValues;
  guint low = 0, high = values != NULL ? values->len : 0;

  /* cells come sorted by (family, qualifier), one family here */
  while (low < high)
    {
      guint mid = low + (high - low) / 2;
      HbaseThriftTColumnValue *value = g_ptr_array_index (values, mid);
      int cmp = _hbase_bytes_compare (value->qualifier->data, value->qualifier->len, qualifier,
                                      len);

      if (cmp == 0)
        return value;
      if (cmp < 0)
        low = mid + 1;
      else
        high = mid;
    }
  return NULL;
}

gboolean
_hbase_result_meta (HbaseThriftTResult *result, guint8 kind, guint16 shards, StructMeta *meta,
                    GError **error)
{
  static const guint8 qualifier[1] = { STRUCT_META_QUALIFIER };
  HbaseThriftTColumnValue *cell = _hbase_result_find (result, qualifier, 1);

  memset (meta, 0, sizeof *meta);
  if (cell == NULL)
    return TRUE;
  return _hbase_meta_parse (cell->value->data, cell->value->len, kind, shards, meta, error);
}

gint64
_hbase_result_max_timestamp (HbaseThriftTResult *result)
{
  gint64 max = 0;

  for (guint i = 0; result->columnValues != NULL && i < result->columnValues->len; i++)
    {
      HbaseThriftTColumnValue *value = g_ptr_array_index (result->columnValues, i);

      max = MAX (max, value->timestamp);
    }
  /* callers add one for the next write: a timestamp from a broken server
   * must not overflow */
  return MIN (max, G_MAXINT64 - 1);
}

/* --- writes ------------------------------------------------------------------------------- */

void
_hbase_change_init (StructChange *change)
{
  change->puts = g_ptr_array_new_with_free_func (g_object_unref);
  change->deletes = g_ptr_array_new_with_free_func (g_object_unref);
  change->delete_family = FALSE;
}

void
_hbase_change_clear (StructChange *change)
{
  g_clear_pointer (&change->puts, g_ptr_array_unref);
  g_clear_pointer (&change->deletes, g_ptr_array_unref);
}

void
_hbase_change_put (StructChange *change, const StructStore *store, const guint8 *qualifier,
                   gsize qualifier_len, const guint8 *value, gsize value_len)
{
  HbaseThriftTColumnValue *cell = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_VALUE, NULL);

  cell->family = g_byte_array_ref (store->family);
  cell->qualifier = array_of (qualifier, qualifier_len);
  cell->value = array_of (value, value_len);
  g_ptr_array_add (change->puts, cell);
}

void
_hbase_change_delete (StructChange *change, const StructStore *store, const guint8 *qualifier,
                      gsize qualifier_len)
{
  HbaseThriftTColumn *column = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN, NULL);

  column->family = g_byte_array_ref (store->family);
  column->qualifier = array_of (qualifier, qualifier_len);
  column->__isset_qualifier = TRUE;
  g_ptr_array_add (change->deletes, column);
}

/* After a failed checkAndMutate: whether it was applied, from the meta
 * cell (its nonce and clock never repeat).  -1: cannot tell. */
static int
resolve_outcome (const StructStore *store, const guint8 *row, gsize row_len,
                 const StructMeta *old, const StructMeta *next, GCancellable *cancellable)
{
  static const guint8 qualifier[1] = { STRUCT_META_QUALIFIER };
  g_autoptr(GPtrArray) gets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) results = NULL;
  HbaseThriftTColumnValue *cell;
  HbaseThriftTGet *get = _hbase_sget_new (store, row, row_len);

  _hbase_sget_add_column (get, store, qualifier, 1);
  g_ptr_array_add (gets, get);
  results = _hbase_sget_run (store, gets, cancellable, NULL);
  if (results == NULL)
    return -1;
  cell = _hbase_result_find (g_ptr_array_index (results, 0), qualifier, 1);
  if (cell != NULL && cell->value->len == STRUCT_META_SIZE &&
      memcmp (cell->value->data, next->raw, STRUCT_META_SIZE) == 0)
    return 1;
  if ((cell == NULL && !old->present) ||
      (cell != NULL && old->present && cell->value->len == STRUCT_META_SIZE &&
       memcmp (cell->value->data, old->raw, STRUCT_META_SIZE) == 0))
    return 0;
  return -1;
}

static GBytes *
bytes_of_array (const GByteArray *array)
{
  return g_bytes_new (array != NULL ? array->data : NULL, array != NULL ? array->len : 0);
}

/* The change as the table's mutations of @row: a put of every cell at
 * @next->clock, then a delete of the columns and one of the family, each
 * of every version up to the one before. */
static GPtrArray *
change_mutations (const StructStore *store, GBytes *row, const StructMeta *next,
                  const StructChange *change)
{
  GPtrArray *mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
  g_autoptr(GBytes) family = bytes_of_array (store->family);
  HBaseMutation *put = hbase_mutation_new_put (row);

  for (guint i = 0; i < change->puts->len; i++)
    {
      HbaseThriftTColumnValue *cell = g_ptr_array_index (change->puts, i);
      g_autoptr(GBytes) qualifier = bytes_of_array (cell->qualifier);
      g_autoptr(GBytes) value = bytes_of_array (cell->value);

      hbase_mutation_put_bytes (put, family, qualifier, value, next->clock);
    }
  g_ptr_array_add (mutations, put);

  if (change->deletes->len > 0)
    {
      HBaseMutation *delete = hbase_mutation_new_delete (row);

      hbase_mutation_set_timestamp (delete, next->clock - 1);
      for (guint i = 0; i < change->deletes->len; i++)
        {
          HbaseThriftTColumn *column = g_ptr_array_index (change->deletes, i);
          g_autoptr(GBytes) qualifier = bytes_of_array (column->qualifier);

          hbase_mutation_delete_column_bytes (delete, family, qualifier);
        }
      g_ptr_array_add (mutations, delete);
    }

  if (change->delete_family)
    {
      HBaseMutation *delete = hbase_mutation_new_delete (row);

      hbase_mutation_set_timestamp (delete, next->clock - 1);
      hbase_mutation_delete_family (delete, store->family_name);
      g_ptr_array_add (mutations, delete);
    }
  return mutations;
}

gboolean
_hbase_change_commit (const StructStore *store, const guint8 *row, gsize row_len,
                      const StructMeta *old, const StructMeta *next, StructChange *change,
                      gboolean *applied, GCancellable *cancellable, GError **error)
{
  static const guint8 meta_qualifier[1] = { STRUCT_META_QUALIFIER };
  g_autoptr(GBytes) row_bytes = g_bytes_new (row, row_len);
  g_autoptr(GBytes) family = bytes_of_array (store->family);
  g_autoptr(GBytes) qualifier = g_bytes_new_static (meta_qualifier, 1);
  /* an empty value: "the cell is absent" */
  g_autoptr(GBytes) value = old->present ? g_bytes_new (old->raw, STRUCT_META_SIZE) : NULL;
  g_autoptr(HBaseCondition) condition = hbase_condition_new_bytes (family, qualifier,
                                                                   HBASE_COMPARE_EQUAL, value);
  g_autoptr(GPtrArray) mutations = NULL;
  GError *local = NULL;
  gboolean attempted = FALSE;
  int outcome;

  *applied = FALSE;
  /* the meta put is not kept in the change: a retry builds a new one */
  _hbase_change_put (change, store, meta_qualifier, 1, next->raw, STRUCT_META_SIZE);
  mutations = change_mutations (store, row_bytes, next, change);
  g_ptr_array_remove_index (change->puts, change->puts->len - 1);

  /* through the table, so that its write hooks see the change */
  if (_hbase_table_check_and_mutate_attempt (store->table, condition, mutations, applied,
                                             &attempted, cancellable, &local))
    return TRUE;
  if (!attempted ||   /* refused before sending (a write hook): nothing changed */
      g_error_matches (local, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT) ||
      g_error_matches (local, HBASE_ERROR, HBASE_ERROR_NOT_FOUND) ||
      g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, local);
      name_missing_family (store, error);
      return FALSE;
    }
  /* the request may have reached HBase: the meta cell tells */
  outcome = resolve_outcome (store, row, row_len, old, next, NULL);
  if (outcome >= 0)
    {
      g_error_free (local);
      *applied = outcome == 1;
      return TRUE;
    }
  g_propagate_prefixed_error (error, local, "the change may or may not have been applied: ");
  return FALSE;
}

gboolean
_hbase_conflict_backoff (const StructStore *store, guint attempt, gint64 start,
                         GCancellable *cancellable, GError **error)
{
  const HBaseConfig *config = hbase_client_get_config (hbase_table_get_client (store->table));
  gint64 timeout_us = (gint64) hbase_config_get_operation_timeout (config) * 1000;
  gint64 elapsed = g_get_monotonic_time () - start;
  guint max_ms = 1u << MIN (attempt, 6u);   /* up to 64 ms */

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (elapsed > timeout_us)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                   "gave up after %u conflicting writes to the same row in %" G_GINT64_FORMAT
                   " ms", attempt, elapsed / 1000);
      return FALSE;
    }
  if (attempt > 0)
    g_usleep ((gulong) g_random_int_range (0, (gint32) max_ms * 1000 + 1));
  return TRUE;
}

/* --- checks ------------------------------------------------------------------------------- */

gboolean
_hbase_check_members (GPtrArray *members, gsize max_size, GError **error)
{
  if (members == NULL)
    return _hbase_illegal (error, "the list of members is NULL");
  for (guint i = 0; i < members->len; i++)
    {
      GBytes *member = g_ptr_array_index (members, i);

      if (member == NULL)
        return _hbase_illegal (error, "member %u of %u is NULL", i, members->len);
      if (g_bytes_get_size (member) > max_size)
        return _hbase_illegal (error, "member %u is %" G_GSIZE_FORMAT " bytes long; the largest "
                               "is %" G_GSIZE_FORMAT, i, g_bytes_get_size (member), max_size);
    }
  return TRUE;
}
