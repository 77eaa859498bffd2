/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-encoding.c: how indexed values are read, encoded and
 * scored, the entries a row has in the index, the names of the Redis
 * keys, range bounds as Redis takes them, and the row records the Lua
 * script keeps, as C reads them.
 *
 * Keys (base = "prefix:LEN=TABLE", or "prefix:{LEN=TABLE}" with hash tags,
 * where TABLE is the table's name without a "default:" namespace and LEN
 * its length in bytes, in decimal; docs/index-consistency.md says why):
 *   base:x:NAME:VALUE  set of row keys whose column has VALUE (canonical)
 *   base:z:NAME        sorted set of SORTKEY ‖ row key, scored by the value
 *                      (numbers) or 0 (lexicographic indexes)
 *   base:r             hash: row key -> record (entries, pending changes)
 *   base:f             sorted set: rows to read again from HBase, scored by
 *                      when (ms)
 *   base:t:TOKEN       the outcome of one write (A, N or U), with a TTL
 *   base:seq           counter of write starts
 *   base:state         hash: status (ready|building), version, gen */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hbase-index-private.h"

/* --- values ------------------------------------------------------------------------------- */

void
_hbase_index_value_clear (IndexValue *value)
{
  g_clear_pointer (&value->bytes, g_bytes_unref);
}

gboolean
_hbase_index_value_parse (HBaseIndexValueType type, const guint8 *data, gsize len,
                          IndexValue *value)
{
  char text[64];

  memset (value, 0, sizeof *value);
  value->type = type;
  switch (type)
    {
    case HBASE_INDEX_VALUE_STRING:
      value->bytes = g_bytes_new (data, len);
      return TRUE;

    case HBASE_INDEX_VALUE_COUNTER:
      if (len != 8)
        return FALSE;
      {
        guint64 raw;

        memcpy (&raw, data, 8);
        value->i = (gint64) GUINT64_FROM_BE (raw);
      }
      return TRUE;

    case HBASE_INDEX_VALUE_INT64:
      {
        gint64 parsed;

        if (len == 0 || len >= sizeof text || memchr (data, '\0', len) != NULL)
          return FALSE;
        memcpy (text, data, len);
        text[len] = '\0';
        if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &parsed, NULL))
          return FALSE;
        value->i = parsed;
        return TRUE;
      }

    case HBASE_INDEX_VALUE_DOUBLE:
      {
        char *end = NULL;
        double parsed;

        if (len == 0 || len >= sizeof text || memchr (data, '\0', len) != NULL ||
            g_ascii_isspace (data[0]))
          return FALSE;
        memcpy (text, data, len);
        text[len] = '\0';
        parsed = g_ascii_strtod (text, &end);
        if (end != text + len || isnan (parsed))
          return FALSE;
        value->d = parsed == 0.0 ? 0.0 : parsed;   /* -0 is 0 */
        return TRUE;
      }

    default:
      return FALSE;
    }
}

static int
bytes_compare (GBytes *a, GBytes *b)
{
  gsize la, lb;
  const guint8 *da = g_bytes_get_data (a, &la);
  const guint8 *db = g_bytes_get_data (b, &lb);
  int cmp = (la > 0 && lb > 0) ? memcmp (da, db, MIN (la, lb)) : 0;

  if (cmp != 0)
    return cmp;
  return la < lb ? -1 : la > lb ? 1 : 0;
}

int
_hbase_index_value_compare (const IndexValue *a, const IndexValue *b)
{
  switch (a->type)
    {
    case HBASE_INDEX_VALUE_STRING:
      return bytes_compare (a->bytes, b->bytes);
    case HBASE_INDEX_VALUE_DOUBLE:
      return a->d < b->d ? -1 : a->d > b->d ? 1 : 0;
    case HBASE_INDEX_VALUE_INT64:
    case HBASE_INDEX_VALUE_COUNTER:
    default:
      return a->i < b->i ? -1 : a->i > b->i ? 1 : 0;
    }
}

static GBytes *
be64 (guint64 bits)
{
  guint64 be = GUINT64_TO_BE (bits);

  return g_bytes_new (&be, 8);
}

static char *
format_double (double d)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (isinf (d))
    return g_strdup (d > 0 ? "inf" : "-inf");
  return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.17g", d == 0.0 ? 0.0 : d));
}

