/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-structures-private.h: what the set and sorted-set code shares: the
 * byte encodings of docs/structures-layout.md, the meta cell, reads of
 * explicit columns and of column ranges of one row (paged on the server
 * with a ColumnRangeFilter and storeOffset/storeLimit), and the
 * compare-and-set write every change goes through.
 *
 * Reads are generated TGets run through the table (they carry what
 * HBaseReadOptions does not: a serialized ColumnRangeFilter and
 * storeOffset/storeLimit); changes are check-and-mutates of the table, so
 * its write hooks see them. */
#ifndef HBASE_STRUCTURES_PRIVATE_H
#define HBASE_STRUCTURES_PRIVATE_H

#include <hbase-glib/hbase-client-thrift.h>
#include <hbase-glib/hbase-set.h>
#include <hbase-glib/hbase-zset.h>

#include "../table/hbase-table-private.h"

G_BEGIN_DECLS

/* --- qualifiers ----------------------------------------------------------------------- */

#define STRUCT_META_QUALIFIER   '#'   /* the meta cell */
#define STRUCT_MEMBER_PREFIX    'm'   /* 'm' member: set members, zset member -> score */
#define STRUCT_REVERSE_PREFIX   'r'   /* 'r' ~enc(score) ~esc(member): zset, descending */
#define STRUCT_SCORE_PREFIX     's'   /* 's' enc(score) member: zset, ascending */

#define STRUCT_META_SIZE        24
#define STRUCT_META_FORMAT      1
#define STRUCT_KIND_SET         'S'
#define STRUCT_KIND_ZSET        'Z'

/* the largest qualifier HBase accepts */
#define STRUCT_MAX_QUALIFIER    32767

/* --- encodings ------------------------------------------------------------------------ */

/* The order-preserving 8 bytes of a score (not NaN; -0.0 is folded to
 * +0.0), and back. */
void     _hbase_score_encode          (gdouble       score,
                                       guint8       *out);
gdouble  _hbase_score_decode          (const guint8 *in);

/* The escaped member of a descending qualifier: every 0x00 becomes
 * 0x00 0xFF, then 0x00 0x00 ends it, and every byte is complemented, so
 * that the qualifiers sort in descending member order.  Appends to @out. */
void     _hbase_desc_member_append    (GByteArray   *out,
                                       const guint8 *member,
                                       gsize         len);
/* Decodes what _hbase_desc_member_append() wrote (exactly @len bytes);
 * NULL when malformed. */
GBytes  *_hbase_desc_member_decode    (const guint8 *data,
                                       gsize         len);

/* FNV-1a 32-bit: the shard of a member is this modulo the shard count. */
guint32  _hbase_member_hash           (const guint8 *member,
                                       gsize         len);

/* Bytes compared as HBase compares them (unsigned, shorter first). */
int      _hbase_bytes_compare         (const guint8 *a,
                                       gsize         a_len,
                                       const guint8 *b,
                                       gsize         b_len);
gint     _hbase_gbytes_compare        (gconstpointer a,
                                       gconstpointer b);

/* --- the meta cell -------------------------------------------------------------------- */

/* card (i64 BE) | clock (i64 BE) | kind (u8) | format (u8) | shards (u16 BE) | nonce (u32 BE) */
typedef struct {
  gboolean present;
  gint64 card;
  gint64 clock;      /* the timestamp of the write that made it: strictly increasing */
  guint8 kind;
  guint16 shards;
  guint32 nonce;
  guint8 raw[STRUCT_META_SIZE];
} StructMeta;

/* Parses a meta cell value; BAD_DATA when it is not one of @kind with
 * @shards shards. */
gboolean _hbase_meta_parse            (const guint8 *data,
                                       gsize         len,
                                       guint8        kind,
                                       guint16       shards,
                                       StructMeta   *meta,
                                       GError      **error);
/* The meta after a change: card, a clock after @old's and at least
 * @min_clock (both saturate at G_MAXINT64 - 1, the largest clock a meta
 * cell may hold), a fresh nonce. */
void     _hbase_meta_next             (const StructMeta *old,
                                       guint8        kind,
                                       guint16       shards,
                                       gint64        card,
                                       gint64        min_clock,
                                       StructMeta   *next);

/* --- one structure's place: table, family ------------------------------------------- */

typedef struct {
  HBaseTable *table;
  GByteArray *family;
  char *family_name;
} StructStore;

