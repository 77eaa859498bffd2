/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index.h: secondary indexes of HBase columns kept in Redis:
 * definitions, the indexed table handle, verify, rebuild and repair. */
#ifndef HBASE_INDEX_H
#define HBASE_INDEX_H

#if !defined(__HBASE_GLIB_INDEX_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib-index.h> can be included directly."
#endif

#include <gio/gio.h>

#include <hbase-glib/hbase-glib.h>

G_BEGIN_DECLS

/**
 * HBASE_INDEX_ERROR:
 *
 * The error domain of what is particular to the Redis index.  Bad
 * arguments and HBase failures keep their %HBASE_ERROR codes.
 *
 * Since: 0.1
 */
#define HBASE_INDEX_ERROR (hbase_index_error_quark ())

/**
 * HBaseIndexError:
 * @HBASE_INDEX_ERROR_REDIS: Redis could not be reached, timed out, or
 *   failed a command
 * @HBASE_INDEX_ERROR_DIRTY: the index may lack entries (marked dirty after
 *   a write went through while Redis was down, not built, being rebuilt,
 *   or Redis lost it) and the query policy refuses to answer from it
 * @HBASE_INDEX_ERROR_NO_INDEX: the table has no index definitions, or a
 *   query names an index that does not exist or cannot answer it (a range
 *   on an index without a range part)
 * @HBASE_INDEX_ERROR_CHANGED: the definitions were changed by another
 *   client since this one opened the index: reopen it
 * @HBASE_INDEX_ERROR_BAD_TOKEN: a page token that this query did not
 *   produce
 * @HBASE_INDEX_ERROR_AUTH_FAILED: Redis refused the credentials: a wrong
 *   user or password, a disabled user (Redis's WRONGPASS), or a user name
 *   given to a Redis older than 6.0, which has no ACL users
 * @HBASE_INDEX_ERROR_AUTH_NOT_ENABLED: a password was given but Redis
 *   has none configured for its default user (no requirepass, no ACL
 *   password): the configuration of one side is wrong
 * @HBASE_INDEX_ERROR_AUTH_REQUIRED: Redis requires authentication
 *   (NOAUTH) and no password was given
 *
 * Error codes of the %HBASE_INDEX_ERROR domain.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_INDEX_ERROR_REDIS = 1,
  HBASE_INDEX_ERROR_DIRTY,
  HBASE_INDEX_ERROR_NO_INDEX,
  HBASE_INDEX_ERROR_CHANGED,
  HBASE_INDEX_ERROR_BAD_TOKEN,
  HBASE_INDEX_ERROR_AUTH_FAILED,
  HBASE_INDEX_ERROR_AUTH_NOT_ENABLED,
  HBASE_INDEX_ERROR_AUTH_REQUIRED,
} HBaseIndexError;

/**
 * HBaseIndexErrorCode:
 *
 * The former name of #HBaseIndexError.
 *
 * Deprecated: Use #HBaseIndexError.
 *
 * Since: 0.1
 */
typedef HBaseIndexError HBaseIndexErrorCode G_GNUC_DEPRECATED_FOR (HBaseIndexError);