GBytes *
_hbase_index_value_canonical (const IndexValue *value)
{
  char *text;

  switch (value->type)
    {
    case HBASE_INDEX_VALUE_STRING:
      return g_bytes_ref (value->bytes);
    case HBASE_INDEX_VALUE_COUNTER:
      return be64 ((guint64) value->i);
    case HBASE_INDEX_VALUE_DOUBLE:
      text = format_double (value->d);
      return g_bytes_new_take (text, strlen (text));
    case HBASE_INDEX_VALUE_INT64:
    default:
      text = g_strdup_printf ("%" G_GINT64_FORMAT, value->i);
      return g_bytes_new_take (text, strlen (text));
    }
}

static guint64
double_bits_ordered (double d)
{
  guint64 bits;

  if (d == 0.0)
    d = 0.0;
  memcpy (&bits, &d, 8);
  return (bits & G_GUINT64_CONSTANT (0x8000000000000000)) ? ~bits
                                                          : bits | G_GUINT64_CONSTANT (0x8000000000000000);
}

static GBytes *
escape_string (GBytes *bytes, guint8 terminator)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  GByteArray *out = g_byte_array_sized_new (len + 2);
  const guint8 escaped[2] = { 0x00, 0xff };
  const guint8 end[2] = { 0x00, terminator };

  for (gsize i = 0; i < len; i++)
    if (data[i] == 0x00)
      g_byte_array_append (out, escaped, 2);
    else
      g_byte_array_append (out, &data[i], 1);
  g_byte_array_append (out, end, 2);
  return g_byte_array_free_to_bytes (out);
}

GBytes *
_hbase_index_value_sortkey (const IndexValue *value)
{
  switch (value->type)
    {
    case HBASE_INDEX_VALUE_STRING:
      return escape_string (value->bytes, 0x01);
    case HBASE_INDEX_VALUE_DOUBLE:
      return be64 (double_bits_ordered (value->d));
    case HBASE_INDEX_VALUE_INT64:
    case HBASE_INDEX_VALUE_COUNTER:
    default:
      return be64 ((guint64) value->i ^ G_GUINT64_CONSTANT (0x8000000000000000));
    }
}

char *
_hbase_index_value_score (const IndexColumn *column, const IndexValue *value)
{
  if (_hbase_index_column_is_lex (column))
    return g_strdup ("0");
  if (value->type == HBASE_INDEX_VALUE_DOUBLE)
    return format_double (value->d);
  return format_double ((double) value->i);
}

/* --- entries ------------------------------------------------------------------------------ */

static const char *
column_flags (const IndexColumn *column)
{
  gboolean exact = (column->flags & HBASE_INDEX_EXACT) != 0;
  gboolean range = (column->flags & HBASE_INDEX_RANGE) != 0;

  return exact && range ? "xz" : exact ? "x" : "z";
}

static IndexEntry *
entry_of_value (const IndexColumn *column, const IndexValue *value)
{
  IndexEntry *entry = g_new0 (IndexEntry, 1);

  g_atomic_ref_count_init (&entry->ref_count);
  entry->column = column;
  entry->value = _hbase_index_value_canonical (value);
  if (column->flags & HBASE_INDEX_RANGE)
    {
      entry->sortkey = _hbase_index_value_sortkey (value);
      entry->score = _hbase_index_value_score (column, value);
    }
  entry->flags = column_flags (column);
  return entry;
}

IndexEntry *
_hbase_index_entry_new (const IndexColumn *column, const guint8 *data, gsize len)
{
  IndexValue value;
  IndexEntry *entry;

  if (!_hbase_index_value_parse (column->type, data, len, &value))
    return NULL;
  entry = entry_of_value (column, &value);
  _hbase_index_value_clear (&value);
  return entry;
}

