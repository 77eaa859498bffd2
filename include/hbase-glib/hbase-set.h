/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-set.h: a set of byte strings kept in one HBase row (or sharded
 * over several), with Redis's set semantics. */
#ifndef HBASE_SET_H
#define HBASE_SET_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <gio/gio.h>

#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

/**
 * HBASE_SET_MAX_MEMBER_SIZE:
 *
 * The longest member of a set, in bytes (HBase's longest qualifier is
 * 32767 bytes, and the member's qualifier has a one-byte prefix).
 *
 * Since: 0.1
 */
#define HBASE_SET_MAX_MEMBER_SIZE 32766

/**
 * HBASE_SET_MAX_SHARDS:
 *
 * The most rows a set may be sharded over.
 *
 * Since: 0.1
 */
#define HBASE_SET_MAX_SHARDS 65535

/**
 * HBaseSetOptions:
 * @family: (nullable): the column family holding the set; %NULL for "s"
 * @shards: rows the set is spread over; 0 or 1 for one row (the row key is
 *   the set's key), N > 1 for rows "key \0 shard" with the shard as two
 *   bytes big-endian (see docs/structures-layout.md).  Every handle on the
 *   same set must use the same count: a mismatch is reported as
 *   %HBASE_ERROR_BAD_DATA when a row is read.
 * @page_size: members read per request when streaming; 0 for 1000
 *
 * Where and how a set is stored.  Initialise with %HBASE_SET_OPTIONS_INIT,
 * or allocate with hbase_set_options_new().  Who owns the pointers (a
 * struct from hbase_set_options_new() owns what its setters stored, a
 * struct on the stack borrows them) is explained in
 * docs/api-conventions.md.
 *
 * Since: 0.1
 */
typedef struct {
  const char *family;
  guint shards;
  guint page_size;
  /*< private >*/
  gpointer padding[8];
} HBaseSetOptions;

#define HBASE_SET_OPTIONS_INIT { .family = NULL, .shards = 0, .page_size = 0 }

#define HBASE_TYPE_SET_OPTIONS (hbase_set_options_get_type ())
GType            hbase_set_options_get_type   (void) G_GNUC_CONST;
HBaseSetOptions *hbase_set_options_new        (void);
HBaseSetOptions *hbase_set_options_copy       (const HBaseSetOptions *options);
void             hbase_set_options_free       (HBaseSetOptions       *options);
void             hbase_set_options_set_family (HBaseSetOptions       *options,
                                               const char            *family);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseSetOptions, hbase_set_options_free)

/**
 * HBaseSet:
 *
 * A handle on one set: a table, a key and #HBaseSetOptions.  Creating it
 * reads and writes nothing.  Thread-safe; the operations on it are atomic
 * per row (see hbase_set_add()).  Release it with g_object_unref():
 * iterators made from it stay valid, and the set's data is untouched.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_SET (hbase_set_get_type ())
G_DECLARE_FINAL_TYPE (HBaseSet, hbase_set, HBASE, SET, GObject)

/**
 * HBaseSetIter:
 *
 * A stream of members in ascending byte order, read a page at a time
 * (hbase_set_members(), hbase_set_intersect(), ...).  Use from one thread
 * at a time.  Reference-counted: release it with hbase_set_iter_unref().
 *
 * Since: 0.1
 */
typedef struct _HBaseSetIter HBaseSetIter;

#define HBASE_TYPE_SET_ITER (hbase_set_iter_get_type ())
GType         hbase_set_iter_get_type    (void) G_GNUC_CONST;
HBaseSetIter *hbase_set_iter_ref         (HBaseSetIter           *iter);
void          hbase_set_iter_unref       (HBaseSetIter           *iter);

HBaseSet     *hbase_set_new              (HBaseTable             *table,
                                          GBytes                 *key,
                                          const HBaseSetOptions  *options,
                                          GError                **error);
GBytes       *hbase_set_get_key          (HBaseSet               *set);
guint         hbase_set_get_shards       (HBaseSet               *set);