/**
 * HBASE_TYPE_INDEX_ERROR_CODE:
 *
 * The former name of %HBASE_TYPE_INDEX_ERROR.
 *
 * Deprecated: Use %HBASE_TYPE_INDEX_ERROR.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_INDEX_ERROR_CODE HBASE_TYPE_INDEX_ERROR

GQuark hbase_index_error_quark (void);

/**
 * HBaseIndexValueType:
 * @HBASE_INDEX_VALUE_STRING: the cell's bytes, compared unsigned,
 *   shorter first on a common prefix (as HBase sorts them)
 * @HBASE_INDEX_VALUE_INT64: a signed 64-bit integer written as decimal
 *   text ("42", "-7"); compared as numbers, so "042" equals "42"
 * @HBASE_INDEX_VALUE_DOUBLE: a floating-point number written as decimal
 *   text ("2.5", "1e3", "inf"); NaN is never indexed
 * @HBASE_INDEX_VALUE_COUNTER: a 64-bit big-endian signed integer, as HBase
 *   increments and hbase_counter_encode() store them
 *
 * How the bytes of an indexed cell are read.  A cell that does not parse
 * as its type is not indexed and matches no condition.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_INDEX_VALUE_STRING,
  HBASE_INDEX_VALUE_INT64,
  HBASE_INDEX_VALUE_DOUBLE,
  HBASE_INDEX_VALUE_COUNTER,
} HBaseIndexValueType;

/**
 * HBaseIndexFlags:
 * @HBASE_INDEX_EXACT: a Redis set per value holding the row keys, for
 *   equality and IN
 * @HBASE_INDEX_RANGE: a sorted set per column, for ranges (and equality
 *   when there is no exact part): numbers are scored by their value
 *   (exact within ±2^53; beyond, the score is rounded and the range
 *   widened, and the rows fetched are checked again)
 * @HBASE_INDEX_LEX: the range part uses equal scores and lexicographic
 *   ranges over an order-preserving encoding instead of scores: exact for
 *   every 64-bit integer; always used for %HBASE_INDEX_VALUE_STRING
 *
 * What an index keeps in Redis.  At least one of %HBASE_INDEX_EXACT and
 * %HBASE_INDEX_RANGE.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_INDEX_EXACT = 1 << 0,
  HBASE_INDEX_RANGE = 1 << 1,
  HBASE_INDEX_LEX = 1 << 2,
} HBaseIndexFlags;

/**
 * HBaseIndexSpec:
 *
 * The index definitions of one table: the indexed columns and the Redis
 * key prefix.  Stored in HBase with hbase_index_define(), so every client
 * of the table uses the same ones.
 *
 * Since: 0.1
 */
typedef struct _HBaseIndexSpec HBaseIndexSpec;

#define HBASE_TYPE_INDEX_SPEC (hbase_index_spec_get_type ())
GType           hbase_index_spec_get_type        (void) G_GNUC_CONST;
HBaseIndexSpec *hbase_index_spec_new             (void);
HBaseIndexSpec *hbase_index_spec_copy            (const HBaseIndexSpec *spec);
void            hbase_index_spec_free            (HBaseIndexSpec       *spec);
gboolean        hbase_index_spec_add             (HBaseIndexSpec       *spec,
                                                  const char           *name,
                                                  const char           *family,
                                                  const char           *qualifier,
                                                  HBaseIndexValueType   type,
                                                  HBaseIndexFlags       flags,
                                                  GError              **error);
gboolean        hbase_index_spec_set_key_prefix  (HBaseIndexSpec       *spec,
                                                  const char           *prefix,
                                                  GError              **error);
const char     *hbase_index_spec_get_key_prefix  (const HBaseIndexSpec *spec);
void            hbase_index_spec_set_hash_tag    (HBaseIndexSpec       *spec,
                                                  gboolean              hash_tag);
gboolean        hbase_index_spec_get_hash_tag    (const HBaseIndexSpec *spec);
guint           hbase_index_spec_get_n_indexes   (const HBaseIndexSpec *spec);
const char     *hbase_index_spec_get_name        (const HBaseIndexSpec *spec,
                                                  guint                 index);
gboolean        hbase_index_spec_lookup          (const HBaseIndexSpec *spec,
                                                  const char           *name,
                                                  const char          **family,
                                                  const char          **qualifier,
                                                  HBaseIndexValueType  *type,
                                                  HBaseIndexFlags      *flags);
char           *hbase_index_spec_to_data         (const HBaseIndexSpec *spec);
HBaseIndexSpec *hbase_index_spec_new_from_data   (const char           *data,
                                                  GError              **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseIndexSpec, hbase_index_spec_free)

/**
 * HBASE_INDEX_DEFAULT_META_TABLE:
 *
 * The HBase table holding index definitions and dirty marks, one row per
 * indexed table, when #HBaseIndexOptions name none.  Created only by
 * hbase_index_create_meta_table().
 *
 * Since: 0.1
 */
