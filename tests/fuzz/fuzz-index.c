/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-index.c: the Redis index's decoders (src/index/hbase-index-spec.c,
 * hbase-index-encoding.c)
 * on any bytes: index definitions as stored in HBase, row records as the
 * Lua script stores them in Redis, cell values, sorted-set members.
 *
 * Input: byte 0 chooses what the rest is read as (low 3 bits) and the
 * column's value type and flags (high bits).
 *
 * Checked: definitions that load save to the same text and load again;
 * a record parses or is cleared; a cell value that parses gives an entry
 * whose sorted-set member decodes back to the same value and row; a
 * member decodes exactly when its row can be found in it, and then
 * encodes back to the same bytes.
 *
 * Every input is also read as two table names (split at the first NUL)
 * and checked: the key spaces (base and ':') of two names that are not
 * one table once normalized are no prefix of one another, with and
 * without hash tags; one table's spellings share one base; an exact key
 * decodes back to its table, index and value (no two tuples give one
 * key); the SCAN MATCH pattern of a key space matches exactly its keys. */
#include "config.h"

#include <string.h>

#include "hbase-index-private.h"
#include "fuzz-support.h"

static void
check_definitions (FuzzInput *in)
{
  g_autofree char *text = g_strndup ((const char *) in->data, in->size);
  g_autoptr(HBaseIndexSpec) spec = NULL;
  g_autoptr(HBaseIndexSpec) again = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *saved_again = NULL;
  GError *error = NULL;

  spec = hbase_index_spec_new_from_data (text, &error);
  fuzz_check_outcome ("hbase_index_spec_new_from_data", spec != NULL, &error);
  if (spec == NULL)
    return;
  saved = hbase_index_spec_to_data (spec);
  again = hbase_index_spec_new_from_data (saved, &error);
  fuzz_check_outcome ("hbase_index_spec_new_from_data (saved)", again != NULL, &error);
  fuzz_assert (again != NULL, "saved definitions do not load");
  saved_again = hbase_index_spec_to_data (again);
  fuzz_assert (strcmp (saved, saved_again) == 0, "definitions change when saved and loaded");
  fuzz_assert (hbase_index_spec_get_n_indexes (spec) == hbase_index_spec_get_n_indexes (again),
               "the number of indexes changes when saved and loaded");
}

static void
check_record (FuzzInput *in)
{
  IndexRecord record;

  if (_hbase_index_record_parse ((const char *) in->data, in->size, &record))
    {
      fuzz_assert (record.seq != NULL && record.entries != NULL && record.tokens != NULL,
                   "a parsed record lacks a part");
      for (guint i = 0; i < record.entries->len; i++)
        {
          RecordEntry *entry = g_ptr_array_index (record.entries, i);

          fuzz_assert (entry->name != NULL && entry->value != NULL, "a record entry lacks a part");
        }
      _hbase_index_record_clear (&record);
    }
  else
    fuzz_assert (record.seq == NULL && record.entries == NULL && record.tokens == NULL,
                 "a record that does not parse is not cleared");
}

static GBytes *
member_of (IndexEntry *entry, const guint8 *row, gsize row_len)
{
  GByteArray *member = g_byte_array_new ();
  gsize len;
  const guint8 *sortkey = g_bytes_get_data (entry->sortkey, &len);

  g_byte_array_append (member, sortkey, (guint) len);
  g_byte_array_append (member, row, (guint) row_len);
  return g_byte_array_free_to_bytes (member);
}