/* SADD, SREM */
gboolean      hbase_set_add              (HBaseSet               *set,
                                          GPtrArray              *members,
                                          guint64                *n_added,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_add_one          (HBaseSet               *set,
                                          GBytes                 *member,
                                          gboolean               *added,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_remove           (HBaseSet               *set,
                                          GPtrArray              *members,
                                          guint64                *n_removed,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_remove_one       (HBaseSet               *set,
                                          GBytes                 *member,
                                          gboolean               *removed,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_clear            (HBaseSet               *set,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* SISMEMBER, SMISMEMBER, SCARD */
gboolean      hbase_set_contains         (HBaseSet               *set,
                                          GBytes                 *member,
                                          gboolean               *is_member,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_contains_many    (HBaseSet               *set,
                                          GPtrArray              *members,
                                          gboolean               *are_members,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_contains_many_array (HBaseSet          *set,
                                             GPtrArray         *members,
                                             GArray           **are_members,
                                             GCancellable      *cancellable,
                                             GError           **error);
gboolean      hbase_set_card             (HBaseSet               *set,
                                          guint64                *card,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* SMEMBERS, SSCAN, SRANDMEMBER */
HBaseSetIter *hbase_set_members          (HBaseSet               *set);
gboolean      hbase_set_scan             (HBaseSet               *set,
                                          GBytes                 *cursor,
                                          guint                   count,
                                          GBytes                **next_cursor,
                                          GPtrArray             **members,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_random_members   (HBaseSet               *set,
                                          gint64                  count,
                                          GPtrArray             **members,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* SINTER, SUNION, SDIFF */
HBaseSetIter *hbase_set_intersect        (GPtrArray              *sets,
                                          GError                **error);
HBaseSetIter *hbase_set_union            (GPtrArray              *sets,
                                          GError                **error);
HBaseSetIter *hbase_set_diff             (GPtrArray              *sets,
                                          GError                **error);

/* SPOP, SRANDMEMBER (one member), SMOVE, SINTERSTORE, SUNIONSTORE, SDIFFSTORE */
gboolean      hbase_set_pop              (HBaseSet               *set,
                                          gint64                  count,
                                          GPtrArray             **members,
                                          GCancellable           *cancellable,
                                          GError                **error);
void          hbase_set_pop_async        (HBaseSet               *set,
                                          gint64                  count,
                                          GCancellable           *cancellable,
                                          GAsyncReadyCallback     callback,
                                          gpointer                user_data);
gboolean      hbase_set_pop_finish       (HBaseSet               *set,
                                          GAsyncResult           *result,
                                          GPtrArray             **members,
                                          GError                **error);
gboolean      hbase_set_pop_one          (HBaseSet               *set,
                                          GBytes                **member,
                                          GCancellable           *cancellable,
                                          GError                **error);
void          hbase_set_pop_one_async    (HBaseSet               *set,
                                          GCancellable           *cancellable,
                                          GAsyncReadyCallback     callback,
                                          gpointer                user_data);
gboolean      hbase_set_pop_one_finish   (HBaseSet               *set,
                                          GAsyncResult           *result,
                                          GBytes                **member,
                                          GError                **error);
void          hbase_set_random_members_async  (HBaseSet          *set,
                                          gint64                  count,
                                          GCancellable           *cancellable,
                                          GAsyncReadyCallback     callback,
                                          gpointer                user_data);
gboolean      hbase_set_random_members_finish (HBaseSet          *set,
                                          GAsyncResult           *result,
                                          GPtrArray             **members,
                                          GError                **error);
gboolean      hbase_set_random_member    (HBaseSet               *set,
                                          GBytes                **member,
                                          GCancellable           *cancellable,
                                          GError                **error);
void          hbase_set_random_member_async  (HBaseSet           *set,
                                          GCancellable           *cancellable,
                                          GAsyncReadyCallback     callback,
                                          gpointer                user_data);
gboolean      hbase_set_random_member_finish (HBaseSet           *set,
                                          GAsyncResult           *result,
                                          GBytes                **member,
                                          GError                **error);
gboolean      hbase_set_move             (HBaseSet               *source,
                                          HBaseSet               *destination,
                                          GBytes                 *member,
                                          gboolean               *moved,
                                          GCancellable           *cancellable,
                                          GError                **error);
void          hbase_set_move_async       (HBaseSet               *source,
                                          HBaseSet               *destination,
                                          GBytes                 *member,
                                          GCancellable           *cancellable,
                                          GAsyncReadyCallback     callback,
                                          gpointer                user_data);
gboolean      hbase_set_move_finish      (HBaseSet               *source,
                                          GAsyncResult           *result,
                                          gboolean               *moved,
                                          GError                **error);
gboolean      hbase_set_intersect_store  (HBaseSet               *destination,
                                          GPtrArray              *sets,
                                          guint64                *card,
                                          GCancellable           *cancellable,
                                          GError                **error);
void          hbase_set_intersect_store_async  (HBaseSet         *destination,
                                          GPtrArray              *sets,
                                          GCancellable           *cancellable,
                                          GAsyncReadyCallback     callback,
                                          gpointer                user_data);
gboolean      hbase_set_intersect_store_finish (HBaseSet         *destination,
                                          GAsyncResult           *result,
                                          guint64                *card,
                                          GError                **error);
gboolean      hbase_set_union_store      (HBaseSet               *destination,
                                          GPtrArray              *sets,
                                          guint64                *card,
                                          GCancellable           *cancellable,
                                          GError                **error);
void          hbase_set_union_store_async      (HBaseSet         *destination,
                                          GPtrArray              *sets,
                                          GCancellable           *cancellable,
                                          GAsyncReadyCallback     callback,
                                          gpointer                user_data);
gboolean      hbase_set_union_store_finish     (HBaseSet         *destination,
                                          GAsyncResult           *result,
                                          guint64                *card,
                                          GError                **error);
gboolean      hbase_set_diff_store       (HBaseSet               *destination,
                                          GPtrArray              *sets,
                                          guint64                *card,
                                          GCancellable           *cancellable,
                                          GError                **error);
void          hbase_set_diff_store_async       (HBaseSet         *destination,
                                          GPtrArray              *sets,
                                          GCancellable           *cancellable,
                                          GAsyncReadyCallback     callback,
                                          gpointer                user_data);
gboolean      hbase_set_diff_store_finish      (HBaseSet         *destination,
                                          GAsyncResult           *result,
                                          guint64                *card,
                                          GError                **error);

gboolean      hbase_set_iter_next        (HBaseSetIter           *iter,
                                          GBytes                **member,
                                          GCancellable           *cancellable,
                                          GError                **error);
GPtrArray    *hbase_set_iter_collect     (HBaseSetIter           *iter,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* the plain layout: one row, every qualifier of a family a member */
HBaseSetIter *hbase_set_read_plain       (HBaseTable             *table,
                                          GBytes                 *row,
                                          const char             *family,
                                          GError                **error);
gboolean      hbase_set_import_plain     (HBaseSet               *set,
                                          HBaseTable             *source,
                                          GBytes                 *row,
                                          const char             *family,
                                          guint64                *n_added,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* the same calls without blocking: on the client's worker pool */
void       hbase_set_add_async (HBaseSet              *set,
                                GPtrArray             *members,
                                GCancellable          *cancellable,
                                GAsyncReadyCallback   callback,
                                gpointer              user_data);
gboolean   hbase_set_add_finish (HBaseSet              *set,
                                 GAsyncResult          *result,
                                 guint64               *n_added,
                                 GError                **error);
void       hbase_set_add_one_async (HBaseSet              *set,
                                    GBytes                *member,
                                    GCancellable          *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
gboolean   hbase_set_add_one_finish (HBaseSet              *set,
                                     GAsyncResult          *result,
                                     gboolean              *added,
                                     GError                **error);
void       hbase_set_remove_async (HBaseSet              *set,
                                   GPtrArray             *members,
                                   GCancellable          *cancellable,
                                   GAsyncReadyCallback   callback,
                                   gpointer              user_data);
gboolean   hbase_set_remove_finish (HBaseSet              *set,
                                    GAsyncResult          *result,
                                    guint64               *n_removed,
                                    GError                **error);
void       hbase_set_remove_one_async (HBaseSet              *set,
                                       GBytes                *member,
                                       GCancellable          *cancellable,
                                       GAsyncReadyCallback   callback,
                                       gpointer              user_data);
gboolean   hbase_set_remove_one_finish (HBaseSet              *set,
                                        GAsyncResult          *result,
                                        gboolean              *removed,
                                        GError                **error);
void       hbase_set_clear_async (HBaseSet              *set,
                                  GCancellable          *cancellable,
                                  GAsyncReadyCallback   callback,
                                  gpointer              user_data);
gboolean   hbase_set_clear_finish (HBaseSet              *set,
                                   GAsyncResult          *result,
                                   GError                **error);
void       hbase_set_contains_async (HBaseSet              *set,
                                     GBytes                *member,
                                     GCancellable          *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
gboolean   hbase_set_contains_finish (HBaseSet              *set,
                                      GAsyncResult          *result,
                                      gboolean              *is_member,
                                      GError                **error);
void       hbase_set_contains_many_async (HBaseSet              *set,
                                          GPtrArray             *members,
                                          GCancellable          *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
gboolean   hbase_set_contains_many_finish (HBaseSet              *set,
                                           GAsyncResult          *result,
                                           GArray                **are_members,
                                           GError                **error);
void       hbase_set_card_async (HBaseSet              *set,
                                 GCancellable          *cancellable,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data);
gboolean   hbase_set_card_finish (HBaseSet              *set,
                                  GAsyncResult          *result,
                                  guint64               *card,
                                  GError                **error);
void       hbase_set_scan_async (HBaseSet              *set,
                                 GBytes                *cursor,
                                 guint                 count,
                                 GCancellable          *cancellable,
                                 GAsyncReadyCallback   callback,
                                 gpointer              user_data);
gboolean   hbase_set_scan_finish (HBaseSet              *set,
                                  GAsyncResult          *result,
                                  GBytes                **next_cursor,
                                  GPtrArray             **members,
                                  GError                **error);
void       hbase_set_iter_next_async (HBaseSetIter          *iter,
                                      GCancellable          *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
gboolean   hbase_set_iter_next_finish (HBaseSetIter          *iter,
                                       GAsyncResult          *result,
                                       GBytes                **member,
                                       GError                **error);
void       hbase_set_iter_collect_async (HBaseSetIter          *iter,
                                         GCancellable          *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
GPtrArray *hbase_set_iter_collect_finish (HBaseSetIter          *iter,
                                          GAsyncResult          *result,
                                          GError                **error);
void       hbase_set_import_plain_async (HBaseSet              *set,
                                         HBaseTable            *source,
                                         GBytes                *row,
                                         const char            *family,
                                         GCancellable          *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
gboolean   hbase_set_import_plain_finish (HBaseSet              *set,
                                          GAsyncResult          *result,
                                          guint64               *n_added,
                                          GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseSetIter, hbase_set_iter_unref)

/* string forms: keys and members as NUL-terminated strings (binary
 * members need the GBytes forms above) */
HBaseSet     *hbase_set_new_string       (HBaseTable             *table,
                                          const char             *key,
                                          const HBaseSetOptions  *options,
                                          GError                **error);
gboolean      hbase_set_add_string       (HBaseSet               *set,
                                          const char             *member,
                                          gboolean               *added,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_add_strings      (HBaseSet               *set,
                                          const char *const      *members,
                                          guint64                *n_added,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_remove_string    (HBaseSet               *set,
                                          const char             *member,
                                          gboolean               *removed,
                                          GCancellable           *cancellable,
                                          GError                **error);
gboolean      hbase_set_contains_string  (HBaseSet               *set,
                                          const char             *member,
                                          gboolean               *is_member,
                                          GCancellable           *cancellable,
                                          GError                **error);

/* string forms, asynchronous */
void          hbase_set_add_string_async       (HBaseSet            *set,
                                                const char          *member,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean      hbase_set_add_string_finish      (HBaseSet            *set,
                                                GAsyncResult        *result,
                                                gboolean            *added,
                                                GError             **error);
void          hbase_set_add_strings_async      (HBaseSet            *set,
                                                const char *const   *members,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean      hbase_set_add_strings_finish     (HBaseSet            *set,
                                                GAsyncResult        *result,
                                                guint64             *n_added,
                                                GError             **error);
void          hbase_set_remove_string_async    (HBaseSet            *set,
                                                const char          *member,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean      hbase_set_remove_string_finish   (HBaseSet            *set,
                                                GAsyncResult        *result,
                                                gboolean            *removed,
                                                GError             **error);
void          hbase_set_contains_string_async  (HBaseSet            *set,
                                                const char          *member,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean      hbase_set_contains_string_finish (HBaseSet            *set,
                                                GAsyncResult        *result,
                                                gboolean            *is_member,
                                                GError             **error);

/* deprecated: the 0.1 names, for one release (see NEWS) */
G_GNUC_DEPRECATED_FOR (g_object_unref)
void hbase_set_free (HBaseSet *set);
G_GNUC_DEPRECATED_FOR (hbase_set_iter_unref)
void hbase_set_iter_free (HBaseSetIter *iter);

G_END_DECLS

#endif /* HBASE_SET_H */
