/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-write-buffer.h: mutations collected and sent in batches, like the
 * Java client's BufferedMutator. */
#ifndef HBASE_WRITE_BUFFER_H
#define HBASE_WRITE_BUFFER_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib.h> can be included directly."
#endif

#include <gio/gio.h>

#include <hbase-glib/hbase-mutation.h>
#include <hbase-glib/hbase-table.h>

G_BEGIN_DECLS

/**
 * HBaseWriteBuffer:
 *
 * Collects puts and deletes for one table and sends them in batches: when
 * the buffered bytes or mutations reach a threshold, every so often, on
 * hbase_write_buffer_flush() and at hbase_write_buffer_close().  Every
 * mutation is either written or reported as an #HBaseWriteFailure with
 * its error; none is dropped.  Thread-safe: several threads may add at
 * once.  A #GObject: the last g_object_unref() closes the buffer if it is
 * open (its final flush reports failures as any flush: to the callback,
 * or to the list of failures); failures nobody took (there is no callback
 * and hbase_write_buffer_take_failures() was not called after them) are
 * then logged with g_warning(), on stderr by default, rather than lost.
 * No other thread may use the buffer once its last reference is dropped.
 *
 * Since: 0.1
 */
#define HBASE_TYPE_WRITE_BUFFER (hbase_write_buffer_get_type ())
G_DECLARE_FINAL_TYPE (HBaseWriteBuffer, hbase_write_buffer, HBASE, WRITE_BUFFER, GObject)

/**
 * HBaseWriteFailure:
 *
 * A mutation a flush could not write, and why.
 *
 * Since: 0.1
 */
typedef struct _HBaseWriteFailure HBaseWriteFailure;

/**
 * HBaseWriteFailureFunc:
 * @buffer: the buffer
 * @mutation: (transfer none): the mutation that was not written
 * @error: (transfer none): why (the gateway's message for a server error)
 * @user_data: the options' @user_data
 *
 * Called once for each mutation a flush could not write, in the thread
 * that flushes (the caller of hbase_write_buffer_add(), _flush(), _close()
 * or of the last g_object_unref(), the buffer's interval thread, or its
 * sender thread with @background_flush).  It must not add to, flush,
 * close or unref @buffer.
 *
 * Since: 0.1
 */
typedef void (*HBaseWriteFailureFunc) (HBaseWriteBuffer *buffer,
                                       HBaseMutation    *mutation,
                                       const GError     *error,
                                       gpointer          user_data);

/**
 * HBASE_WRITE_BUFFER_DEFAULT_MAX_BYTES:
 *
 * The default byte threshold, 2 MiB, as the Java client's write buffer.
 *
 * Since: 0.1
 */
#define HBASE_WRITE_BUFFER_DEFAULT_MAX_BYTES (2 * 1024 * 1024)

/**
 * HBaseWriteBufferOptions:
 * @max_bytes: flush when the buffered mutations reach this size (an
 *   estimate of what they take on the wire: keys, families, qualifiers,
 *   values and a few bytes per cell); 0 for
 *   %HBASE_WRITE_BUFFER_DEFAULT_MAX_BYTES.  A batch passes it by the
 *   mutation that filled it (one per thread adding at that moment).  The
 *   thread that fills a batch writes it, so one thread adding holds one
 *   batch; while it writes, adds from other threads fill the next one and
 *   then wait for it: twice @max_bytes.  The heap the mutations take is
 *   larger than this estimate (each value, key and column is a #GBytes)
 * @max_mutations: flush when this many mutations are buffered; 0 for no
 *   limit on the count
 * @flush_interval_ms: flush once the oldest buffered mutation has waited
 *   this long, from a thread of the buffer's own; 0 for no periodic flush
 *   (the default, as in the Java client)
 * @on_failure: (nullable): called for each mutation that could not be
 *   written; when %NULL, failures are kept for
 *   hbase_write_buffer_take_failures()
 * @user_data: passed to @on_failure; must outlive the buffer
 * @background_flush: write full batches from a thread of the buffer's
 *   own, as the Java client's BufferedMutator does: an add that fills a
 *   batch hands it over and returns while it is written, so the caller
 *   fills the next batch meanwhile (and the work an indexed table does
 *   before a write, such as its Redis index entries, overlaps the write
 *   before).  Batches are still written one at a time, in order.  The
 *   work an indexed table does after a write (settling its index
 *   entries) runs in the adding threads too, or in the buffer's thread
 *   while it has nothing to write, not between two writes; a flush or a
 *   close returns once it has run for every batch it covers.  At most
 *   one batch is written and one waits (or waits to be settled): an add
 *   that fills a third waits (back-pressure), and so do adds from other
 *   threads meanwhile, so up to three times @max_bytes are held.  Failures
 *   are reported from that thread.
 *
 * How a write buffer flushes and reports failures.  Initialise with
 * %HBASE_WRITE_BUFFER_OPTIONS_INIT (or hbase_write_buffer_options_new()).
 *
 * Who owns the pointers follows docs/api-conventions.md: a struct from
 * hbase_write_buffer_options_new() or hbase_write_buffer_options_copy()
 * holds what its setter stored (a callback and its @user_data, which the
 * struct does not own: it must outlive every buffer made with them),
 * while a struct on the stack filled with initialisers is never passed to
 * the setter or to hbase_write_buffer_options_free().
 *
 * Since: 0.1
 */
