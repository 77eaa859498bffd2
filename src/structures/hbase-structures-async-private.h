/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-structures-async-private.h: the _async/_finish pairs of sets and
 * sorted sets run their blocking call on the client's worker pool.  A
 * StructureCall holds the call's arguments and results; each pair fills
 * the arguments, and its finish function reads the results. */
#ifndef HBASE_STRUCTURES_ASYNC_PRIVATE_H
#define HBASE_STRUCTURES_ASYNC_PRIVATE_H

#include <gio/gio.h>
#include <hbase-glib/hbase-client.h>
#include <hbase-glib/hbase-set.h>
#include <hbase-glib/hbase-zset.h>

G_BEGIN_DECLS

typedef struct _StructureCall StructureCall;

/* Runs the blocking call in a worker thread. */
typedef gboolean (*StructureFunc) (StructureCall  *call,
                                   GCancellable   *cancellable,
                                   GError        **error);

struct _StructureCall {
  StructureFunc func;
  gpointer self;              /* the set, sorted set or iterator (referenced) */
  GDestroyNotify self_free;

  /* arguments (owned) */
  GPtrArray *members;         /* GBytes */
  GBytes *member;
  GBytes *bytes;              /* a cursor or a row */
  char *text;                 /* a family */
  HBaseTable *table;          /* a source table */
  HBaseScoreRange range;
  GArray *numbers;            /* gdouble, the scores of an add */
  gint64 count;
  guint flags;
  gboolean option;
  gdouble number;

  /* results (owned until taken) */
  guint64 n;
  gboolean flag;
  gdouble score;
  GPtrArray *list;
  GBytes *out_bytes;
  GArray *flags_out;          /* gboolean */
  GArray *numbers_out;        /* gdouble */
};

StructureCall *_hbase_structure_call_new    (StructureFunc        func,
                                             gpointer             self,
                                             GDestroyNotify       self_free);
/* Runs @call on @client's worker pool (a NULL @client: @call fails at
 * once with the error @func gives for it); @source is the task's
 * source object (NULL for iterators). */
void           _hbase_structure_call_start  (StructureCall       *call,
                                             HBaseClient         *client,
                                             gpointer             source,
                                             gpointer             source_tag,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
/* The finished call, or NULL with @error set. */
StructureCall *_hbase_structure_call_finish (GAsyncResult        *result,
                                             gpointer             source,
                                             gpointer             source_tag,
                                             GError             **error);

HBaseClient   *_hbase_set_client           (HBaseSet            *set);
HBaseClient   *_hbase_zset_client          (HBaseZSet           *zset);
/* The client an iterator reads with; NULL for one that failed when made. */
HBaseClient   *_hbase_set_iter_get_client  (HBaseSetIter        *iter);
HBaseClient   *_hbase_zset_iter_get_client (HBaseZSetIter       *iter);

G_END_DECLS

#endif /* HBASE_STRUCTURES_ASYNC_PRIVATE_H */