/* A cell value: its entry, its member and back. */
static void
check_value (const IndexColumn *column, FuzzInput *in)
{
  gsize row_len = fuzz_take_u8 (in) % 8 + 1, len;
  const guint8 *row = fuzz_take_bytes (in, row_len, &row_len);
  IndexEntry *entry, *back;
  IndexValue value, reparsed;
  g_autoptr(GBytes) member = NULL;
  g_autoptr(GBytes) found_row = NULL;
  const guint8 *canonical;

  if (!_hbase_index_value_parse (column->type, in->data, in->size, &value))
    {
      fuzz_assert (_hbase_index_entry_new (column, in->data, in->size) == NULL,
                   "a value that does not parse has an entry");
      return;
    }
  /* the canonical form is a value of the same type, equal to it */
  entry = _hbase_index_entry_new (column, in->data, in->size);
  fuzz_assert (entry != NULL && entry->value != NULL, "a value that parses has no entry");
  canonical = g_bytes_get_data (entry->value, &len);
  if (column->type != HBASE_INDEX_VALUE_COUNTER)
    {
      fuzz_assert (_hbase_index_value_parse (column->type, canonical, len, &reparsed),
                   "the canonical form of a value does not parse");
      fuzz_assert (_hbase_index_value_compare (&value, &reparsed) == 0,
                   "the canonical form of a value is another value");
      _hbase_index_value_clear (&reparsed);
    }
  (void) _hbase_index_entry_blob (entry);
  if (entry->sortkey != NULL && row_len > 0)
    {
      member = member_of (entry, row, row_len);
      back = _hbase_index_entry_from_member (column, g_bytes_get_data (member, NULL),
                                             g_bytes_get_size (member), &found_row);
      fuzz_assert (back != NULL, "a member the index writes does not decode");
      fuzz_assert (found_row != NULL && g_bytes_get_size (found_row) == row_len &&
                   memcmp (g_bytes_get_data (found_row, NULL), row, row_len) == 0,
                   "a member gives another row");
      fuzz_assert (g_bytes_equal (back->value, entry->value), "a member gives another value");
      fuzz_assert (g_bytes_equal (back->sortkey, entry->sortkey), "a member gives another sort key");
      _hbase_index_entry_free (back);
    }
  _hbase_index_entry_free (entry);
  _hbase_index_value_clear (&value);
}

/* A sorted-set member as read from Redis. */
static void
check_member (const IndexColumn *column, FuzzInput *in)
{
  g_autoptr(GBytes) row = NULL;
  g_autoptr(GBytes) member_row = _hbase_index_member_row (column, in->data, in->size);
  IndexEntry *entry = _hbase_index_entry_from_member (column, in->data, in->size, &row);

  fuzz_assert ((entry != NULL) == (member_row != NULL), "entry_from_member and member_row disagree");
  if (entry == NULL)
    return;
  fuzz_assert (row != NULL && g_bytes_equal (row, member_row), "two rows for one member");
  if (entry->sortkey != NULL)
    {
      g_autoptr(GBytes) again = member_of (entry, g_bytes_get_data (row, NULL), g_bytes_get_size (row));

      fuzz_assert (g_bytes_get_size (again) == in->size &&
                   memcmp (g_bytes_get_data (again, NULL), in->data, in->size) == 0,
                   "a member decodes to a value that encodes to another member");
    }
  (void) _hbase_index_entry_blob (entry);
  _hbase_index_entry_free (entry);
}

/* The pattern, read as Redis's glob does, is the literal @space then one
 * '*' at the end: it matches the keys that start with @space, no others. */
static gboolean
pattern_is_prefix_match (const char *pattern, const char *space)
{
  gsize at = 0, len = strlen (space);

  for (const char *p = pattern; *p != '\0'; p++)
    {
      if (*p == '\\')
        {
          p++;
          if (*p == '\0' || at >= len || *p != space[at])
            return FALSE;
          at++;
        }
      else if (*p == '*')
        return p[1] == '\0' && at == len;
      else if (*p == '?' || *p == '[' || *p == ']' || at >= len || *p != space[at])
        return FALSE;
      else
        at++;
    }
  return FALSE;
}

/* Reads "prefix:LEN=NAME:x:INDEX:VALUE" back (no hash tag). */
static gboolean
parse_exact_key (const guint8 *key, gsize len, const char *prefix, char **table, char **index,
                 GBytes **value)
{
  gsize at = strlen (prefix), name_len = 0, start;

  if (len < at + 1 || memcmp (key, prefix, at) != 0 || key[at] != ':')
    return FALSE;
  at++;
  if (at >= len || !g_ascii_isdigit (key[at]))
    return FALSE;
  while (at < len && g_ascii_isdigit (key[at]))
    name_len = name_len * 10 + (gsize) (key[at++] - '0');
  if (at >= len || key[at] != '=' || len - at - 1 < name_len)
    return FALSE;
  at++;
  *table = g_strndup ((const char *) key + at, name_len);
  at += name_len;
  if (len - at < 3 || memcmp (key + at, ":x:", 3) != 0)
    return FALSE;
  at += 3;
  start = at;
  while (at < len && key[at] != ':')
    at++;
  if (at >= len)
    return FALSE;
  *index = g_strndup ((const char *) key + start, at - start);
  *value = g_bytes_new (key + at + 1, len - at - 1);
  return TRUE;
}