typedef struct {
  gsize max_bytes;
  guint max_mutations;
  guint flush_interval_ms;
  HBaseWriteFailureFunc on_failure;
  gpointer user_data;
  gboolean background_flush;
  /*< private >*/
  gpointer padding[8];
} HBaseWriteBufferOptions;

/**
 * HBASE_WRITE_BUFFER_OPTIONS_INIT:
 *
 * The defaults: flush at 2 MiB, no count limit, no periodic flush,
 * failures kept for hbase_write_buffer_take_failures(), batches written
 * by the thread that fills them.
 *
 * Since: 0.1
 */
#define HBASE_WRITE_BUFFER_OPTIONS_INIT { .max_bytes = HBASE_WRITE_BUFFER_DEFAULT_MAX_BYTES }

#define HBASE_TYPE_WRITE_BUFFER_OPTIONS (hbase_write_buffer_options_get_type ())
GType                    hbase_write_buffer_options_get_type       (void) G_GNUC_CONST;
HBaseWriteBufferOptions *hbase_write_buffer_options_new            (void);
HBaseWriteBufferOptions *hbase_write_buffer_options_copy           (const HBaseWriteBufferOptions *options);
void                     hbase_write_buffer_options_free           (HBaseWriteBufferOptions       *options);
void                     hbase_write_buffer_set_on_failure (HBaseWriteBuffer     *buffer,
                                                            HBaseWriteFailureFunc on_failure,
                                                            gpointer              user_data,
                                                            GDestroyNotify        destroy);
void                     hbase_write_buffer_options_set_on_failure (HBaseWriteBufferOptions       *options,
                                                                    HBaseWriteFailureFunc          on_failure,
                                                                    gpointer                       user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseWriteBufferOptions, hbase_write_buffer_options_free)

HBaseWriteBuffer *hbase_write_buffer_new               (HBaseTable                    *table,
                                                        const HBaseWriteBufferOptions *options,
                                                        GError                       **error);
gboolean          hbase_write_buffer_add               (HBaseWriteBuffer              *buffer,
                                                        HBaseMutation                 *mutation,
                                                        GCancellable                  *cancellable,
                                                        GError                       **error);
gboolean          hbase_write_buffer_flush             (HBaseWriteBuffer              *buffer,
                                                        GCancellable                  *cancellable,
                                                        GError                       **error);
gboolean          hbase_write_buffer_close             (HBaseWriteBuffer              *buffer,
                                                        GCancellable                  *cancellable,
                                                        GError                       **error);
void              hbase_write_buffer_add_async         (HBaseWriteBuffer              *buffer,
                                                        HBaseMutation                 *mutation,
                                                        GCancellable                  *cancellable,
                                                        GAsyncReadyCallback            callback,
                                                        gpointer                       user_data);
