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
 * encodes back to the same bytes. */
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