gboolean _hbase_store_init            (StructStore  *store,
                                       HBaseTable   *table,
                                       const char   *family,
                                       const char   *default_family,
                                       GError      **error);
void     _hbase_store_clear           (StructStore  *store);
void     _hbase_store_copy            (StructStore  *dest,
                                       const StructStore *src);

/* --- reads ---------------------------------------------------------------------------- */

/* A get of one row, restricted to the store's family. */
HbaseThriftTGet *_hbase_sget_new      (const StructStore *store,
                                       const guint8 *row,
                                       gsize         row_len);
/* Adds an explicit column (only these columns are read). */
void     _hbase_sget_add_column       (HbaseThriftTGet *get,
                                       const StructStore *store,
                                       const guint8 *qualifier,
                                       gsize         len);
/* Reads the qualifiers between @lo and @hi (NULL: unbounded), skipping
 * the first @offset of them on the server and returning at most @limit
 * (0: no limit). */
void     _hbase_sget_set_range        (HbaseThriftTGet *get,
                                       const guint8 *lo,
                                       gsize         lo_len,
                                       gboolean      lo_inclusive,
                                       const guint8 *hi,
                                       gsize         hi_len,
                                       gboolean      hi_inclusive,
                                       guint         offset,
                                       guint         limit);

/* Runs the gets (getMultiple; get for one), with the client's retries.
 * Returns (transfer full) TResults in the order of @gets, or NULL. */
GPtrArray *_hbase_sget_run            (const StructStore *store,
                                       GPtrArray    *gets,
                                       GCancellable *cancellable,
                                       GError      **error);

/* The newest cell of @qualifier in @result, or NULL. */
HbaseThriftTColumnValue *_hbase_result_find (HbaseThriftTResult *result,
                                             const guint8 *qualifier,
                                             gsize         len);
/* The meta cell of @result parsed into @meta (absent: present FALSE). */
gboolean _hbase_result_meta           (HbaseThriftTResult *result,
                                       guint8        kind,
                                       guint16       shards,
                                       StructMeta   *meta,
                                       GError      **error);
/* The newest timestamp of any cell of @result, 0 when empty, at most
 * G_MAXINT64 - 1 (adding one does not overflow). */
gint64   _hbase_result_max_timestamp  (HbaseThriftTResult *result);

/* --- writes --------------------------------------------------------------------------- */

/* A change of one row, applied only if the meta cell is still @old. */
typedef struct {
  GPtrArray *puts;     /* HbaseThriftTColumnValue (qualifier, value) */
  GPtrArray *deletes;  /* HbaseThriftTColumn (qualifier) */
  gboolean delete_family;  /* every cell of the family written before */
} StructChange;

void     _hbase_change_init           (StructChange *change);
void     _hbase_change_clear          (StructChange *change);
void     _hbase_change_put            (StructChange *change,
                                       const StructStore *store,
                                       const guint8 *qualifier,
                                       gsize         qualifier_len,
                                       const guint8 *value,
                                       gsize         value_len);
void     _hbase_change_delete         (StructChange *change,
                                       const StructStore *store,
                                       const guint8 *qualifier,
                                       gsize         qualifier_len);

/* checkAndMutate: if the meta cell is @old (absent when !old->present),
 * writes @next and the change, every cell at timestamp @next->clock
 * (deletes remove every version up to the one before), atomically.
 * @applied tells whether the meta still matched.  After a failure whose
 * outcome is unknown, the meta is read again to tell. */
gboolean _hbase_change_commit         (const StructStore *store,
                                       const guint8 *row,
                                       gsize         row_len,
                                       const StructMeta *old,
                                       const StructMeta *next,
                                       StructChange *change,
                                       gboolean     *applied,
                                       GCancellable *cancellable,
                                       GError      **error);

/* Waits before attempt @attempt of a conflicting compare-and-set (jittered,
 * growing); FALSE with @error once the client's operation timeout since
 * @start has passed. */
gboolean _hbase_conflict_backoff      (const StructStore *store,
                                       guint         attempt,
                                       gint64        start,
                                       GCancellable *cancellable,
                                       GError      **error);

/* --- checks --------------------------------------------------------------------------- */

gboolean _hbase_check_members         (GPtrArray    *members,
                                       gsize         max_size,
                                       GError      **error);

G_END_DECLS

#endif /* HBASE_STRUCTURES_PRIVATE_H */