gboolean          hbase_write_buffer_add_finish        (HBaseWriteBuffer              *buffer,
                                                        GAsyncResult                  *result,
                                                        GError                       **error);
void              hbase_write_buffer_flush_async       (HBaseWriteBuffer              *buffer,
                                                        GCancellable                  *cancellable,
                                                        GAsyncReadyCallback            callback,
                                                        gpointer                       user_data);
gboolean          hbase_write_buffer_flush_finish      (HBaseWriteBuffer              *buffer,
                                                        GAsyncResult                  *result,
                                                        GError                       **error);
void              hbase_write_buffer_close_async       (HBaseWriteBuffer              *buffer,
                                                        GCancellable                  *cancellable,
                                                        GAsyncReadyCallback            callback,
                                                        gpointer                       user_data);
gboolean          hbase_write_buffer_close_finish      (HBaseWriteBuffer              *buffer,
                                                        GAsyncResult                  *result,
                                                        GError                       **error);

HBaseTable       *hbase_write_buffer_get_table         (HBaseWriteBuffer              *buffer);
guint             hbase_write_buffer_get_pending_count (HBaseWriteBuffer              *buffer);
gsize             hbase_write_buffer_get_pending_bytes (HBaseWriteBuffer              *buffer);
GPtrArray        *hbase_write_buffer_take_failures     (HBaseWriteBuffer              *buffer);

#define HBASE_TYPE_WRITE_FAILURE (hbase_write_failure_get_type ())
GType             hbase_write_failure_get_type         (void) G_GNUC_CONST;
HBaseWriteFailure *hbase_write_failure_copy            (const HBaseWriteFailure       *failure);
void              hbase_write_failure_free             (HBaseWriteFailure             *failure);
HBaseMutation    *hbase_write_failure_get_mutation     (const HBaseWriteFailure       *failure);
GBytes           *hbase_write_failure_get_row          (const HBaseWriteFailure       *failure);
const GError     *hbase_write_failure_get_error        (const HBaseWriteFailure       *failure);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseWriteFailure, hbase_write_failure_free)

/* string forms: a put of one row's cells, the row key, "family:qualifier"
 * columns and values as NUL-terminated strings (binary data needs a
 * mutation built with the GBytes forms and hbase_write_buffer_add()) */
gboolean          hbase_write_buffer_put_strings       (HBaseWriteBuffer              *buffer,
                                                        const char                    *row,
                                                        const char *const             *columns,
                                                        const char *const             *values,
                                                        GCancellable                  *cancellable,
                                                        GError                       **error);
gboolean          hbase_write_buffer_put_columns       (HBaseWriteBuffer              *buffer,
                                                        const char                    *row,
                                                        GCancellable                  *cancellable,
                                                        GError                       **error,
                                                        const char                    *first_column,
                                                        ...) G_GNUC_NULL_TERMINATED;
void              hbase_write_buffer_put_strings_async (HBaseWriteBuffer              *buffer,
                                                        const char                    *row,
                                                        const char *const             *columns,
                                                        const char *const             *values,
                                                        GCancellable                  *cancellable,
                                                        GAsyncReadyCallback            callback,
                                                        gpointer                       user_data);
gboolean          hbase_write_buffer_put_strings_finish (HBaseWriteBuffer             *buffer,
                                                         GAsyncResult                 *result,
                                                         GError                      **error);
void              hbase_write_buffer_put_columns_async (HBaseWriteBuffer              *buffer,
                                                        const char                    *row,
                                                        GCancellable                  *cancellable,
                                                        GAsyncReadyCallback            callback,
                                                        gpointer                       user_data,
                                                        const char                    *first_column,
                                                        ...) G_GNUC_NULL_TERMINATED;
gboolean          hbase_write_buffer_put_columns_finish (HBaseWriteBuffer             *buffer,
                                                         GAsyncResult                 *result,
                                                         GError                      **error);

/* deprecated: the 0.1 names, for one release (see NEWS) */
G_GNUC_DEPRECATED_FOR (g_object_unref)
void hbase_write_buffer_free (HBaseWriteBuffer *buffer);

G_END_DECLS

#endif /* HBASE_WRITE_BUFFER_H */
