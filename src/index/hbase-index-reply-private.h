/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-reply-private.h: checked access to Redis replies.  Every
 * reply the index reads goes through these checks before any of its
 * fields is used: a reply of another shape than the command's (a broken
 * proxy, an impostor, a renamed command) becomes an HBASE_INDEX_ERROR_REDIS
 * naming the command, what was expected and what came, never a crash.
 * An error reply becomes an error with Redis's text, sanitised and
 * bounded. */
#ifndef HBASE_INDEX_REPLY_PRIVATE_H
#define HBASE_INDEX_REPLY_PRIVATE_H

#include <hiredis/hiredis.h>

#include <glib.h>

G_BEGIN_DECLS

/* The most elements an array reply may announce.  hiredis allocates an
 * array's element pointers when it reads the header, before any element
 * arrives: a reader with these limits refuses larger headers (an
 * out-of-memory error of the reader) rather than allocating what a
 * hostile server announced. */
#define HBASE_INDEX_REPLY_MAX_ELEMENTS (1u << 24)

/* Sets the limits above on @reader (a context's reader, or one of its
 * own). */
void        _hbase_index_reader_limit      (redisReader          *reader);

/* Masks of reply types, for the elements of an array. */
#define REPLY_STRING  (1u << REDIS_REPLY_STRING)
#define REPLY_INTEGER (1u << REDIS_REPLY_INTEGER)
#define REPLY_NIL     (1u << REDIS_REPLY_NIL)
#define REPLY_STATUS  (1u << REDIS_REPLY_STATUS)
#define REPLY_ARRAY   (1u << REDIS_REPLY_ARRAY)

/* @reply (nullable) in words, for messages: "nil", "an integer", "an
 * array of 3 elements"... */
char       *_hbase_index_reply_describe    (const redisReply     *reply);

/* @data (@len bytes) printable: control characters and invalid UTF-8
 * replaced by '?', at most a few hundred bytes kept. */
char       *_hbase_index_sanitise          (const char           *data,
                                            gsize                 len);

/* Redis's text of an error reply, with control characters and invalid
 * UTF-8 replaced and at most a few hundred bytes kept. */
char       *_hbase_index_reply_text        (const redisReply     *reply);

/* Whether @reply is an error reply: then sets @error with its text
 * (HBASE_INDEX_ERROR_CHANGED for the index script's HBIDX_CHANGED,
 * HBASE_INDEX_ERROR_AUTH_REQUIRED for NOAUTH, else
 * HBASE_INDEX_ERROR_REDIS) and returns TRUE.  @command (nullable) names
 * the command in the message. */
gboolean    _hbase_index_reply_failed      (const redisReply     *reply,
                                            const char           *command,
                                            GError              **error);

/* Each check below: TRUE when @reply has the shape, else FALSE with
 * @error (an error reply as _hbase_index_reply_failed() says it, another
 * shape as HBASE_INDEX_ERROR_REDIS "unexpected reply of Redis to
 * COMMAND: expected ..., got ..."). */

/* Any reply but an error reply or an array holding arrays. */
gboolean    _hbase_index_reply_ok          (const redisReply     *reply,
                                            const char           *command,
                                            GError              **error);
/* A bulk string (or a status reply when @status_too), or nil when
 * @nil_ok (then *@str is NULL).  @str and @len are nullable. */
gboolean    _hbase_index_reply_string      (const redisReply     *reply,
                                            const char           *command,
                                            gboolean              nil_ok,
                                            gboolean              status_too,
                                            const char          **str,
                                            gsize                *len,
                                            GError              **error);
/* An integer reply. */
gboolean    _hbase_index_reply_integer     (const redisReply     *reply,
                                            const char           *command,
                                            long long            *value,
                                            GError              **error);
/* The status reply OK. */
gboolean    _hbase_index_reply_status_ok   (const redisReply     *reply,
                                            const char           *command,
                                            GError              **error);
/* An array of @min to @max elements (G_MAXSIZE: no bound), each of a
 * type of @types (REPLY_* masks; nested arrays only if REPLY_ARRAY is
 * in it). */
gboolean    _hbase_index_reply_array       (const redisReply     *reply,
                                            const char           *command,
                                            gsize                 min,
                                            gsize                 max,
                                            guint                 types,
                                            GError              **error);
/* An array of pairs (an even number of elements, at most @max_pairs
 * pairs), each element a bulk string: the replies of WITHSCORES and of
 * HSCAN and ZSCAN. */
gboolean    _hbase_index_reply_pairs       (const redisReply     *reply,
                                            const char           *command,
                                            gsize                 max_pairs,
                                            GError              **error);