#define HBASE_INDEX_DEFAULT_META_TABLE "hbase_glib_index"

/**
 * HBaseIndexRedisDownPolicy:
 * @HBASE_INDEX_REDIS_DOWN_FAIL: a write whose index entries cannot be
 *   written to Redis fails, and nothing is written to HBase
 * @HBASE_INDEX_REDIS_DOWN_MARK_DIRTY: the write goes to HBase anyway, after
 *   a dirty mark was stored in HBase (if even that fails, the write
 *   fails); queries then follow the #HBaseIndexDirtyPolicy until
 *   hbase_index_repair() or hbase_index_rebuild() clears the mark
 *
 * What a write does when Redis cannot be reached.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_INDEX_REDIS_DOWN_FAIL,
  HBASE_INDEX_REDIS_DOWN_MARK_DIRTY,
} HBaseIndexRedisDownPolicy;

/**
 * HBaseIndexDirtyPolicy:
 * @HBASE_INDEX_DIRTY_REFUSE: fail with %HBASE_INDEX_ERROR_DIRTY
 * @HBASE_INDEX_DIRTY_SCAN: answer with a scan of the table (conditions on
 *   string columns are filtered by the region servers, the others by the
 *   client): slow but right
 *
 * What a query does when the index may lack entries or Redis is down.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_INDEX_DIRTY_REFUSE,
  HBASE_INDEX_DIRTY_SCAN,
} HBaseIndexDirtyPolicy;

/**
 * HBaseIndexOptions:
 * @redis_host: (nullable): Redis host, %NULL for 127.0.0.1
 * @redis_port: Redis port, 0 for 6379
 * @redis_socket: (nullable): a unix socket path, used instead of host and
 *   port
 * @redis_password: (nullable): sent with AUTH on every new connection
 *   (`AUTH user password` when @redis_username is set, else the legacy
 *   `AUTH password` of the default user); never part of an error or a
 *   log message.  Exclusive with @redis_password_file
 * @redis_db: the database number (SELECT), 0 by default
 * @connect_timeout_ms: Redis connect timeout, 0 for 2000
 * @timeout_ms: Redis read/write timeout of one command batch, 0 for 5000
 * @pool_size: Redis connections at most, 0 for 8
 * @retry_interval_ms: after Redis failed, calls fail at once for this long
 *   instead of waiting for a connect timeout each; 0 for 1000
 * @on_redis_down: what a write does when Redis cannot be reached
 * @when_dirty: what a query does when the index may lack entries
 * @lease_ms: how long a write may be in flight: an index change not
 *   confirmed within it is taken as abandoned (its entries are kept, so
 *   queries stay right).  Must exceed the longest an HBase write can take
 *   (the client's operation timeout and the gateway's retries); 0 for
 *   300000 (5 minutes)
 * @meta_table: (nullable): the table of definitions, %NULL for
 *   %HBASE_INDEX_DEFAULT_META_TABLE: the one place it is named, for
 *   hbase_index_create_meta_table(), hbase_index_define(),
 *   hbase_index_get_definitions() and hbase_index_open() alike
 * @dirty_check_interval_ms: how long a query may trust the dirty mark it
 *   last read from HBase; 0 to read it on every query (the default)
 * @trust_redis_restarts: after Redis restarted (a new run_id), answer
 *   queries at once instead of waiting for a repair; only safe when Redis
 *   persists every write before answering (appendonly with appendfsync
 *   always)
 * @redis_username: (nullable): the Redis 6+ ACL user to authenticate as,
 *   %NULL for the default user (legacy `AUTH password`); needs a password
 *   (@redis_password or @redis_password_file)
 * @redis_password_file: (nullable) (type filename): a file whose first
 *   line (without its line end) is the password, read by hbase_index_open();
 *   a file readable by group or others is reported with a g_message().
 *   Exclusive with @redis_password
 *
 * How an #HBaseIndex reaches Redis and behaves when it cannot.  Initialise
 * with %HBASE_INDEX_OPTIONS_INIT, or allocate with
 * hbase_index_options_new(). Who owns the pointers (a struct from
 * hbase_index_options_new() owns what its setters stored, a struct on the stack borrows
 * them) is explained in docs/api-conventions.md.
 *
 * Since: 0.1
 */