static void
check_table_pair (HBaseIndexSpec *spec, const char *a, const char *b)
{
  g_autofree char *norm_a = _hbase_index_table_normalize (a);
  g_autofree char *norm_b = _hbase_index_table_normalize (b);

  for (int tagged = 0; tagged < 2; tagged++)
    {
      g_autofree char *base_a = NULL;
      g_autofree char *base_b = NULL;
      g_autofree char *space_a = NULL;
      g_autofree char *space_b = NULL;
      g_autofree char *pattern = NULL;

      hbase_index_spec_set_hash_tag (spec, tagged);
      base_a = _hbase_index_key_base (spec, a);
      base_b = _hbase_index_key_base (spec, b);
      space_a = g_strconcat (base_a, ":", NULL);
      space_b = g_strconcat (base_b, ":", NULL);
      if (strcmp (norm_a, norm_b) == 0)
        fuzz_assert (strcmp (base_a, base_b) == 0, "one table has two key spaces");
      else
        fuzz_assert (!g_str_has_prefix (space_a, space_b) && !g_str_has_prefix (space_b, space_a),
                     "the key space of one table holds another's");
      pattern = _hbase_index_key_pattern (base_a, NULL);
      fuzz_assert (pattern_is_prefix_match (pattern, space_a),
                   "the SCAN pattern of a key space matches other keys");
    }
  hbase_index_spec_set_hash_tag (spec, FALSE);
  {
    g_autofree char *base = _hbase_index_key_base (spec, a);
    gsize b_len = strlen (b);
    g_autoptr(GBytes) value = g_bytes_new (b, b_len);
    g_autoptr(GBytes) key = _hbase_index_exact_key (base, "i", value);
    g_autofree char *table = NULL;
    g_autofree char *index = NULL;
    g_autoptr(GBytes) back = NULL;

    fuzz_assert (parse_exact_key (g_bytes_get_data (key, NULL), g_bytes_get_size (key),
                                  hbase_index_spec_get_key_prefix (spec), &table, &index, &back) &&
                 strcmp (table, norm_a) == 0 && strcmp (index, "i") == 0 && g_bytes_equal (back, value),
                 "an exact key does not decode to its table, index and value");
  }
}

/* The input as two table names, and each with the spellings and the
 * neighbours that once shared key spaces. */
static void
check_table_names (const uint8_t *data, size_t size)
{
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  const guint8 *nul = memchr (data, 0, size);
  g_autofree char *a = g_strndup ((const char *) data, nul != NULL ? (gsize) (nul - data) : size);
  g_autofree char *b = nul != NULL ? g_strndup ((const char *) nul + 1, size - (gsize) (nul - data) - 1)
                                   : g_strdup ("");
  g_autofree char *a_default = g_strconcat ("default:", a, NULL);
  g_autofree char *a_ns = g_strconcat (a, ":x", NULL);
  g_autofree char *a_b = g_strconcat (a, ":", b, NULL);

  check_table_pair (spec, a, b);
  check_table_pair (spec, a, a_default);
  check_table_pair (spec, a, a_ns);
  check_table_pair (spec, a_b, b);
  check_table_pair (spec, a_b, a);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  guint8 selector = fuzz_take_u8 (&in);
  HBaseIndexValueType type = (HBaseIndexValueType) ((selector >> 3) % 4);
  HBaseIndexFlags flags = (HBaseIndexFlags) (((selector >> 5) % 3 + 1) | (selector & 0x80 ? HBASE_INDEX_LEX : 0));
  g_autoptr(HBaseIndexSpec) spec = hbase_index_spec_new ();
  GError *error = NULL;
  const IndexColumn *column;

  fuzz_init ();
  check_table_names (data, size);
  switch (selector & 7)
    {
    case 0: check_definitions (&in); return 0;
    case 1: check_record (&in); return 0;
    default: break;
    }
  if (!hbase_index_spec_add (spec, "i", "f", "q", type, flags, &error))
    {
      fuzz_check_outcome ("hbase_index_spec_add", FALSE, &error);
      return 0;
    }
  column = _hbase_index_spec_find (spec, "i");
  fuzz_assert (column != NULL, "an index just added is not found");
  if (selector & 1)
    check_value (column, &in);
  else
    check_member (column, &in);
  return 0;
}
