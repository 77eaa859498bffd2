/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-private.h: what the files of the Redis index share: index
 * columns and their value encodings, Redis key names, row records, the
 * Redis connection pool and command batches, and the index core that the
 * table's write hooks, queries and maintenance use.
 *
 * The design and the guarantees are in docs/index-consistency.md. */
#ifndef HBASE_INDEX_PRIVATE_H
#define HBASE_INDEX_PRIVATE_H

#include <hiredis/hiredis.h>

#include <hbase-glib/hbase-glib-index.h>

#include "hbase-index-reply-private.h"

G_BEGIN_DECLS

/* --- index columns (hbase-index-spec.c) and values (hbase-index-encoding.c) ---------- */

/* One indexed column. */
typedef struct {
  char *name;
  char *family;
  char *qualifier;
  GBytes *family_bytes;
  GBytes *qualifier_bytes;
  HBaseIndexValueType type;
  HBaseIndexFlags flags;
} IndexColumn;

struct _HBaseIndexSpec {
  GPtrArray *columns;     /* IndexColumn, in the order added */
  char *prefix;
  gboolean hash_tag;
};

#define INDEX_DEFAULT_PREFIX "hbidx"

const IndexColumn *_hbase_index_spec_find  (const HBaseIndexSpec *spec,
                                            const char           *name);
/* The range part orders by lexicographic members (strings, LEX). */
gboolean   _hbase_index_column_is_lex      (const IndexColumn    *column);

/* A value of an indexed column, read as its type. */
typedef struct {
  HBaseIndexValueType type;
  GBytes *bytes;          /* strings */
  gint64 i;               /* INT64, COUNTER */
  double d;               /* DOUBLE */
} IndexValue;

void       _hbase_index_value_clear        (IndexValue           *value);
/* Parses a cell as @type; FALSE when it does not parse (not indexed). */
gboolean   _hbase_index_value_parse        (HBaseIndexValueType   type,
                                            const guint8         *data,
                                            gsize                 len,
                                            IndexValue           *value);
/* <0, 0, >0; both values of the same type. */
int        _hbase_index_value_compare      (const IndexValue     *a,
                                            const IndexValue     *b);
/* The canonical form: the exact set's key suffix and the identity of a
 * value in row records (strings as they are, INT64 as %lld, DOUBLE as
 * %.17g with -0 as 0, COUNTER as its 8 bytes). */
GBytes    *_hbase_index_value_canonical    (const IndexValue     *value);
/* Order-preserving bytes: 8 for numbers, escaped bytes + 00 01 for
 * strings (00 -> 00 FF). */
GBytes    *_hbase_index_value_sortkey      (const IndexValue     *value);
/* The sorted-set score: the number (rounded to a double) for numeric
 * score indexes, 0 for lexicographic ones; in %.17g. */
char      *_hbase_index_value_score        (const IndexColumn    *column,
                                            const IndexValue     *value);

/* What a row has in an index for one value: the exact set member and/or
 * the sorted set member (sortkey ‖ row key) with its score. */
typedef struct {
  gatomicrefcount ref_count;
  const IndexColumn *column;
  GBytes *value;          /* canonical */
  GBytes *sortkey;        /* NULL without a range part */
  char *score;            /* NULL without a range part */
  const char *flags;      /* "x", "z" or "xz": the parts it stands for */
  GBytes *blob;           /* as the Lua script stores it, made on demand */
  GBytes *exact_key;      /* its exact set's key, set by the index that caches
                           * the entry; NULL: compute it */
} IndexEntry;

/* The entry of a cell value, or NULL when the value is not indexable. */
IndexEntry *_hbase_index_entry_new         (const IndexColumn    *column,
                                            const guint8         *data,
                                            gsize                 len);
/* The sorted-set entry a member stands for (flags "z"), and its row; NULL
 * when the member is malformed. */
IndexEntry *_hbase_index_entry_from_member (const IndexColumn    *column,
                                            const guint8         *member,
                                            gsize                 len,
                                            GBytes              **row);
