/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-structures.c: the decoders of what sets and sorted sets store in
 * HBase (src/structures/hbase-structures-io.c): the meta cell, descending
 * member qualifiers and scores, on any bytes.
 *
 * Input: byte 0 chooses the decoder (and the kind and shard count the
 * structure is opened with); the rest is the stored bytes.
 *
 * Checked: a meta cell parses or fails with HBASE_ERROR_BAD_DATA, and the
 * meta written after a parsed one has a later clock (short of the largest)
 * and parses again; a
 * qualifier decodes exactly when it is one the encoder writes, and a
 * member's encoding decodes back to it; a score that decodes (not NaN,
 * not zero) encodes to the same bytes. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "../../src/structures/hbase-structures-private.h"
#include "fuzz-support.h"

static void
check_meta (guint8 selector, FuzzInput *in)
{
  guint8 kind = selector & 0x10 ? STRUCT_KIND_ZSET : STRUCT_KIND_SET;
  guint16 shards = (selector >> 5) + 1;
  gint64 card = (gint64) fuzz_take_u32 (in);
  gint64 min_clock = (gint64) ((guint64) fuzz_take_u32 (in) << 31);
  StructMeta meta, next, reread;
  GError *error = NULL;
  gboolean ok;

  ok = _hbase_meta_parse (in->data, in->size, kind, shards, &meta, &error);
  if (!ok)
    fuzz_assert (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_BAD_DATA),
                 "a bad meta cell is not HBASE_ERROR_BAD_DATA");
  fuzz_check_outcome ("_hbase_meta_parse", ok, &error);
  if (!ok)
    return;
  _hbase_meta_next (&meta, kind, shards, card, min_clock, &next);
  fuzz_assert (next.clock > meta.clock || meta.clock == G_MAXINT64 - 1,
               "the next meta's clock %" G_GINT64_FORMAT " is not after %" G_GINT64_FORMAT,
               next.clock, meta.clock);
  fuzz_assert (next.clock >= min_clock, "the next meta's clock is before the minimum");
  ok = _hbase_meta_parse (next.raw, sizeof next.raw, kind, shards, &reread, &error);
  fuzz_check_outcome ("_hbase_meta_parse (next)", ok, &error);
  fuzz_assert (ok && reread.card == card && reread.clock == next.clock,
               "the next meta does not parse back");
}

static void
check_member (FuzzInput *in)
{
  g_autoptr(GBytes) member = _hbase_desc_member_decode (in->data, in->size);
  g_autoptr(GByteArray) encoded = g_byte_array_new ();
  g_autoptr(GBytes) back = NULL;

  /* any bytes as a member: encoded, decoded */
  _hbase_desc_member_append (encoded, in->data, in->size);
  back = _hbase_desc_member_decode (encoded->data, encoded->len);
  fuzz_assert (back != NULL && g_bytes_get_size (back) == in->size &&
               (in->size == 0 || memcmp (g_bytes_get_data (back, NULL), in->data, in->size) == 0),
               "a member does not decode back from its qualifier");
  /* the bytes as a qualifier */
  if (member != NULL)
    {
      g_autoptr(GByteArray) again = g_byte_array_new ();

      _hbase_desc_member_append (again, g_bytes_get_data (member, NULL), g_bytes_get_size (member));
      fuzz_assert (again->len == in->size && memcmp (again->data, in->data, in->size) == 0,
                   "a qualifier decodes to a member whose qualifier differs");
    }
}

static void
check_score (FuzzInput *in)
{
  guint8 bytes[8] = { 0 }, again[8];
  gsize len;
  const guint8 *data = fuzz_take_bytes (in, 8, &len);
  gdouble score;

  memcpy (bytes, data, len);
  score = hbase_zset_decode_score (bytes);
  fuzz_assert (score == _hbase_score_decode (bytes) || (isnan (score)), "two decodings of a score");
  if (isnan (score))
    return;
  fuzz_assert (hbase_zset_encode_score (score, again), "a decoded score does not encode");
  if (score != 0.0)
    fuzz_assert (memcmp (again, bytes, 8) == 0, "a score decodes to %g, which encodes to other bytes",
                 score);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  guint8 selector = fuzz_take_u8 (&in);

  fuzz_init ();
  switch (selector % 3)
    {
    case 0: check_meta (selector, &in); break;
    case 1: check_member (&in); break;
    default: check_score (&in); break;
    }
  return 0;
}
