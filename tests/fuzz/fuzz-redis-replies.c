/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-redis-replies.c: what the Redis index makes of any reply
 * (src/index/hbase-index-reply.c and the reply-reading parts of
 * hbase-index-redis.c, -state.c, -hooks.c, -repair.c, -materialize.c,
 * -verify.c).
 *
 * Input: byte 0 sets the sizes the consumers expect (rows of a script
 * call, keys of an HMGET, tokens of an MGET); the rest is fed to hiredis's
 * reader, with the index's limits, as Redis's bytes; every reply it reads
 * (at most 16) is handed to every consumer, and the first two and all of
 * them to those that read several replies.
 *
 * Checked: every consumer succeeds without an error or fails with one
 * (in UTF-8, with a message), and what it returns is within the sizes
 * asked for; nothing crashes, leaks or allocates what a reply only
 * announced. */
#include "config.h"

#include <string.h>

#include "hbase-index-private.h"
#include "fuzz-support.h"

#define MAX_REPLIES 16

static void
free_reply (gpointer reply)
{
  freeReplyObject (reply);
}

static void
check_one (redisReply *reply, guint n)
{
  GError *error = NULL;
  gboolean ok;

  {
    g_autofree char *text = _hbase_index_reply_describe (reply);
    g_autofree char *said = _hbase_index_reply_text (reply);

    fuzz_assert (text != NULL && g_utf8_validate (text, -1, NULL), "a reply described badly");
    fuzz_assert (g_utf8_validate (said, -1, NULL) && strlen (said) <= 310, "error text not sanitised");
  }
  ok = _hbase_index_reply_failed (reply, "FUZZ", &error);
  fuzz_check_outcome ("reply_failed", !ok, &error);
  {
    gint64 ms = 0;

    ok = _hbase_index_reply_time (reply, &ms, &error);
    fuzz_check_outcome ("reply_time", ok, &error);
    fuzz_assert (!ok || ms >= 0, "a negative time");
  }
  {
    g_autofree char *run_id = NULL;
    g_autofree char *noauth = NULL;

    ok = _hbase_index_parse_info (reply, &run_id, &noauth, &error);
    fuzz_check_outcome ("parse_info", ok, &error);
    fuzz_assert (run_id == NULL || strlen (run_id) <= 64, "a run_id too long");
  }
  for (int trust = 0; trust < 2; trust++)
    {
      g_autofree char *reason = NULL;
      HBaseIndexState state = _hbase_index_state_parse (reply, "v1", NULL, trust, &reason);

      fuzz_assert ((state == HBASE_INDEX_STATE_READY) == (reason == NULL), "a state without reason");
    }
  {
    g_autofree gboolean *eager = g_new0 (gboolean, n + 1);
    g_autofree char *gen = NULL;

    ok = _hbase_index_parse_before (reply, n, eager, &gen, &error);
    fuzz_check_outcome ("parse_before", ok, &error);
    fuzz_assert (ok == (gen != NULL), "before: a generation only on success");
  }
  {
    gboolean gen_changed = FALSE;

    ok = _hbase_index_parse_after (reply, &gen_changed, &error);
    fuzz_check_outcome ("parse_after", ok, &error);
  }
  {
    g_autoptr(GPtrArray) snapshots = g_ptr_array_new_with_free_func (g_free);

    ok = _hbase_index_parse_snapshot (reply, n, snapshots, &error);
    fuzz_check_outcome ("parse_snapshot", ok, &error);
    fuzz_assert (!ok || snapshots->len == n, "snapshot: not one per row");
  }
  {
    g_autoptr(GString) results = g_string_new (NULL);
    guint repaired = 0;

    ok = _hbase_index_parse_repair (reply, n, &repaired, results, &error);
    fuzz_check_outcome ("parse_repair", ok, &error);
    fuzz_assert (!ok || (results->len == n && repaired <= n), "repair: not one flag per row");
  }
  {
    g_autoptr(GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
    g_autoptr(GHashTable) outcomes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

    for (guint t = 0; t < n; t++)
      g_ptr_array_add (tokens, g_strdup_printf ("t%u", t));
    ok = _hbase_index_parse_outcomes (reply, tokens, outcomes, &error);
    fuzz_check_outcome ("parse_outcomes", ok, &error);
    fuzz_assert (g_hash_table_size (outcomes) <= n, "outcomes of tokens not asked for");
  }
  {
    g_autofree gboolean *member = g_new0 (gboolean, n + 1);

    ok = _hbase_index_parse_smismember (reply, n, member, &error);
    fuzz_check_outcome ("parse_smismember", ok, &error);
  }
  ok = _hbase_index_parse_members (reply, "SMEMBERS", &error);
  fuzz_check_outcome ("parse_members", ok, &error);
  for (int pairs = 0; pairs < 2; pairs++)
    {
      g_autofree char *cursor = NULL;

      ok = _hbase_index_reply_scan (reply, pairs ? "HSCAN" : "SCAN", pairs, 1000, &cursor, &error);
      fuzz_check_outcome ("reply_scan", ok, &error);
      fuzz_assert (ok == (cursor != NULL), "scan: a cursor only on success");
      fuzz_assert (!ok || reply->element[1]->elements <= 1000, "scan: more elements than allowed");
    }
  {
    long long value;
    double score;
    const char *str = NULL;
    gsize len = 0;

    ok = _hbase_index_reply_integer (reply, "FUZZ", &value, &error);
    fuzz_check_outcome ("reply_integer", ok, &error);
    ok = _hbase_index_reply_status_ok (reply, "FUZZ", &error);
    fuzz_check_outcome ("reply_status_ok", ok, &error);
    ok = _hbase_index_reply_ok (reply, "FUZZ", &error);
    fuzz_check_outcome ("reply_ok", ok, &error);
    ok = _hbase_index_reply_string (reply, "FUZZ", n % 2 == 0, n % 3 == 0, &str, &len, &error);
    fuzz_check_outcome ("reply_string", ok, &error);
    if (ok && str != NULL)
      fuzz_assert (str[len] == '\0' || len == 0, "a string not terminated");
    ok = _hbase_index_reply_score (reply, "FUZZ", &score, &error);
    fuzz_check_outcome ("reply_score", ok, &error);
    ok = _hbase_index_reply_pairs (reply, "FUZZ", n, &error);
    fuzz_check_outcome ("reply_pairs", ok, &error);
    fuzz_assert (!ok || reply->elements <= 2 * (gsize) n, "pairs: more than allowed");
  }
}

static void
check_several (GPtrArray *replies, guint n, guint chunk)
{
  GError *error = NULL;
  gboolean ok;

  if (replies->len >= 2)
    {
      g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
      gboolean too_many = FALSE;

      ok = _hbase_index_parse_due (g_ptr_array_index (replies, 0), g_ptr_array_index (replies, 1), n,
                                   keys, &too_many, &error);
      fuzz_check_outcome ("parse_due", ok, &error);
      fuzz_assert (keys->len <= (guint) n + 1, "due: more rows than asked for");
    }
  if (replies->len >= 1)
    {
      guint rows = replies->len - 1;
      g_autofree gboolean *created = g_new0 (gboolean, rows + 1);
      g_autofree char *gen = NULL;

      ok = _hbase_index_parse_pipeline_before (replies, 1, MIN (rows, n), "v1", &gen, created, &error);
      fuzz_check_outcome ("parse_pipeline_before", ok, &error);
      fuzz_assert (ok == (gen != NULL), "pipeline before: a generation only on success");
    }
  {
    g_autoptr(GPtrArray) records = g_ptr_array_new_with_free_func (_hbase_index_record_free);

    ok = _hbase_index_parse_records (replies, n, chunk, records, &error);
    fuzz_check_outcome ("parse_records", ok, &error);
    fuzz_assert (!ok || records->len == n, "records: not one per key");
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr(GPtrArray) replies = g_ptr_array_new_with_free_func (free_reply);
  redisReader *reader;
  guint n, chunk;

  fuzz_init ();
  if (size < 1)
    return 0;
  n = data[0] & 0x0f;
  chunk = 1 + ((data[0] >> 4) & 0x03);
  reader = redisReaderCreate ();
  _hbase_index_reader_limit (reader);
  if (redisReaderFeed (reader, (const char *) data + 1, size - 1) == REDIS_OK)
    while (replies->len < MAX_REPLIES)
      {
        void *reply = NULL;

        if (redisReaderGetReply (reader, &reply) != REDIS_OK || reply == NULL)
          break;
        g_ptr_array_add (replies, reply);
      }
  redisReaderFree (reader);

  for (guint i = 0; i < replies->len; i++)
    check_one (g_ptr_array_index (replies, i), n);
  check_several (replies, n, chunk);
  return 0;
}