IndexEntry *
_hbase_index_entry_from_member (const IndexColumn *column, const guint8 *member, gsize len,
                                GBytes **row)
{
  IndexValue value;
  IndexEntry *entry;
  guint64 bits;

  *row = _hbase_index_member_row (column, member, len);
  if (*row == NULL)
    return NULL;
  memset (&value, 0, sizeof value);
  value.type = column->type;
  if (column->type == HBASE_INDEX_VALUE_STRING)
    {
      /* the escaped bytes before the 00 01 terminator */
      GByteArray *bytes = g_byte_array_new ();

      for (gsize i = 0; i + 1 < len; i++)
        {
          if (member[i] == 0x00 && member[i + 1] == 0x01)
            break;
          g_byte_array_append (bytes, &member[i], 1);
          if (member[i] == 0x00)
            i++;
        }
      value.bytes = g_byte_array_free_to_bytes (bytes);
    }
  else
    {
      memcpy (&bits, member, 8);
      bits = GUINT64_FROM_BE (bits);
      if (column->type == HBASE_INDEX_VALUE_DOUBLE)
        {
          bits = (bits & G_GUINT64_CONSTANT (0x8000000000000000))
                 ? bits & ~G_GUINT64_CONSTANT (0x8000000000000000) : ~bits;
          memcpy (&value.d, &bits, 8);
        }
      else
        value.i = (gint64) (bits ^ G_GUINT64_CONSTANT (0x8000000000000000));
    }
  entry = entry_of_value (column, &value);
  entry->flags = "z";
  _hbase_index_value_clear (&value);
  return entry;
}

static void
put_be (GByteArray *out, guint64 value, guint size)
{
  guint8 bytes[8];

  for (guint i = 0; i < size; i++)
    bytes[i] = (guint8) (value >> (8 * (size - 1 - i)));
  g_byte_array_append (out, bytes, size);
}

static void
put_bytes (GByteArray *out, const void *data, gsize len)
{
  if (len > 0)
    g_byte_array_append (out, data, (guint) len);
}

GBytes *
_hbase_index_entry_blob (IndexEntry *entry)
{
  if (entry->blob == NULL)
    {
      GByteArray *out = g_byte_array_new ();
      gsize name_len = strlen (entry->column->name);
      guint8 parts = (strchr (entry->flags, 'x') != NULL ? 1 : 0) |
                     (strchr (entry->flags, 'z') != NULL ? 2 : 0);
      gsize score_len = entry->score != NULL ? strlen (entry->score) : 0;

      put_be (out, name_len, 1);
      put_bytes (out, entry->column->name, name_len);
      g_byte_array_append (out, &parts, 1);
      put_be (out, g_bytes_get_size (entry->value), 4);
      put_bytes (out, g_bytes_get_data (entry->value, NULL), g_bytes_get_size (entry->value));
      put_be (out, entry->sortkey != NULL ? g_bytes_get_size (entry->sortkey) : 0, 4);
      if (entry->sortkey != NULL)
        put_bytes (out, g_bytes_get_data (entry->sortkey, NULL), g_bytes_get_size (entry->sortkey));
      put_be (out, score_len, 1);
      put_bytes (out, entry->score, score_len);
      entry->blob = g_byte_array_free_to_bytes (out);
    }
  return entry->blob;
}

void
_hbase_index_append_list (GByteArray *out, GPtrArray *entries)
{
  put_be (out, entries != NULL ? entries->len : 0, 2);
  for (guint i = 0; entries != NULL && i < entries->len; i++)
    {
      GBytes *blob = _hbase_index_entry_blob (g_ptr_array_index (entries, i));

      put_bytes (out, g_bytes_get_data (blob, NULL), g_bytes_get_size (blob));
    }
}

IndexEntry *
_hbase_index_entry_ref (IndexEntry *entry)
{
  g_atomic_ref_count_inc (&entry->ref_count);
  return entry;
}

void
_hbase_index_entry_free (gpointer data)
{
  IndexEntry *entry = data;

  if (entry == NULL || !g_atomic_ref_count_dec (&entry->ref_count))
    return;
  g_clear_pointer (&entry->blob, g_bytes_unref);
  g_clear_pointer (&entry->exact_key, g_bytes_unref);
  g_bytes_unref (entry->value);
  g_clear_pointer (&entry->sortkey, g_bytes_unref);
  g_free (entry->score);
  g_free (entry);
}

const char *
_hbase_index_entry_flags (const IndexEntry *entry)
{
  return entry->flags;
}

GPtrArray *
_hbase_index_row_entries (const HBaseIndexSpec *spec, HBaseRow *row)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func (_hbase_index_entry_free);

  for (guint i = 0; row != NULL && i < spec->columns->len; i++)
    {
      const IndexColumn *column = g_ptr_array_index (spec->columns, i);
      const HBaseCell *cell = hbase_row_lookup_cell_bytes (row, column->family_bytes,
                                                           column->qualifier_bytes);
      IndexEntry *entry;
      GBytes *value;

      if (cell == NULL)
        continue;
      value = hbase_cell_get_value (cell);
      entry = _hbase_index_entry_new (column, g_bytes_get_data (value, NULL),
                                      g_bytes_get_size (value));
      if (entry != NULL)
        g_ptr_array_add (entries, entry);
    }
  return entries;
}