IndexEntry *_hbase_index_entry_ref         (IndexEntry           *entry);
/* Drops a reference (entries are shared through the core's cache). */
void        _hbase_index_entry_free        (gpointer              entry);
/* "x", "z" or "xz": what the Lua script maintains for it. */
const char *_hbase_index_entry_flags       (const IndexEntry     *entry);
/* The entry as the Lua script takes and stores it: struct
 * '>I1c0BI4c0I4c0I1c0' (name, parts: 1 set, 2 sorted set; canonical
 * value, sort key, score). */
GBytes     *_hbase_index_entry_blob        (IndexEntry           *entry);
/* Appends '>I2' count and the blobs of @entries (IndexEntry). */
void        _hbase_index_append_list       (GByteArray           *out,
                                            GPtrArray            *entries);

/* The entries of a row as read from HBase (newest version of each
 * indexed column). */
GPtrArray  *_hbase_index_row_entries       (const HBaseIndexSpec *spec,
                                            HBaseRow             *row);

/* --- Redis key names (hbase-index-encoding.c) ---------------------------------------- */

/* The table's name as the index knows it: "default:NAME" is "NAME". */
char      *_hbase_index_table_normalize    (const char           *table);
/* "LEN=NAME": the normalized name, preceded by its length in bytes. */
char      *_hbase_index_table_encode       (const char           *table);
/* "prefix:LEN=NAME", or "prefix:{LEN=NAME}" with hash tags: every key of
 * the table's index starts with it followed by ':' (and, with hash tags,
 * lives in one cluster slot).  No two tables' bases followed by ':' are
 * prefixes of one another. */
char      *_hbase_index_key_base           (const HBaseIndexSpec *spec,
                                            const char           *table);
/* The base of the former layout, "prefix:table" or "prefix:{table}" with
 * @table as it was spelled (hbase-index-migrate.c reads it). */
char      *_hbase_index_legacy_key_base    (const HBaseIndexSpec *spec,
                                            const char           *table);
/* @text with the glob characters of SCAN MATCH (* ? [ ] \) escaped. */
char      *_hbase_index_glob_escape        (const char           *text);
/* The SCAN MATCH pattern of the keys "base:suffix..." (@suffix may be
 * NULL), with both parts escaped. */
char      *_hbase_index_key_pattern        (const char           *base,
                                            const char           *suffix);
char      *_hbase_index_key                (const char           *base,
                                            const char           *suffix);
GBytes    *_hbase_index_exact_key          (const char           *base,
                                            const char           *name,
                                            GBytes               *canonical);
char      *_hbase_index_range_key          (const char           *base,
                                            const char           *name);
/* The row key inside a sorted-set member, or NULL when malformed. */
GBytes    *_hbase_index_member_row         (const IndexColumn    *column,
                                            const guint8         *member,
                                            gsize                 len);

/* Redis range bounds for min/max (NULL: open), as ZRANGEBYSCORE or
 * ZRANGEBYLEX arguments; FALSE when the range is empty. */
gboolean   _hbase_index_range_bounds       (const IndexColumn    *column,
                                            const IndexValue     *min,
                                            gboolean              min_inclusive,
                                            const IndexValue     *max,
                                            gboolean              max_inclusive,
                                            GBytes              **redis_min,
                                            GBytes              **redis_max);

/* --- row records (hbase-index-encoding.c) -------------------------------------------- */

/* What Redis holds about one row (parsed from the record the Lua script
 * writes, see hbase-index.lua): the entries it has, whether changes are
 * pending. */
typedef struct {
  char *name;
  GBytes *value;          /* canonical */
} RecordEntry;

typedef struct {
  char *seq;              /* as stored: compared as text */
  GPtrArray *entries;     /* RecordEntry */
  guint n_pending;
  guint n_in_doubt;       /* pending changes whose outcome is unknown */
  GPtrArray *tokens;      /* char *: writes of the other pending changes,
                           * settled once their outcome is stored */
  gboolean needs_fix;
} IndexRecord;