typedef struct {
  const char *redis_host;
  guint redis_port;
  const char *redis_socket;
  const char *redis_password;
  guint redis_db;
  guint connect_timeout_ms;
  guint timeout_ms;
  guint pool_size;
  guint retry_interval_ms;
  HBaseIndexRedisDownPolicy on_redis_down;
  HBaseIndexDirtyPolicy when_dirty;
  guint lease_ms;
  const char *meta_table;
  guint dirty_check_interval_ms;
  gboolean trust_redis_restarts;
  const char *redis_username;
  const char *redis_password_file;
  /*< private >*/
  gpointer padding[6];
} HBaseIndexOptions;

#define HBASE_INDEX_OPTIONS_INIT { .redis_host = NULL, \
  .on_redis_down = HBASE_INDEX_REDIS_DOWN_FAIL, .when_dirty = HBASE_INDEX_DIRTY_REFUSE }

#define HBASE_TYPE_INDEX_OPTIONS (hbase_index_options_get_type ())
GType              hbase_index_options_get_type           (void) G_GNUC_CONST;
HBaseIndexOptions *hbase_index_options_new                (void);
HBaseIndexOptions *hbase_index_options_copy               (const HBaseIndexOptions *options);
void               hbase_index_options_free               (HBaseIndexOptions       *options);
void               hbase_index_options_set_redis_host     (HBaseIndexOptions       *options,
                                                           const char              *redis_host);
void               hbase_index_options_set_redis_socket   (HBaseIndexOptions       *options,
                                                           const char              *redis_socket);
void               hbase_index_options_set_redis_password (HBaseIndexOptions       *options,
                                                           const char              *redis_password);
void               hbase_index_options_set_redis_username (HBaseIndexOptions       *options,
                                                           const char              *redis_username);
void               hbase_index_options_set_redis_password_file (HBaseIndexOptions  *options,
                                                                const char         *redis_password_file);
void               hbase_index_options_set_meta_table     (HBaseIndexOptions       *options,
                                                           const char              *meta_table);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseIndexOptions, hbase_index_options_free)

/**
 * HBaseIndex:
 *
 * The Redis index of one table, opened with hbase_index_open().  Its
 * table handle (hbase_index_get_table()) maintains the index on every
 * write: apply, apply multiple, mutate row, increment, append,
 * check-and-mutate, their async variants and every #HBaseWriteBuffer
 * built on it.  Other handles of the table refuse to write to it with
 * %HBASE_ERROR_INDEXED_TABLE (hbase_index_define() marks the table),
 * unless told to allow unindexed writes
 * (hbase_table_set_allow_unindexed_writes()).  Thread-safe.  Releasing the last reference (g_object_unref())
 * closes the index; its table handle, if referenced elsewhere, keeps
 * maintaining the index.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_INDEX (hbase_index_get_type ())
G_DECLARE_FINAL_TYPE (HBaseIndex, hbase_index, HBASE, INDEX, GObject)

gboolean              hbase_index_create_meta_table (HBaseClient             *client,
                                                  const HBaseIndexOptions *options,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
gboolean              hbase_index_define         (HBaseClient             *client,
                                                  const char              *table,
                                                  const HBaseIndexSpec    *spec,
                                                  const HBaseIndexOptions *options,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
HBaseIndexSpec       *hbase_index_get_definitions (HBaseClient            *client,
                                                  const char              *table,
                                                  const HBaseIndexOptions *options,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
HBaseIndex           *hbase_index_open           (HBaseClient             *client,
                                                  const char              *table,
                                                  const HBaseIndexOptions *options,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
HBaseTable           *hbase_index_get_table      (HBaseIndex              *index);
const HBaseIndexSpec *hbase_index_get_spec       (HBaseIndex              *index);


/**
 * HBaseIndexState:
 * @HBASE_INDEX_STATE_READY: queries are answered from Redis
 * @HBASE_INDEX_STATE_NOT_BUILT: Redis holds no complete index of the
 *   current definitions (never built, built for other definitions, or
 *   Redis lost its data)
 * @HBASE_INDEX_STATE_BUILDING: a rebuild is under way
 * @HBASE_INDEX_STATE_DIRTY: a write went to HBase without its index
 *   entries (Redis was down); repair it
 * @HBASE_INDEX_STATE_UNREACHABLE: Redis cannot be reached
 * @HBASE_INDEX_STATE_RESTARTED: Redis restarted since the index was last
 *   built or repaired, and may have lost its last writes; repair it (or
 *   set @trust_redis_restarts)
 *
 * Whether queries can use the index.
 *
 * Since: 0.1
 */