/* --- key names ---------------------------------------------------------------------------- */

char *
_hbase_index_table_normalize (const char *table)
{
  /* "default:NAME" and "NAME" are one table to HBase: one key space and one
   * definitions row, whichever spelling a caller uses */
  if (g_str_has_prefix (table, "default:") && table[strlen ("default:")] != '\0')
    return g_strdup (table + strlen ("default:"));
  return g_strdup (table);
}

char *
_hbase_index_table_encode (const char *table)
{
  g_autofree char *name = _hbase_index_table_normalize (table);

  /* LENGTH=NAME is self-delimiting whatever NAME holds, so no table's
   * encoding is a prefix of another's; '=' is no character of a table
   * name, so no key of the former "prefix:table" layout starts like it */
  return g_strdup_printf ("%" G_GSIZE_FORMAT "=%s", strlen (name), name);
}

char *
_hbase_index_key_base (const HBaseIndexSpec *spec, const char *table)
{
  g_autofree char *encoded = _hbase_index_table_encode (table);

  return g_strdup_printf (spec->hash_tag ? "%s:{%s}" : "%s:%s", spec->prefix, encoded);
}

char *
_hbase_index_legacy_key_base (const HBaseIndexSpec *spec, const char *table)
{
  return g_strdup_printf (spec->hash_tag ? "%s:{%s}" : "%s:%s", spec->prefix, table);
}

char *
_hbase_index_glob_escape (const char *text)
{
  GString *out = g_string_sized_new (strlen (text) + 8);

  for (const char *c = text; *c != '\0'; c++)
    {
      if (strchr ("*?[]\\", *c) != NULL)
        g_string_append_c (out, '\\');
      g_string_append_c (out, *c);
    }
  return g_string_free (out, FALSE);
}

char *
_hbase_index_key_pattern (const char *base, const char *suffix)
{
  g_autofree char *escaped = _hbase_index_glob_escape (base);
  g_autofree char *escaped_suffix = _hbase_index_glob_escape (suffix != NULL ? suffix : "");

  return g_strconcat (escaped, ":", escaped_suffix, "*", NULL);
}

char *
_hbase_index_key (const char *base, const char *suffix)
{
  return g_strconcat (base, ":", suffix, NULL);
}

GBytes *
_hbase_index_exact_key (const char *base, const char *name, GBytes *canonical)
{
  GByteArray *key = g_byte_array_new ();
  gsize len;
  const guint8 *data = g_bytes_get_data (canonical, &len);

  g_byte_array_append (key, (const guint8 *) base, strlen (base));
  g_byte_array_append (key, (const guint8 *) ":x:", 3);
  g_byte_array_append (key, (const guint8 *) name, strlen (name));
  g_byte_array_append (key, (const guint8 *) ":", 1);
  if (len > 0)
    g_byte_array_append (key, data, len);
  return g_byte_array_free_to_bytes (key);
}

char *
_hbase_index_range_key (const char *base, const char *name)
{
  return g_strconcat (base, ":z:", name, NULL);
}

GBytes *
_hbase_index_member_row (const IndexColumn *column, const guint8 *member, gsize len)
{
  /* the sort key of -0.0: the index writes 0.0 for it, so a member
   * holding it is not one of ours (and would not encode back to itself) */
  static const guint8 negative_zero[8] = { 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

  if (column->type == HBASE_INDEX_VALUE_DOUBLE && len > 8 && memcmp (member, negative_zero, 8) == 0)
    return NULL;
  if (column->type != HBASE_INDEX_VALUE_STRING)
    return len > 8 ? g_bytes_new (member + 8, len - 8) : NULL;
  for (gsize i = 0; i + 1 < len; i++)
    if (member[i] == 0x00)
      {
        if (member[i + 1] == 0x01)
          return i + 2 < len ? g_bytes_new (member + i + 2, len - i - 2) : NULL;
        if (member[i + 1] != 0xff)
          return NULL;
        i++;
      }
  return NULL;
}

/* --- range bounds ------------------------------------------------------------------------ */

#define TWO_POW_53 9007199254740992.0
#define TWO_POW_63 9223372036854775808.0

/* @i as a double no greater (@down) or no less than @i. */
static double
int_to_double_outward (gint64 i, gboolean down)
{
  double d = (double) i;

  if (down)
    {
      if (d >= TWO_POW_63 || (gint64) d > i)
        d = nextafter (d, -INFINITY);
    }
  else if (d < TWO_POW_63 && (gint64) d < i)
    d = nextafter (d, INFINITY);
  return d;
}

static GBytes *
text_bytes (char *text)
{
  return g_bytes_new_take (text, strlen (text));
}

static GBytes *
prefixed (char prefix, GBytes *bytes)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);
  GByteArray *out = g_byte_array_sized_new (len + 1);

  g_byte_array_append (out, (const guint8 *) &prefix, 1);
  g_byte_array_append (out, data, len);
  g_bytes_unref (bytes);
  return g_byte_array_free_to_bytes (out);
}