gboolean   _hbase_index_record_parse       (const char           *data,
                                            gsize                 len,
                                            IndexRecord          *record);
void       _hbase_index_record_clear       (IndexRecord          *record);

/* --- Redis (hbase-index-redis.c) --------------------------------------------------- */

typedef struct _IndexRedisPool IndexRedisPool;

/* NULL with an HBASE_ERROR_ILLEGAL_ARGUMENT when the credentials of
 * @options are inconsistent or the password file cannot be read. */
IndexRedisPool *_hbase_index_pool_new      (const HBaseIndexOptions *options,
                                            GError              **error);
/* The password in the first line of the file at @path (without its line
 * end), or NULL with an HBASE_ERROR_ILLEGAL_ARGUMENT: unreadable, empty
 * first line, a NUL byte in it. */
char       *_hbase_index_read_password_file (const char          *path,
                                            GError              **error);
/* Whether @error is one of the HBASE_INDEX_ERROR_AUTH_* codes. */
gboolean    _hbase_index_error_is_auth     (const GError         *error);
/* Zeroes a secret string, then frees it (NULL is fine). */
void        _hbase_index_free_secret       (char                 *secret);
void        _hbase_index_pool_free         (IndexRedisPool       *pool);
/* The run_id of the Redis server the pool last connected to (it changes
 * with every restart), or NULL. */
char       *_hbase_index_pool_run_id       (IndexRedisPool       *pool);
/* Redis's clock in ms since the epoch, from ours and the offset measured
 * at the last connect. */
gint64      _hbase_index_pool_redis_now_ms (IndexRedisPool       *pool);

/* An argument of a RedisBatch: where its RESP header ("$LEN\r\n")
 * starts in the batch's data, and where its bytes are. */
typedef struct {
  gsize start;
  gsize offset;
  gsize len;
} RedisArg;

/* Commands to send in one pipeline, arguments binary-safe.  Each argument
 * is stored as it goes on the wire (a RESP bulk string), so a command is
 * sent as its "*N" header and one copy of its arguments. */
typedef struct {
  GByteArray *data;       /* the arguments, as RESP bulk strings */
  GArray *args;           /* RedisArg per argument */
  GArray *commands;       /* guint: first argument of each command */
} RedisBatch;

RedisBatch *_hbase_index_batch_new         (void);
void        _hbase_index_batch_free        (RedisBatch           *batch);
void        _hbase_index_batch_command     (RedisBatch           *batch);
void        _hbase_index_batch_arg         (RedisBatch           *batch,
                                            const void           *data,
                                            gsize                 len);
/* One argument made of @data then @more (the two joined). */
void        _hbase_index_batch_arg2        (RedisBatch           *batch,
                                            const void           *data,
                                            gsize                 len,
                                            const void           *more,
                                            gsize                 more_len);
void        _hbase_index_batch_str         (RedisBatch           *batch,
                                            const char           *text);
void        _hbase_index_batch_bytes       (RedisBatch           *batch,
                                            GBytes               *bytes);
void        _hbase_index_batch_uint        (RedisBatch           *batch,
                                            guint64               value);
guint       _hbase_index_batch_n_commands  (RedisBatch           *batch);
/* The name of command @i of @batch, for messages: its first argument,
 * or "the index script (FUNCTION)". */
char       *_hbase_index_batch_name        (RedisBatch           *batch,
                                            guint                 i);
/* Starts an EVALSHA of the index script with the four keys of @base. */
void        _hbase_index_batch_script      (RedisBatch           *batch,
                                            const char           *base,
                                            const char           *function);

/* Sends the batch on one connection and reads every reply (element-type
 * redisReply, freed with the array).  A reply that is an error is
 * returned as such; only failures to reach Redis are errors here
 * (HBASE_INDEX_ERROR_REDIS). */
GPtrArray  *_hbase_index_redis_run         (IndexRedisPool       *pool,
                                            RedisBatch           *batch,
                                            GError              **error);