typedef enum {
  HBASE_INDEX_STATE_READY,
  HBASE_INDEX_STATE_NOT_BUILT,
  HBASE_INDEX_STATE_BUILDING,
  HBASE_INDEX_STATE_DIRTY,
  HBASE_INDEX_STATE_UNREACHABLE,
  HBASE_INDEX_STATE_RESTARTED,
} HBaseIndexState;

gboolean              hbase_index_get_state      (HBaseIndex              *index,
                                                  HBaseIndexState         *state,
                                                  char                   **reason,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);

/**
 * HBaseIndexProgress:
 * @phase: "clear", "scan", "check" (verify's pass over Redis) or "fix"
 * @rows: HBase rows read so far
 * @entries: index entries written or checked so far
 * @missing: entries found missing so far
 * @extra: entries found extra so far
 *
 * Where a verify, rebuild or repair is.  The library fills it on the
 * stack and lends it to the #HBaseIndexProgressFunc; bindings copy it with
 * hbase_index_progress_copy(). Who owns the pointers (a struct from
 * hbase_index_progress_new() owns what its setters stored, a struct on the stack borrows
 * them) is explained in docs/api-conventions.md.
 *
 * Since: 0.1
 */
typedef struct {
  const char *phase;
  guint64 rows;
  guint64 entries;
  guint64 missing;
  guint64 extra;
  /*< private >*/
  gpointer padding[8];
} HBaseIndexProgress;

#define HBASE_TYPE_INDEX_PROGRESS (hbase_index_progress_get_type ())
GType               hbase_index_progress_get_type  (void) G_GNUC_CONST;
HBaseIndexProgress *hbase_index_progress_new       (void);
HBaseIndexProgress *hbase_index_progress_copy      (const HBaseIndexProgress *progress);
void                hbase_index_progress_free      (HBaseIndexProgress       *progress);
void                hbase_index_progress_set_phase (HBaseIndexProgress       *progress,
                                                    const char               *phase);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseIndexProgress, hbase_index_progress_free)

/**
 * HBaseIndexProgressFunc:
 * @progress: where the operation is
 * @user_data: the options' @user_data
 *
 * Called every batch of rows (and once at the end of each phase), in the
 * calling thread.
 *
 * Since: 0.1
 */
typedef void (*HBaseIndexProgressFunc) (const HBaseIndexProgress *progress,
                                        gpointer                  user_data);

/**
 * HBaseIndexMaintenanceOptions:
 * @progress: (nullable): called as the work goes on
 * @user_data: for @progress
 * @user_data_destroy: (nullable): frees @user_data when options from
 *   hbase_index_maintenance_options_new() are freed or given another
 *   callback (see hbase_index_maintenance_options_set_progress()); %NULL
 *   in stack structs
 * @batch_rows: rows read from HBase per scan round trip and handled per
 *   Redis call, 0 for 1000
 * @max_examples: discrepancies a report describes in words, 0 for 20
 * @assume_quiescent: no indexed write is in flight anywhere: index
 *   changes still pending (their writer died or lost Redis) are taken as
 *   abandoned at once rather than at the end of their lease, so a repair
 *   can make the index equal to the data
 *
 * How verify, rebuild and repair run.  Initialise with
 * %HBASE_INDEX_MAINTENANCE_OPTIONS_INIT, or allocate with
 * hbase_index_maintenance_options_new(). Who owns the pointers (a struct from
 * hbase_index_maintenance_options_new() owns what its setters stored, a struct on the stack borrows
 * them) is explained in docs/api-conventions.md.
 *
 * Since: 0.1
 */