static GBytes *
score_bound (const IndexValue *value, gboolean inclusive, gboolean is_min)
{
  double d;

  if (value == NULL)
    return text_bytes (g_strdup (is_min ? "-inf" : "+inf"));
  if (value->type == HBASE_INDEX_VALUE_DOUBLE)
    d = value->d;
  else if (value->i >= -(gint64) TWO_POW_53 && value->i <= (gint64) TWO_POW_53)
    d = (double) value->i;
  else
    {
      /* the scores of such values are rounded: widen to the nearest
       * representable bound, inclusive; the rows are checked again */
      d = int_to_double_outward (value->i, is_min);
      inclusive = TRUE;
    }
  {
    g_autofree char *number = format_double (d);

    return text_bytes (g_strdup_printf ("%s%s", inclusive ? "" : "(", number));
  }
}

/* A copy of @value moved to the next representable value (up). */
static gboolean
value_next (const IndexValue *value, IndexValue *next)
{
  *next = *value;
  next->bytes = NULL;
  if (value->type == HBASE_INDEX_VALUE_DOUBLE)
    {
      if (isinf (value->d) && value->d > 0)
        return FALSE;
      next->d = nextafter (value->d, INFINITY);
      return TRUE;
    }
  if (value->i == G_MAXINT64)
    return FALSE;
  next->i = value->i + 1;
  return TRUE;
}

gboolean
_hbase_index_range_bounds (const IndexColumn *column, const IndexValue *min, gboolean min_inclusive,
                           const IndexValue *max, gboolean max_inclusive, GBytes **redis_min,
                           GBytes **redis_max)
{
  *redis_min = NULL;
  *redis_max = NULL;
  if (min != NULL && max != NULL)
    {
      int cmp = _hbase_index_value_compare (min, max);

      if (cmp > 0 || (cmp == 0 && (!min_inclusive || !max_inclusive)))
        return FALSE;
    }
  if (!_hbase_index_column_is_lex (column))
    {
      *redis_min = score_bound (min, min_inclusive, TRUE);
      *redis_max = score_bound (max, max_inclusive, FALSE);
      return TRUE;
    }
  if (column->type == HBASE_INDEX_VALUE_STRING)
    {
      *redis_min = min == NULL ? text_bytes (g_strdup ("-"))
                               : prefixed ('[', escape_string (min->bytes, min_inclusive ? 0x01 : 0x02));
      *redis_max = max == NULL ? text_bytes (g_strdup ("+"))
                               : prefixed ('(', escape_string (max->bytes, max_inclusive ? 0x02 : 0x01));
      return TRUE;
    }
  /* numbers: members are SORTKEY(8) ‖ row; bounds on the next value */
  if (min == NULL)
    *redis_min = text_bytes (g_strdup ("-"));
  else if (min_inclusive)
    *redis_min = prefixed ('[', _hbase_index_value_sortkey (min));
  else
    {
      IndexValue next;

      if (!value_next (min, &next))
        return FALSE;
      *redis_min = prefixed ('[', _hbase_index_value_sortkey (&next));
    }
  if (max == NULL)
    *redis_max = text_bytes (g_strdup ("+"));
  else if (!max_inclusive)
    *redis_max = prefixed ('(', _hbase_index_value_sortkey (max));
  else
    {
      IndexValue next;

      if (value_next (max, &next))
        *redis_max = prefixed ('(', _hbase_index_value_sortkey (&next));
      else
        *redis_max = text_bytes (g_strdup ("+"));
    }
  return TRUE;
}