/* One command: its reply, or NULL with @error also for an error reply. */
redisReply *_hbase_index_redis_command     (IndexRedisPool       *pool,
                                            RedisBatch           *batch,
                                            GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RedisBatch, _hbase_index_batch_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (redisReply, freeReplyObject)

/* --- the index core (hbase-index.c) --------------------------------------------- */

/* What the hooks, queries and maintenance of one opened index share.
 * Reference-counted: the hooked table holds a reference, so the table may
 * outlive its HBaseIndex. */
typedef struct {
  gatomicrefcount ref_count;
  HBaseClient *client;
  char *table_name;       /* as the caller spelled it */
  char *meta_row;         /* its row in the definitions table */
  HBaseIndexSpec *spec;
  char *version;          /* of the definitions, from HBase */
  char *base;             /* Redis key base */
  char *key_state, *key_seq, *key_rec, *key_fix;
  HBaseTable *meta;       /* the definitions table, without hooks */
  HBaseTable *plain;      /* the data table, without hooks (reads) */
  IndexRedisPool *pool;
  HBaseIndexRedisDownPolicy on_redis_down;
  HBaseIndexDirtyPolicy when_dirty;
  guint lease_ms;
  guint dirty_check_interval_ms;
  gboolean trust_redis_restarts;
  char *token_prefix;
  gssize token_counter;   /* atomic */

  GMutex cache_lock;
  GHashTable **entry_cache; /* per column: raw value -> IndexEntry */

  GMutex lock;            /* the fields below */
  GHashTable *calls;      /* GPtrArray of mutations -> CallState */
  gint64 dirty_checked_at;
  char *dirty_mark;       /* last read from HBase, NULL when clean */
  gint64 dirty_logged_at;
} IndexCore;

IndexCore *_hbase_index_core_ref           (IndexCore            *core);
void       _hbase_index_core_unref         (IndexCore            *core);

struct _HBaseIndex {
  GObject parent_instance;
  IndexCore *core;
  HBaseTable *table;      /* with the hooks */
};

/* An index from hbase_index_open(); one made by g_object_new() alone has
 * nothing behind it, and every call refuses it. */
static inline gboolean
_hbase_index_is_opened (HBaseIndex *index)
{
  return HBASE_IS_INDEX (index) && index->core != NULL;
}

/* --- the definitions table (hbase-index-meta.c) ------------------------------------ */

/* The definitions table @options name (HBASE_INDEX_DEFAULT_META_TABLE
 * when they name none). */
const char *_hbase_index_meta_table_name (const HBaseIndexOptions *options);
/* The row "default:NAME" that definitions of @table in the default
 * namespace were stored under before names were normalized; NULL for
 * tables of other namespaces. */
char       *_hbase_index_meta_legacy_row (const char *table);

/* The definitions of @table and their version, from @meta_table;
 * HBASE_INDEX_ERROR_NO_INDEX when it has none.  They are in the row of the
 * normalized name, or else (stored before names were normalized) in the
 * row "default:NAME": @meta_row (nullable) gets the row they came from,
 * where the dirty mark is kept too. */
gboolean   _hbase_index_read_definitions   (HBaseClient          *client,
                                            const char           *table,
                                            const char           *meta_table,
                                            HBaseIndexSpec      **spec,
                                            char                **version,
                                            char                **meta_row,
                                            GCancellable         *cancellable,
                                            GError              **error);

/* The dirty mark in HBase (NULL when clean), re-read when older than the
 * core's interval (or always when @fresh). */
gboolean   _hbase_index_read_dirty_mark    (IndexCore            *core,
                                            gboolean              fresh,
                                            char                **mark,
                                            GCancellable         *cancellable,
                                            GError              **error);
/* Stores a new dirty mark (@reason, a time and a unique id) in HBase. */
gboolean   _hbase_index_mark_dirty         (IndexCore            *core,
                                            const char           *reason,
                                            GCancellable         *cancellable,
                                            GError              **error);
/* Removes the dirty mark if it is still @mark. */
gboolean   _hbase_index_clear_dirty_mark   (IndexCore            *core,
                                            const char           *mark,
                                            gboolean             *cleared,
                                            GCancellable         *cancellable,
                                            GError              **error);

/* --- the index's state in Redis (hbase-index-state.c) ------------------------------ */

/* What the index's state hash says (HMGET status version run), against
 * the definitions' @version and the run_id of @pool (nullable: unknown):
 * READY, or why queries may not use it, in @reason (UNREACHABLE for a
 * reply of another shape). */
HBaseIndexState _hbase_index_state_parse    (redisReply           *state,
                                            const char           *version,
                                            IndexRedisPool       *pool,
                                            gboolean              trust_redis_restarts,
                                            char                **reason);
/* The same with @core's version, pool and trust. */
HBaseIndexState _hbase_index_state_of_reply (IndexCore           *core,
                                            redisReply           *state,
                                            char                **reason);
/* Marks the index as checked against this Redis process (its run_id). */
gboolean   _hbase_index_set_state          (IndexCore            *core,
                                            const char           *status,
                                            gboolean              new_gen,
                                            GError              **error);

/* Whether queries may use Redis: READY, or why not in @reason. */
HBaseIndexState _hbase_index_usable        (IndexCore            *core,
                                            gboolean              fresh,
                                            char                **reason,
                                            GCancellable         *cancellable,
                                            GError              **error);

/* --- the columns the index reads (hbase-index.c) ------------------------------------ */

/* The columns to read to evaluate and repair the index (every indexed
 * column, "family:qualifier"), NULL-terminated. */
char     **_hbase_index_columns            (const HBaseIndexSpec *spec);

/* --- row records and repairs (hbase-index-repair.c) -------------------------------- */

/* Runs the repair function of the Lua script on rows read from HBase:
 * @rows (HBaseRow, possibly empty for a missing row), @snapshots (from
 * _hbase_index_snapshot_rows(), NULL for additive mode), @orphans (NULL or one
 * GPtrArray of IndexEntry per row).  @repaired counts the rows repaired
 * exactly; @results (nullable) gets '1' (repaired exactly) or '0' per
 * row. */
gboolean   _hbase_index_repair_rows        (IndexCore            *core,
                                            GPtrArray            *keys,
                                            GPtrArray            *rows,
                                            GPtrArray            *snapshots,
                                            GPtrArray            *orphans,
                                            gboolean              abandon,
                                            guint                *repaired,
                                            GString              *results,
                                            GError              **error);

/* Reads the records of @keys (GBytes): one IndexRecord * or NULL per key
 * (element-type IndexRecord, freed with the array). */
GPtrArray *_hbase_index_read_records       (IndexCore            *core,
                                            GPtrArray            *keys,
                                            GError              **error);
void       _hbase_index_record_free        (gpointer              record);

/* What an exact repair of @keys (GBytes) compares with, taken before the
 * rows are read from HBase: per key (char *, freed with the array) the
 * index's generation and the record's seq ("GEN/SEQ"), "GEN/-" when the
 * row has no record, or "" when a change of the row is still pending (its HBase write may land after the read, so
 * the repair may only add).  @abandon: every pending change is taken as
 * over (no write is in flight). */
GPtrArray *_hbase_index_snapshot_rows      (IndexCore            *core,
                                            GPtrArray            *keys,
                                            gboolean              abandon,
                                            GError              **error);

/* Repairs the rows of the fix set that are due (writers that died or lost
 * Redis before learning an increment's value, ...).  @too_many is set
 * when more than @max are due; nothing is repaired then. */
gboolean   _hbase_index_repair_due         (IndexCore            *core,
                                            guint                 max,
                                            gboolean             *too_many,
                                            GCancellable         *cancellable,
                                            GError              **error);

/* --- the Lua script (generated from hbase-index.lua) ------------------------------- */

extern const char _hbase_index_script[];
const char *_hbase_index_script_sha        (void);

G_END_DECLS

#endif /* HBASE_INDEX_PRIVATE_H */