/* The reply of a SCAN-like command: [cursor, [elements...]], the cursor
 * a decimal number (copied to *@cursor), the elements bulk strings (in
 * pairs when @pairs), at most @max_elements of them. */
gboolean    _hbase_index_reply_scan        (const redisReply     *reply,
                                            const char           *command,
                                            gboolean              pairs,
                                            gsize                 max_elements,
                                            char                **cursor,
                                            GError              **error);
/* The reply of TIME: two decimal numbers (seconds, microseconds), as
 * milliseconds since the epoch. */
gboolean    _hbase_index_reply_time        (const redisReply     *reply,
                                            gint64               *ms,
                                            GError              **error);
/* A score (a bulk string of a number, as ZSCORE and WITHSCORES give it). */
gboolean    _hbase_index_reply_score       (const redisReply     *reply,
                                            const char           *command,
                                            double               *score,
                                            GError              **error);

/* --- the replies of the index's commands, parsed -----------------------------------------------
 * Each consumer's reading of its replies, apart from the sockets, so that
 * the fuzz harness reaches it: FALSE with @error for a reply of another
 * shape (an error reply too). */

/* The index script's "before": [gen, one '0'/'1' per row]: @eager gets
 * @n_rows flags, @gen the generation (hbase-index-hooks.c). */
gboolean    _hbase_index_parse_before      (redisReply           *reply,
                                            guint                 n_rows,
                                            gboolean             *eager,
                                            char                **gen,
                                            GError              **error);
/* The pipeline "before": HMGET version gen (reply 0), then HSETNX per row
 * (from @first_record; @created gets @n_rows flags), then integer
 * replies.  HBASE_INDEX_ERROR_CHANGED when the version is not @version. */
gboolean    _hbase_index_parse_pipeline_before (GPtrArray        *replies,
                                            guint                 first_record,
                                            guint                 n_rows,
                                            const char           *version,
                                            char                **gen,
                                            gboolean             *created,
                                            GError              **error);
/* The index script's "after": OK, or GEN (*@gen_changed). */
gboolean    _hbase_index_parse_after       (redisReply           *reply,
                                            gboolean             *gen_changed,
                                            GError              **error);
/* INFO server: its run_id (NULL when it has none), or @noauth when it
 * is Redis's NOAUTH error; another error reply is no failure (a Redis may
 * refuse INFO) and leaves both NULL (hbase-index-redis.c). */
gboolean    _hbase_index_parse_info        (redisReply           *reply,
                                            char                **run_id,
                                            char                **noauth,
                                            GError              **error);
/* HMGET of row records: one reply per chunk of at most @chunk keys, of
 * @n_keys in all; @records gets an IndexRecord or NULL per key
 * (hbase-index-repair.c). */
gboolean    _hbase_index_parse_records     (GPtrArray            *replies,
                                            guint                 n_keys,
                                            guint                 chunk,
                                            GPtrArray            *records,
                                            GError              **error);
/* The index script's "snapshot": @n bulk strings, appended to
 * @snapshots (g_free). */
gboolean    _hbase_index_parse_snapshot    (redisReply           *reply,
                                            guint                 n,
                                            GPtrArray            *snapshots,
                                            GError              **error);
/* The index script's "repair": one '0'/'1' per row of @n; adds the 1s to
 * *@repaired and the flags to @results (both nullable). */
gboolean    _hbase_index_parse_repair      (redisReply           *reply,
                                            guint                 n,
                                            guint                *repaired,
                                            GString              *results,
                                            GError              **error);
/* ZRANGE fix 0 MAX WITHSCORES, and TIME: the rows due (GBytes, added to
 * @keys); *@too_many when more than @max are. */
gboolean    _hbase_index_parse_due         (redisReply           *due,
                                            redisReply           *now,
                                            guint                 max,
                                            GPtrArray            *keys,
                                            gboolean             *too_many,
                                            GError              **error);
/* MGET of @tokens' outcomes: sets TRUE in @outcomes (char * token ->
 * gboolean) for each known one (hbase-index-verify.c). */
gboolean    _hbase_index_parse_outcomes    (redisReply           *reply,
                                            GPtrArray            *tokens,
                                            GHashTable           *outcomes,
                                            GError              **error);
/* SMISMEMBER with @n members: @member gets @n flags
 * (hbase-index-materialize.c). */
gboolean    _hbase_index_parse_smismember  (redisReply           *reply,
                                            guint                 n,
                                            gboolean             *member,
                                            GError              **error);
/* The members of SMEMBERS, ZRANGEBYSCORE or ZRANGEBYLEX (@command):
 * bulk strings. */
gboolean    _hbase_index_parse_members     (redisReply           *reply,
                                            const char           *command,
                                            GError              **error);

G_END_DECLS

#endif