/* --- records ------------------------------------------------------------------------------ */

/* A reader of the record's struct-packed fields. */
typedef struct {
  const guint8 *data;
  gsize len, pos;
} Reader;

static gboolean
get_be (Reader *reader, guint size, guint64 *value)
{
  if (reader->len - reader->pos < size)
    return FALSE;
  *value = 0;
  for (guint i = 0; i < size; i++)
    *value = (*value << 8) | reader->data[reader->pos + i];
  reader->pos += size;
  return TRUE;
}

/* A length of @size bytes, then that many bytes. */
static gboolean
get_field (Reader *reader, guint size, const guint8 **field, gsize *field_len)
{
  guint64 len;

  if (!get_be (reader, size, &len) || len > reader->len - reader->pos)
    return FALSE;
  *field = reader->data + reader->pos;
  *field_len = (gsize) len;
  reader->pos += (gsize) len;
  return TRUE;
}

static void
record_entry_free (gpointer data)
{
  RecordEntry *entry = data;

  g_free (entry->name);
  g_bytes_unref (entry->value);
  g_free (entry);
}

/* @count entry blobs; kept in @into when not NULL. */
static gboolean
get_entries (Reader *reader, guint64 count, GPtrArray *into)
{
  for (guint64 i = 0; i < count; i++)
    {
      const guint8 *name, *value, *skip;
      gsize name_len, value_len, skip_len;
      guint64 parts;

      if (!get_field (reader, 1, &name, &name_len) || !get_be (reader, 1, &parts) ||
          !get_field (reader, 4, &value, &value_len) || !get_field (reader, 4, &skip, &skip_len) ||
          !get_field (reader, 1, &skip, &skip_len))
        return FALSE;
      if (into != NULL)
        {
          RecordEntry *entry = g_new0 (RecordEntry, 1);

          entry->name = g_strndup ((const char *) name, name_len);
          entry->value = g_bytes_new (value, value_len);
          g_ptr_array_add (into, entry);
        }
    }
  return TRUE;
}

gboolean
_hbase_index_record_parse (const char *data, gsize len, IndexRecord *record)
{
  Reader reader = { (const guint8 *) data, len, 0 };
  guint64 tag, bits, count;
  double seq;

  memset (record, 0, sizeof *record);
  record->entries = g_ptr_array_new_with_free_func (record_entry_free);
  record->tokens = g_ptr_array_new_with_free_func (g_free);
  if (!get_be (&reader, 1, &tag) || tag != 'R' || !get_be (&reader, 8, &bits) ||
      !get_be (&reader, 2, &count) || !get_entries (&reader, count, record->entries) ||
      !get_be (&reader, 2, &count) || (count != 0xffff && !get_entries (&reader, count, NULL)) ||
      !get_be (&reader, 1, &count))
    goto bad;
  memcpy (&seq, &bits, 8);
  record->seq = g_strdup_printf ("%.0f", seq);
  record->needs_fix = count > 0;
  for (guint64 i = 0; i < count; i++)
    {
      const guint8 *name;
      gsize name_len;

      if (!get_field (&reader, 1, &name, &name_len))
        goto bad;
    }
  if (!get_be (&reader, 2, &count))
    goto bad;
  record->n_pending = (guint) count;
  for (guint64 i = 0; i < count; i++)
    {
      const guint8 *token, *outcome, *ops;
      gsize token_len, outcome_len, ops_len;
      guint64 deadline, contended;

      if (!get_field (&reader, 1, &token, &token_len) || !get_be (&reader, 8, &deadline) ||
          !get_be (&reader, 1, &contended) || !get_field (&reader, 1, &outcome, &outcome_len) ||
          !get_field (&reader, 4, &ops, &ops_len))
        goto bad;
      if (outcome_len > 0)
        record->n_in_doubt++;
      else
        g_ptr_array_add (record->tokens, g_strndup ((const char *) token, token_len));
    }
  if (reader.pos == reader.len)
    return TRUE;

bad:
  _hbase_index_record_clear (record);
  return FALSE;
}

void
_hbase_index_record_clear (IndexRecord *record)
{
  g_clear_pointer (&record->seq, g_free);
  g_clear_pointer (&record->entries, g_ptr_array_unref);
  g_clear_pointer (&record->tokens, g_ptr_array_unref);
}