typedef struct {
  HBaseIndexProgressFunc progress;
  gpointer user_data;
  guint batch_rows;
  guint max_examples;
  gboolean assume_quiescent;
  GDestroyNotify user_data_destroy;
  /*< private >*/
  gpointer padding[8];
} HBaseIndexMaintenanceOptions;

#define HBASE_INDEX_MAINTENANCE_OPTIONS_INIT { .progress = NULL, .user_data = NULL }

#define HBASE_TYPE_INDEX_MAINTENANCE_OPTIONS (hbase_index_maintenance_options_get_type ())
GType                         hbase_index_maintenance_options_get_type     (void) G_GNUC_CONST;
HBaseIndexMaintenanceOptions *hbase_index_maintenance_options_new          (void);
HBaseIndexMaintenanceOptions *hbase_index_maintenance_options_copy         (const HBaseIndexMaintenanceOptions *options);
void                          hbase_index_maintenance_options_free         (HBaseIndexMaintenanceOptions       *options);
void                          hbase_index_maintenance_options_set_progress (HBaseIndexMaintenanceOptions       *options,
                                                                            HBaseIndexProgressFunc              progress,
                                                                            gpointer                            user_data,
                                                                            GDestroyNotify                      destroy);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseIndexMaintenanceOptions, hbase_index_maintenance_options_free)

/**
 * HBaseIndexReport:
 *
 * What a verify, rebuild or repair found and did.
 *
 * Since: 0.1
 */
typedef struct _HBaseIndexReport HBaseIndexReport;

#define HBASE_TYPE_INDEX_REPORT (hbase_index_report_get_type ())
GType              hbase_index_report_get_type     (void) G_GNUC_CONST;
HBaseIndexReport  *hbase_index_report_copy         (const HBaseIndexReport *report);
void               hbase_index_report_free         (HBaseIndexReport       *report);
guint64            hbase_index_report_get_rows     (const HBaseIndexReport *report);
guint64            hbase_index_report_get_entries  (const HBaseIndexReport *report);
guint64            hbase_index_report_get_missing  (const HBaseIndexReport *report);
guint64            hbase_index_report_get_extra    (const HBaseIndexReport *report);
guint64            hbase_index_report_get_in_doubt (const HBaseIndexReport *report);
guint64            hbase_index_report_get_repaired (const HBaseIndexReport *report);
gboolean           hbase_index_report_get_rebuilt  (const HBaseIndexReport *report);
gboolean           hbase_index_report_is_consistent (const HBaseIndexReport *report);
const char *const *hbase_index_report_get_examples (const HBaseIndexReport *report);
char              *hbase_index_report_to_string    (const HBaseIndexReport *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseIndexReport, hbase_index_report_free)

HBaseIndexReport  *hbase_index_verify              (HBaseIndex                         *index,
                                                    const HBaseIndexMaintenanceOptions *options,
                                                    GCancellable                       *cancellable,
                                                    GError                            **error);
HBaseIndexReport  *hbase_index_rebuild             (HBaseIndex                         *index,
                                                    const HBaseIndexMaintenanceOptions *options,
                                                    GCancellable                       *cancellable,
                                                    GError                            **error);
HBaseIndexReport  *hbase_index_repair              (HBaseIndex                         *index,
                                                    const HBaseIndexMaintenanceOptions *options,
                                                    GCancellable                       *cancellable,
                                                    GError                            **error);
gboolean           hbase_index_drop                (HBaseIndex                         *index,
                                                    GCancellable                       *cancellable,
                                                    GError                            **error);
gboolean           hbase_index_migrate             (HBaseIndex                         *index,
                                                    guint64                            *moved,
                                                    GCancellable                       *cancellable,
                                                    GError                            **error);

/* Asynchronous variants: each runs its synchronous twin in a worker
 * thread; the task's source object is the object the call is made on. */
void                  hbase_index_create_meta_table_async  (HBaseClient             *client,
                                                            const HBaseIndexOptions *options,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
gboolean              hbase_index_create_meta_table_finish (HBaseClient             *client,
                                                            GAsyncResult            *result,
                                                            GError                 **error);
void                  hbase_index_define_async             (HBaseClient             *client,
                                                            const char              *table,
                                                            const HBaseIndexSpec    *spec,
                                                            const HBaseIndexOptions *options,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
gboolean              hbase_index_define_finish            (HBaseClient             *client,
                                                            GAsyncResult            *result,
                                                            GError                 **error);
void                  hbase_index_get_definitions_async    (HBaseClient             *client,
                                                            const char              *table,
                                                            const HBaseIndexOptions *options,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
HBaseIndexSpec       *hbase_index_get_definitions_finish   (HBaseClient             *client,
                                                            GAsyncResult            *result,
                                                            GError                 **error);
void                  hbase_index_open_async               (HBaseClient             *client,
                                                            const char              *table,
                                                            const HBaseIndexOptions *options,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
HBaseIndex           *hbase_index_open_finish              (HBaseClient             *client,
                                                            GAsyncResult            *result,
                                                            GError                 **error);
void                  hbase_index_get_state_async          (HBaseIndex              *index,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
gboolean              hbase_index_get_state_finish         (HBaseIndex              *index,
                                                            GAsyncResult            *result,
                                                            HBaseIndexState         *state,
                                                            char                   **reason,
                                                            GError                 **error);
void                  hbase_index_verify_async             (HBaseIndex                         *index,
                                                            const HBaseIndexMaintenanceOptions *options,
                                                            GCancellable                       *cancellable,
                                                            GAsyncReadyCallback                 callback,
                                                            gpointer                            user_data);
HBaseIndexReport     *hbase_index_verify_finish            (HBaseIndex              *index,
                                                            GAsyncResult            *result,
                                                            GError                 **error);
void                  hbase_index_rebuild_async            (HBaseIndex                         *index,
                                                            const HBaseIndexMaintenanceOptions *options,
                                                            GCancellable                       *cancellable,
                                                            GAsyncReadyCallback                 callback,
                                                            gpointer                            user_data);
HBaseIndexReport     *hbase_index_rebuild_finish           (HBaseIndex              *index,
                                                            GAsyncResult            *result,
                                                            GError                 **error);
void                  hbase_index_repair_async             (HBaseIndex                         *index,
                                                            const HBaseIndexMaintenanceOptions *options,
                                                            GCancellable                       *cancellable,
                                                            GAsyncReadyCallback                 callback,
                                                            gpointer                            user_data);
HBaseIndexReport     *hbase_index_repair_finish            (HBaseIndex              *index,
                                                            GAsyncResult            *result,
                                                            GError                 **error);
void                  hbase_index_drop_async               (HBaseIndex              *index,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
gboolean              hbase_index_drop_finish              (HBaseIndex              *index,
                                                            GAsyncResult            *result,
                                                            GError                 **error);
void                  hbase_index_migrate_async            (HBaseIndex              *index,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
gboolean              hbase_index_migrate_finish           (HBaseIndex              *index,
                                                            GAsyncResult            *result,
                                                            guint64                 *moved,
                                                            GError                 **error);

/* deprecated: the 0.1 names, for one release (see NEWS) */
G_GNUC_DEPRECATED_FOR (g_object_unref)
void hbase_index_free (HBaseIndex *index);

G_END_DECLS

#endif /* HBASE_INDEX_H */
