/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-write-buffer.c: HBaseWriteBuffer, mutations collected and sent in
 * batches, like the Java client's BufferedMutator.
 *
 * Long because: the adds, the flushes (in the caller's thread, the sender
 * thread and the interval thread), the failure reporting and close share
 * one struct and one lock; split, each part would need the others' locking
 * rules to be read.
 *
 * Why it is built this way:
 *
 * - It sends through the public table API only (hbase_table_apply_multiple()
 *   and hbase_table_apply()), so it has the table's checks, retries,
 *   deadline and error messages, and cannot drift from them.  Of the
 *   private helpers it uses only the mutation check (to refuse a bad
 *   mutation at add) and the conversion to Thrift structs (to estimate its
 *   size).
 * - One lock guards the buffered mutations; a second one is held through a
 *   whole flush, so flushes never overlap and reach HBase in the order
 *   their mutations were added.  Adds go on filling the next batch during
 *   a flush; an add that reaches a threshold waits for the flush in
 *   progress, which bounds the memory held (back-pressure, as in Java).
 * - A flush sends each run of consecutive puts (or deletes) as putMultiple
 *   (deleteMultiple) requests of at most about 1 MiB: a framed gateway
 *   closes the connection on a frame above 2 MB, the size of the default
 *   buffer.  A request that fails is not resent whole: its mutations are
 *   sent again one at a time (puts and deletes are idempotent), so exactly
 *   the failing ones are reported and the others are written, as Java's
 *   AsyncProcess does per row.  Requests that succeeded are never resent.
 * - Some errors would strike every mutation alike: the gateway unreachable,
 *   a timeout, an unreadable reply, a missing table, cancellation.
 *   Resending one at a time would only repeat them, each after the whole
 *   retry deadline, so the rest of the flush fails with that error, each
 *   mutation still reported.
 * - Failures go to the on_failure callback, or else into a list the caller
 *   takes; flush and close also fail with a summary.  What is still in the
 *   list when the buffer is freed is logged with g_warning(), the last
 *   resort, so that no failure vanishes.
 * - The buffer counts the bytes it holds until they are written (pending
 *   and taken batches), and adds wait while three batches are taken: with
 *   several threads adding, the one that took a third batch waits for the
 *   queue, and the others would otherwise fill a fourth meanwhile.
 * - With background_flush, full batches go to a sender thread: the thread
 *   that fills a batch also prepares it (checks, converts, and runs the
 *   table's before-write hooks: the Redis index adds its entries there),
 *   so that work overlaps the write of the batch before, while HBase still
 *   receives the batches one at a time and in order.  A flush queues its
 *   batch under flush_lock, so the queue keeps the order batches were taken.
 * - The table's after-write hooks of a background batch (the Redis index
 *   settles the batch's rows there: a Redis round trip and the per-row
 *   bookkeeping) are not run by the sender between two writes: the batch
 *   waits, written, in the settling queue (still counted among the taken
 *   batches), and the next thread that adds, flushes or waits settles it;
 *   the sender does so itself only when no batch is queued for it.  A
 *   flush of everything returns once its batches are settled.
 * - The periodic flush is a thread waiting on a GCond with a deadline, not
 *   a GSource: no main loop is needed, and it sleeps while nothing waits.
 */
#include "config.h"

#include "hbase-mutation-private.h"
#include "hbase-table-call.h"
#include "hbase-write-buffer-private.h"
#include "hbase-write-failure.h"

/* Well below the 2 MB frame limit of framed gateways. */
#define MAX_REQUEST_BYTES (1024 * 1024)
/* What Thrift adds around a mutation and around a cell, roughly. */
#define MUTATION_OVERHEAD 32
#define CELL_OVERHEAD 32
/* Batches taken and not yet written or settled (background: one written,
 * one queued and one waiting to be queued, or one of them written and
 * waiting to be settled), beyond which adds wait. */
#define MAX_TAKEN_BATCHES 3
/* Untaken failures logged one by one at free, before a count of the rest. */
#define MAX_WARNINGS 10

typedef struct {
  HBaseMutation *mutation;
  gsize size;
} Pending;

struct _HBaseWriteBuffer {
  GObject parent_instance;
  HBaseTable *table;
  gsize max_bytes;
  guint max_mutations;
  gint64 interval_us;

  GMutex lock;            /* guards the fields up to flush_lock */
  HBaseFailureHandler *on_failure;   /* NULL: failures go to the list */
  GCond wake;             /* wakes the interval thread */
  GArray *pending;        /* Pending, in the order added */
  gsize pending_bytes;
  gsize held_bytes;       /* pending_bytes and those of the taken batches not yet written */
  gsize peak_held_bytes;  /* the highest held_bytes so far */
  guint n_taken;          /* batches taken and not yet written */
  gint64 oldest;          /* monotonic time the first pending one was added */
  GPtrArray *failures;    /* HBaseWriteFailure, kept when there is no on_failure */
  gboolean closed;
  GThread *flusher;       /* the interval thread, or NULL */
  /* background flushes */
  GThread *sender;        /* writes queued batches, or NULL */
  GCond work;             /* wakes the sender */
  GCond moved;            /* a batch was taken by the sender, written or settled */
  struct _Batch *queued;  /* prepared, next to write */
  struct _Batch *in_flight;
  GQueue settling;        /* written, their after-write hooks not run yet */
  gboolean settle_running; /* a thread runs the hooks of the first one */
  gboolean stopping;
  guint carried_failed;   /* failures of batches nobody waited for, */
  guint carried_mutations; /* ... out of so many, since the last flush, */
  HBaseWriteFailure *carried_first; /* ... and the first of them */

  GMutex flush_lock;      /* held through a flush (background: until queued) */
};

G_DEFINE_FINAL_TYPE (HBaseWriteBuffer, hbase_write_buffer, G_TYPE_OBJECT)

typedef enum {
  FLUSH_ALL,              /* whatever is pending */
  FLUSH_FULL,             /* only if a threshold is still reached */
  FLUSH_DUE,              /* only if the oldest has waited the interval */
} FlushMode;

/* What one flush did. */
typedef struct {
  guint n_failed;
  HBaseWriteFailure *first;
  GError *shared;         /* an error that fails the rest of the flush */
} Outcome;

/* Mutations of one kind sent in one call (putMultiple, deleteMultiple). */
typedef struct {
  GPtrArray *mutations;   /* HBaseMutation */
  TableCall *prepared;    /* background: converted, before hooks done */
  GError *error;          /* background: why preparing failed */
} Request;

/* The mutations one flush took, and what became of them. */
typedef struct _Batch {
  GPtrArray *requests;    /* Request, in order */
  guint n_mutations;
  gsize bytes;            /* their estimated size, counted in held_bytes until written */
  GCancellable *cancellable;
  Outcome outcome;
  gboolean waited;        /* a flush waits for it and frees it */
} Batch;

/* --- the buffer --------------------------------------------------------------------------- */

static void
pending_clear (gpointer data)
{
  hbase_mutation_unref (((Pending *) data)->mutation);
}

static GArray *
pending_new (void)
{
  GArray *pending = g_array_new (FALSE, FALSE, sizeof (Pending));

  g_array_set_clear_func (pending, pending_clear);
  return pending;
}

/* What the mutation's cells, columns and families add, read from the
 * mutation itself: converting it to the generated structs here would copy
 * every value once more only to measure it. */
static gsize
entries_size (HBaseMutation *mutation)
{
  gsize size = 0;

  for (guint i = 0; i < _hbase_mutation_get_n_entries (mutation); i++)
    {
      GBytes *family = NULL, *qualifier = NULL, *value = NULL;
      gint64 timestamp;

      _hbase_mutation_get_entry (mutation, i, &family, &qualifier, &value, &timestamp);
      size += CELL_OVERHEAD + g_bytes_get_size (family) + g_bytes_get_size (qualifier) +
              (value != NULL ? g_bytes_get_size (value) : 0);
    }
  return size;
}

static gsize
mutation_size (HBaseMutation *mutation)
{
  return MUTATION_OVERHEAD + g_bytes_get_size (hbase_mutation_get_row (mutation)) +
         entries_size (mutation);
}

/* Called with the lock held. */
static gboolean
is_full (HBaseWriteBuffer *buffer)
{
  return buffer->pending_bytes >= buffer->max_bytes ||
         (buffer->max_mutations > 0 && buffer->pending->len >= buffer->max_mutations);
}

/* Called with the lock held. */
static gboolean
is_due (HBaseWriteBuffer *buffer)
{
  return buffer->interval_us > 0 && g_get_monotonic_time () >= buffer->oldest + buffer->interval_us;
}

static void
report (HBaseWriteBuffer *buffer, Outcome *outcome, HBaseMutation *mutation, const GError *error)
{
  HBaseWriteFailure *failure = _hbase_write_failure_new (mutation, error);
  HBaseFailureHandler *on_failure;

  outcome->n_failed++;
  if (outcome->first == NULL)
    outcome->first = hbase_write_failure_copy (failure);
  g_mutex_lock (&buffer->lock);
  /* our reference keeps the callback's data alive through the call, even
   * if hbase_write_buffer_set_on_failure() replaces it meanwhile */
  on_failure = _hbase_failure_handler_ref (buffer->on_failure);
  if (on_failure == NULL)
    g_ptr_array_add (buffer->failures, g_steal_pointer (&failure));
  g_mutex_unlock (&buffer->lock);
  if (on_failure != NULL)
    {
      _hbase_failure_handler_call (on_failure, buffer, mutation, error);
      _hbase_failure_handler_unref (on_failure);
      hbase_write_failure_free (failure);
    }
}

/* An error that is not about one mutation: every other one would meet it
 * too (and resending each would wait out the whole retry deadline). */
static gboolean
fails_everything (const GError *error)
{
  if (error->domain != HBASE_ERROR)
    return TRUE;  /* cancelled */
  return error->code == HBASE_ERROR_CONNECTION || error->code == HBASE_ERROR_TIMEOUT || error->code == HBASE_ERROR_PROTOCOL ||
         (error->code == HBASE_ERROR_NOT_FOUND && !_hbase_error_is_missing_family (error));  /* a family: its mutations */
}

/* --- batches and requests -------------------------------------------------------------------- */

static void
request_free (gpointer data)
{
  Request *request = data;

  g_ptr_array_unref (request->mutations);
  /* prepared and never sent: its write hooks learn it was not applied */
  g_clear_pointer (&request->prepared, _hbase_table_call_free);
  g_clear_error (&request->error);
  g_free (request);
}

/* Cuts @pending (taken, in the order added) in runs of puts and of
 * deletes, and those in requests of at most MAX_REQUEST_BYTES (a bigger
 * mutation goes alone). */
static Batch *
batch_new (GArray *pending, GCancellable *cancellable)
{
  Batch *batch = g_new0 (Batch, 1);
  Request *request = NULL;
  gsize request_bytes = 0;

  batch->requests = g_ptr_array_new_with_free_func (request_free);
  batch->n_mutations = pending->len;
  batch->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  for (guint i = 0; i < pending->len; i++)
    {
      const Pending *one = &g_array_index (pending, Pending, i);

      if (request == NULL ||
          hbase_mutation_is_put (request->mutations->pdata[0]) != hbase_mutation_is_put (one->mutation) ||
          request_bytes + one->size > MAX_REQUEST_BYTES)
        {
          request = g_new0 (Request, 1);
          request->mutations = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_mutation_unref);
          g_ptr_array_add (batch->requests, request);
          request_bytes = 0;
        }
      g_ptr_array_add (request->mutations, hbase_mutation_ref (one->mutation));
      request_bytes += one->size;
    }
  return batch;
}

/* A batch of no mutation, to carry the result of earlier ones. */
static Batch *
batch_new_empty (void)
{
  g_autoptr(GArray) none = pending_new ();

  return batch_new (none, NULL);
}

static void
batch_free (Batch *batch)
{
  g_ptr_array_unref (batch->requests);
  g_clear_object (&batch->cancellable);
  g_clear_error (&batch->outcome.shared);
  g_clear_pointer (&batch->outcome.first, hbase_write_failure_free);
  g_free (batch);
}

/* For a background flush: checks, converts and runs the table's write
 * hooks' first part now, in the caller's thread, while the sender writes
 * the batch before.  A request of one mutation goes through
 * hbase_table_apply() (a mixed delete stays atomic) and is not prepared. */
static void
batch_prepare (HBaseWriteBuffer *buffer, Batch *batch)
{
  for (guint i = 0; i < batch->requests->len; i++)
    {
      Request *request = g_ptr_array_index (batch->requests, i);

      if (request->mutations->len > 1)
        request->prepared = _hbase_table_apply_multiple_prepare (buffer->table, request->mutations,
                                                                 batch->cancellable, &request->error);
      if (request->prepared != NULL)
        _hbase_table_call_defer_after (request->prepared);
    }
}

/* Sends one request.  When it fails for reasons of its own, sends its
 * mutations again one at a time to find which fail. */
static void
send_request (HBaseWriteBuffer *buffer, Request *request, GCancellable *cancellable,
              Outcome *outcome)
{
  GPtrArray *mutations = request->mutations;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  if (outcome->shared == NULL)
    {
      if (request->prepared != NULL)
        ok = _hbase_table_apply_multiple_send (request->prepared, cancellable, &error);
      else if (request->error != NULL)
        {
          /* preparing failed (the index's before-write step refused it) */
          error = g_error_copy (request->error);
          ok = FALSE;
        }
      else if (mutations->len == 1)
        ok = hbase_table_apply (buffer->table, mutations->pdata[0], cancellable, &error);
      else
        ok = hbase_table_apply_multiple (buffer->table, mutations, cancellable, &error);
      /* written: its after-write hooks wait for the batch to be settled
       * (settle_one()); failed: they run now, before the mutations are
       * sent again one by one */
      if (!ok || (request->prepared != NULL && !_hbase_table_call_owes_after (request->prepared)))
        g_clear_pointer (&request->prepared, _hbase_table_call_free);
      if (ok)
        return;
      if (fails_everything (error))
        outcome->shared = g_steal_pointer (&error);
    }
  if (outcome->shared != NULL || mutations->len == 1)
    {
      for (guint i = 0; i < mutations->len; i++)
        report (buffer, outcome, mutations->pdata[i], outcome->shared != NULL ? outcome->shared : error);
      return;
    }
  for (guint i = 0; i < mutations->len; i++)
    {
      HBaseMutation *mutation = mutations->pdata[i];

      g_clear_error (&error);
      if (outcome->shared == NULL && hbase_table_apply (buffer->table, mutation, cancellable, &error))
        continue;
      if (outcome->shared == NULL && fails_everything (error))
        outcome->shared = g_steal_pointer (&error);
      report (buffer, outcome, mutation, outcome->shared != NULL ? outcome->shared : error);
    }
}

/* Sends @batch; TRUE when it is to be settled: some of its requests still
 * owe their after-write hooks (settle_one()). */
static gboolean
send_batch (HBaseWriteBuffer *buffer, Batch *batch)
{
  for (guint i = 0; i < batch->requests->len; i++)
    send_request (buffer, g_ptr_array_index (batch->requests, i), batch->cancellable,
                  &batch->outcome);
  /* a batch that failed is done with now: the hooks of its failed
   * request ran, and those of requests never sent learn it at once */
  for (guint i = 0; batch->outcome.shared == NULL && i < batch->requests->len; i++)
    if (((Request *) g_ptr_array_index (batch->requests, i))->prepared != NULL)
      return TRUE;
  g_ptr_array_set_size (batch->requests, 0);
  return FALSE;
}

/* TRUE if every mutation of @batch was written, else FALSE with a summary. */
static gboolean
batch_result (HBaseWriteBuffer *buffer, Batch *batch, GError **error)
{
  g_autofree char *summary = NULL;

  if (batch == NULL || batch->outcome.n_failed == 0)
    return TRUE;
  summary = g_strdup_printf ("%u of %u %s to table %s failed", batch->outcome.n_failed,
                             batch->n_mutations, batch->n_mutations == 1 ? "mutation" : "mutations",
                             hbase_table_get_name (buffer->table));
  _hbase_write_failure_set_error (error, batch->outcome.first, summary);
  return FALSE;
}

/* --- flushing ------------------------------------------------------------------------------ */

/* Takes the pending mutations as a batch if @mode says they are to be
 * flushed, else NULL.  Call with buffer->lock held. */
static Batch *
take_batch (HBaseWriteBuffer *buffer, FlushMode mode, GCancellable *cancellable)
{
  g_autoptr(GArray) taken = NULL;
  Batch *batch;

  if (buffer->pending->len == 0 ||
      !(mode == FLUSH_ALL || (mode == FLUSH_FULL && is_full (buffer)) ||
        (mode == FLUSH_DUE && is_due (buffer))))
    return NULL;
  taken = buffer->pending;
  buffer->pending = pending_new ();
  batch = batch_new (taken, cancellable);
  batch->bytes = buffer->pending_bytes;
  buffer->pending_bytes = 0;
  buffer->n_taken++;
  return batch;
}

/* @batch was written (and settled): its mutations are no longer held.
 * Call with buffer->lock held. */
static void
release_batch (HBaseWriteBuffer *buffer, Batch *batch)
{
  buffer->held_bytes -= batch->bytes;
  batch->bytes = 0;
  buffer->n_taken--;
  /* adds waiting for room (hbase_write_buffer_add()) */
  g_cond_broadcast (&buffer->moved);
}

/* The end of a background batch: released, and freed unless a flush
 * waits for it (that flush frees it).  Called with buffer->lock held;
 * drops it while freeing. */
static void
batch_done (HBaseWriteBuffer *buffer, Batch *batch)
{
  release_batch (buffer, batch);
  if (!batch->waited)
    {
      g_mutex_unlock (&buffer->lock);
      batch_free (batch);
      g_mutex_lock (&buffer->lock);
    }
}

/* Settles the oldest written batch: runs its after-write hooks in this
 * thread, then releases it.  FALSE when none waits, or when another
 * thread is settling one (batches settle one at a time, in the order
 * written).  Called with buffer->lock held; drops it meanwhile. */
static gboolean
settle_one (HBaseWriteBuffer *buffer)
{
  Batch *batch;

  if (buffer->settle_running || (batch = g_queue_pop_head (&buffer->settling)) == NULL)
    return FALSE;
  buffer->settle_running = TRUE;
  g_mutex_unlock (&buffer->lock);
  /* freeing the prepared calls runs their after hooks */
  g_ptr_array_set_size (batch->requests, 0);
  g_mutex_lock (&buffer->lock);
  buffer->settle_running = FALSE;
  batch_done (buffer, batch);
  g_cond_broadcast (&buffer->moved);
  return TRUE;
}

/* Waits on buffer->moved, or settles a batch instead when one waits. */
static void
wait_moved (HBaseWriteBuffer *buffer)
{
  if (!settle_one (buffer))
    g_cond_wait (&buffer->moved, &buffer->lock);
}

/* Background flushes: hands @batch (may be NULL) to the sender thread, in
 * the order batches were taken; with FLUSH_ALL, waits until everything
 * handed over so far is written.  Call with flush_lock held: it is
 * released once the batch is queued. */
static gboolean
flush_in_background (HBaseWriteBuffer *buffer, Batch *batch, FlushMode mode, GError **error)
{
  gboolean ok;

  if (batch != NULL)
    {
      /* the batches written before first: their hooks' work before this
       * one's, and their mutations no longer held */
      g_mutex_lock (&buffer->lock);
      while (settle_one (buffer))
        ;
      g_mutex_unlock (&buffer->lock);
      batch_prepare (buffer, batch);
      batch->waited = mode == FLUSH_ALL;
    }
  g_mutex_lock (&buffer->lock);
  if (batch != NULL)
    {
      /* back-pressure: one batch written, one queued, one filling */
      while (buffer->queued != NULL)
        wait_moved (buffer);
      buffer->queued = batch;
      g_cond_signal (&buffer->work);
    }
  g_mutex_unlock (&buffer->flush_lock);
  if (mode != FLUSH_ALL)
    {
      g_mutex_unlock (&buffer->lock);
      return TRUE;
    }
  while (buffer->queued != NULL || buffer->in_flight != NULL ||
         !g_queue_is_empty (&buffer->settling) || buffer->settle_running)
    wait_moved (buffer);
  /* the result covers every batch since the last flush */
  if (batch == NULL && buffer->carried_mutations > 0)
    batch = batch_new_empty ();
  if (batch != NULL)
    {
      batch->n_mutations += buffer->carried_mutations;
      batch->outcome.n_failed += buffer->carried_failed;
      if (buffer->carried_first != NULL)
        {
          g_clear_pointer (&batch->outcome.first, hbase_write_failure_free);
          batch->outcome.first = g_steal_pointer (&buffer->carried_first);
        }
      buffer->carried_mutations = buffer->carried_failed = 0;
    }
  g_mutex_unlock (&buffer->lock);
  ok = batch_result (buffer, batch, error);
  g_clear_pointer (&batch, batch_free);
  return ok;
}

static gboolean
flush (HBaseWriteBuffer *buffer, FlushMode mode, GCancellable *cancellable, GError **error)
{
  Batch *batch;
  gboolean ok;

  /* taken before the batch, so batches are sent in the order taken */
  g_mutex_lock (&buffer->flush_lock);
  g_mutex_lock (&buffer->lock);
  batch = take_batch (buffer, mode, cancellable);
  g_mutex_unlock (&buffer->lock);
  if (buffer->sender != NULL)
    return flush_in_background (buffer, batch, mode, error);
  if (batch != NULL)
    {
      send_batch (buffer, batch);
      g_mutex_lock (&buffer->lock);
      release_batch (buffer, batch);
      g_mutex_unlock (&buffer->lock);
    }
  g_mutex_unlock (&buffer->flush_lock);
  ok = batch_result (buffer, batch, error);
  g_clear_pointer (&batch, batch_free);
  return ok;
}

/* The sender thread of background flushes: writes the queued batches one
 * after the other until the buffer stops it. */
static gpointer
sender_main (gpointer data)
{
  HBaseWriteBuffer *buffer = data;

  g_mutex_lock (&buffer->lock);
  for (;;)
    {
      Batch *batch;
      gboolean to_settle;

      /* nothing to write: settle what was written (nobody waits for this
       * thread meanwhile) */
      while (buffer->queued == NULL && settle_one (buffer))
        ;
      while (buffer->queued == NULL && !buffer->stopping)
        g_cond_wait (&buffer->work, &buffer->lock);
      if (buffer->queued == NULL)
        break;
      batch = buffer->in_flight = g_steal_pointer (&buffer->queued);
      g_cond_broadcast (&buffer->moved);
      g_mutex_unlock (&buffer->lock);
      to_settle = send_batch (buffer, batch);
      g_mutex_lock (&buffer->lock);
      if (!batch->waited)
        {
          /* for the next hbase_write_buffer_flush()'s result */
          buffer->carried_failed += batch->outcome.n_failed;
          buffer->carried_mutations += batch->n_mutations;
          if (buffer->carried_first == NULL)
            buffer->carried_first = g_steal_pointer (&batch->outcome.first);
        }
      if (to_settle)
        g_queue_push_tail (&buffer->settling, batch);
      else
        batch_done (buffer, batch);
      buffer->in_flight = NULL;
      g_cond_broadcast (&buffer->moved);
    }
  g_mutex_unlock (&buffer->lock);
  return NULL;
}

/* The interval thread: flushes once the oldest pending mutation is due,
 * sleeps while nothing is pending, ends when the buffer closes. */
static gpointer
flusher_main (gpointer data)
{
  HBaseWriteBuffer *buffer = data;

  g_mutex_lock (&buffer->lock);
  while (!buffer->closed)
    {
      if (buffer->pending->len == 0)
        g_cond_wait (&buffer->wake, &buffer->lock);
      else if (!is_due (buffer))
        g_cond_wait_until (&buffer->wake, &buffer->lock, buffer->oldest + buffer->interval_us);
      else
        {
          g_mutex_unlock (&buffer->lock);
          /* its failures are reported one by one; the summary has no reader */
          flush (buffer, FLUSH_DUE, NULL, NULL);
          g_mutex_lock (&buffer->lock);
        }
    }
  g_mutex_unlock (&buffer->lock);
  return NULL;
}

/* Ends the sender thread once everything queued is written. */
static void
stop_sender (HBaseWriteBuffer *buffer)
{
  GThread *sender;

  g_mutex_lock (&buffer->lock);
  buffer->stopping = TRUE;
  sender = g_steal_pointer (&buffer->sender);
  g_cond_signal (&buffer->work);
  g_mutex_unlock (&buffer->lock);
  if (sender != NULL)
    g_thread_join (sender);
}

static gboolean
check_open (HBaseWriteBuffer *buffer, GError **error)
{
  gboolean closed;

  g_mutex_lock (&buffer->lock);
  closed = buffer->closed;
  g_mutex_unlock (&buffer->lock);
  if (closed && buffer->table == NULL)
    g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                         "the write buffer has no table: make it with hbase_write_buffer_new()");
  else if (closed)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                 "the write buffer of table %s is closed", hbase_table_get_name (buffer->table));
  return !closed;
}

/**
 * hbase_write_buffer_new:
 * @table: the table to write to (referenced)
 * @options: (nullable): thresholds, interval and failure callback; %NULL
 *   for %HBASE_WRITE_BUFFER_OPTIONS_INIT
 * @error: return location for an error
 *
 * A write buffer for @table.  With a @flush_interval_ms, it starts a
 * thread that flushes in the background until the buffer is closed; with
 * @background_flush, a thread that writes the batches.
 *
 * Returns: (transfer full) (nullable): the buffer, or %NULL with @error set
 *   (%HBASE_ERROR_ILLEGAL_ARGUMENT without a table, a %G_THREAD_ERROR if
 *   the thread cannot be started)
 *
 * Since: 0.1
 */
HBaseWriteBuffer *
hbase_write_buffer_new (HBaseTable *table, const HBaseWriteBufferOptions *options, GError **error)
{
  static const HBaseWriteBufferOptions defaults = HBASE_WRITE_BUFFER_OPTIONS_INIT;
  HBaseWriteBuffer *buffer;

  if (!_hbase_table_check (table, error))
    return NULL;
  if (options == NULL)
    options = &defaults;
  buffer = g_object_new (HBASE_TYPE_WRITE_BUFFER, NULL);
  buffer->table = g_object_ref (table);
  buffer->max_bytes = options->max_bytes > 0 ? options->max_bytes
                                              : HBASE_WRITE_BUFFER_DEFAULT_MAX_BYTES;
  buffer->max_mutations = options->max_mutations;
  buffer->interval_us = (gint64) options->flush_interval_ms * G_TIME_SPAN_MILLISECOND;
  /* the options' data is borrowed: no destroy */
  buffer->on_failure = _hbase_failure_handler_new (options->on_failure, options->user_data, NULL);
  buffer->closed = FALSE;
  if (options->background_flush)
    {
      buffer->sender = g_thread_try_new ("hbase-wbuffer-send", sender_main, buffer, error);
      if (buffer->sender == NULL)
        {
          g_object_unref (buffer);
          return NULL;
        }
    }
  if (buffer->interval_us > 0)
    {
      buffer->flusher = g_thread_try_new ("hbase-wbuffer", flusher_main, buffer, error);
      if (buffer->flusher == NULL)
        {
          g_object_unref (buffer);
          return NULL;
        }
    }
  return buffer;
}

/**
 * hbase_write_buffer_add:
 * @buffer: a write buffer
 * @mutation: a put or a delete (referenced: do not change it afterwards)
 * @cancellable: (nullable): cancels the flush this add may start
 * @error: return location for an error
 *
 * Buffers a mutation.  It is checked at once, like hbase_table_apply()
 * would: a bad one (%NULL, no row, empty row, a put without cells, ...)
 * is refused with %HBASE_ERROR_ILLEGAL_ARGUMENT and not buffered, and so
 * is any mutation once the buffer is closed.
 *
 * When the buffered bytes or mutations reach a threshold, the buffer is
 * flushed in this thread before this returns (waiting first for a flush
 * in progress); with @background_flush, the batch is handed to the
 * buffer's sender thread instead, and this waits only while another batch
 * already waits for it (or, before buffering @mutation, while a batch of
 * another thread does, so that no more than three are held).  The
 * mutations that flush cannot write are reported to the failure callback
 * or kept for hbase_write_buffer_take_failures(); they do not make this
 * call fail: once buffered, a mutation is accepted.
 *
 * Returns: %TRUE if @mutation was buffered (it will be written or
 *   reported), %FALSE with @error set if it was refused
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_add (HBaseWriteBuffer *buffer, HBaseMutation *mutation,
                        GCancellable *cancellable, GError **error)
{
  Pending pending;
  gboolean full;

  g_return_val_if_fail (HBASE_IS_WRITE_BUFFER (buffer), FALSE);
  if (!_hbase_mutation_check (mutation, error) || !check_open (buffer, error))
    return FALSE;
  pending.mutation = hbase_mutation_ref (mutation);
  pending.size = mutation_size (mutation);

  g_mutex_lock (&buffer->lock);
  /* back-pressure for adds from several threads: while three batches are
   * taken (one written, one queued, one handed over by a thread waiting
   * for the queue, or one written and waiting to be settled, which this
   * thread then does), a fourth does not fill up meanwhile */
  while (buffer->n_taken >= MAX_TAKEN_BATCHES && !buffer->closed)
    wait_moved (buffer);
  if (buffer->closed)
    {
      /* closed meanwhile */
      g_mutex_unlock (&buffer->lock);
      pending_clear (&pending);
      return check_open (buffer, error);
    }
  if (buffer->pending->len == 0)
    {
      buffer->oldest = g_get_monotonic_time ();
      g_cond_signal (&buffer->wake);
    }
  g_array_append_val (buffer->pending, pending);
  buffer->pending_bytes += pending.size;
  buffer->held_bytes += pending.size;
  buffer->peak_held_bytes = MAX (buffer->peak_held_bytes, buffer->held_bytes);
  full = is_full (buffer);
  g_mutex_unlock (&buffer->lock);

  if (full)
    flush (buffer, FLUSH_FULL, cancellable, NULL);
  return TRUE;
}

/**
 * hbase_write_buffer_flush:
 * @buffer: a write buffer
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Sends every mutation buffered so far (after a flush in progress, if
 * any), in the order added: each run of puts as putMultiple calls, each
 * run of deletes as deleteMultiple calls.  When a call fails, its
 * mutations are sent again one at a time, so that only those that really
 * fail are reported and the others are written.  An error that would fail
 * every mutation alike (the gateway unreachable, a timeout, a missing
 * table, cancellation) fails the rest of the flush: each of those
 * mutations is reported with it.
 *
 * Each failed mutation goes to the failure callback, or else is kept for
 * hbase_write_buffer_take_failures().  With @background_flush, this also
 * waits for the batches handed to the sender thread before, their failures
 * are reported as they happen, and this call's result covers them too:
 * every mutation taken since the previous flush.
 *
 * Returns: %TRUE if every mutation was written; %FALSE with @error set
 *   otherwise, in the domain and code of the first failure, saying how
 *   many failed and the first one's row and error, or
 *   %HBASE_ERROR_ILLEGAL_ARGUMENT when the buffer is closed
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_flush (HBaseWriteBuffer *buffer, GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (HBASE_IS_WRITE_BUFFER (buffer), FALSE);
  return check_open (buffer, error) && flush (buffer, FLUSH_ALL, cancellable, error);
}

/**
 * hbase_write_buffer_close:
 * @buffer: a write buffer
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for an error
 *
 * Stops the interval thread, refuses further adds and flushes what is
 * left, as hbase_write_buffer_flush().  Closing a closed buffer does
 * nothing and returns %TRUE.
 *
 * Returns: %TRUE if every mutation was written and no failure is left
 *   untaken; %FALSE with @error set if the final flush failed (as
 *   hbase_write_buffer_flush()), or else if failures of earlier flushes
 *   are still waiting for hbase_write_buffer_take_failures()
 *
 * Since: 0.1
 */
gboolean
hbase_write_buffer_close (HBaseWriteBuffer *buffer, GCancellable *cancellable, GError **error)
{
  g_autoptr(HBaseWriteFailure) first = NULL;
  g_autofree char *summary = NULL;
  GThread *flusher;
  guint n_untaken;
  gboolean flushed;

  g_return_val_if_fail (HBASE_IS_WRITE_BUFFER (buffer), FALSE);
  g_mutex_lock (&buffer->lock);
  if (buffer->closed)
    {
      g_mutex_unlock (&buffer->lock);
      return TRUE;
    }
  buffer->closed = TRUE;
  flusher = g_steal_pointer (&buffer->flusher);
  g_cond_signal (&buffer->wake);
  g_mutex_unlock (&buffer->lock);

  if (flusher != NULL)
    g_thread_join (flusher);
  flushed = flush (buffer, FLUSH_ALL, cancellable, error);
  stop_sender (buffer);
  if (!flushed)
    return FALSE;

  g_mutex_lock (&buffer->lock);
  n_untaken = buffer->failures->len;
  if (n_untaken > 0)
    first = hbase_write_failure_copy (g_ptr_array_index (buffer->failures, 0));
  g_mutex_unlock (&buffer->lock);
  if (n_untaken == 0)
    return TRUE;
  summary = g_strdup_printf ("%u %s to table %s failed in earlier flushes and %s not taken "
                             "with hbase_write_buffer_take_failures()", n_untaken,
                             n_untaken == 1 ? "mutation" : "mutations",
                             hbase_table_get_name (buffer->table),
                             n_untaken == 1 ? "was" : "were");
  _hbase_write_failure_set_error (error, first, summary);
  return FALSE;
}

/**
 * hbase_write_buffer_set_on_failure:
 * @buffer: a write buffer
 * @on_failure: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   called for each mutation @buffer could not write from now on (in the
 *   thread that flushes); %NULL to keep failures for
 *   hbase_write_buffer_take_failures() instead
 * @user_data: passed to @on_failure
 * @destroy: (nullable): frees @user_data when @buffer no longer needs it
 *
 * Sets the failure callback of @buffer, replacing the one of its options
 * or an earlier call; the buffer owns @user_data from now on.  This is the
 * form for bindings, whose callbacks must live as long as the buffer.
 * Safe while another thread flushes: a call of the previous callback that
 * is under way finishes first, and only then is its data freed.
 *
 * Since: 0.1
 */
void
hbase_write_buffer_set_on_failure (HBaseWriteBuffer     *buffer,
                                   HBaseWriteFailureFunc on_failure,
                                   gpointer              user_data,
                                   GDestroyNotify        destroy)
{
  HBaseFailureHandler *handler, *old;

  g_return_if_fail (HBASE_IS_WRITE_BUFFER (buffer));
  handler = _hbase_failure_handler_new (on_failure, user_data, destroy);
  g_mutex_lock (&buffer->lock);
  old = buffer->on_failure;
  buffer->on_failure = handler;
  g_mutex_unlock (&buffer->lock);
  /* a flush running the old callback holds its own reference: the old data
   * is freed when the last of them returns, never under a running call */
  _hbase_failure_handler_unref (old);
}

/* Closes the buffer if it is open (its final flush reports failures as any
 * flush: to the callback, or to the list of failures), then frees it.
 * Failures nobody took are logged with g_warning(), rather than lost. */
static void
hbase_write_buffer_finalize (GObject *object)
{
  HBaseWriteBuffer *buffer = HBASE_WRITE_BUFFER (object);
  const char *name;

  hbase_write_buffer_close (buffer, NULL, NULL);
  name = buffer->table != NULL ? hbase_table_get_name (buffer->table) : "(none)";
  for (guint i = 0; i < buffer->failures->len; i++)
    {
      const HBaseWriteFailure *failure = g_ptr_array_index (buffer->failures, i);
      g_autofree char *row = _hbase_escape_row (hbase_write_failure_get_row (failure));

      if (i == MAX_WARNINGS)
        {
          g_warning ("write buffer of table %s freed with %u more failed mutations not taken",
                     name, buffer->failures->len - i);
          break;
        }
      g_warning ("write buffer of table %s freed with a failed mutation not taken: row \"%s\": %s",
                 name, row, hbase_write_failure_get_error (failure)->message);
    }
  g_clear_pointer (&buffer->on_failure, _hbase_failure_handler_unref);
  g_ptr_array_unref (buffer->failures);
  g_array_unref (buffer->pending);
  g_mutex_clear (&buffer->lock);
  g_mutex_clear (&buffer->flush_lock);
  g_cond_clear (&buffer->wake);
  g_cond_clear (&buffer->work);
  g_cond_clear (&buffer->moved);
  g_clear_pointer (&buffer->carried_first, hbase_write_failure_free);
  g_clear_object (&buffer->table);
  G_OBJECT_CLASS (hbase_write_buffer_parent_class)->finalize (object);
}

static void
hbase_write_buffer_class_init (HBaseWriteBufferClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = hbase_write_buffer_finalize;
}

/* A buffer made by g_object_new() alone (a binding's default constructor)
 * has no table: it starts closed, so every call refuses it with an error
 * instead of writing nowhere; hbase_write_buffer_new() opens it. */
static void
hbase_write_buffer_init (HBaseWriteBuffer *buffer)
{
  g_mutex_init (&buffer->lock);
  g_cond_init (&buffer->wake);
  buffer->pending = pending_new ();
  buffer->failures = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_write_failure_free);
  g_mutex_init (&buffer->flush_lock);
  g_cond_init (&buffer->work);
  g_cond_init (&buffer->moved);
  g_queue_init (&buffer->settling);
  buffer->closed = TRUE;
}

/**
 * hbase_write_buffer_get_table:
 * @buffer: a write buffer
 *
 * Gets the table @buffer writes to.
 *
 * Returns: (transfer none): the table it writes to
 *
 * Since: 0.1
 */
HBaseTable *
hbase_write_buffer_get_table (HBaseWriteBuffer *buffer)
{
  g_return_val_if_fail (HBASE_IS_WRITE_BUFFER (buffer), NULL);
  return buffer->table;
}

/**
 * hbase_write_buffer_get_pending_count:
 * @buffer: a write buffer
 *
 * Gets how many mutations wait in @buffer for a flush.
 *
 * Returns: how many mutations are buffered and not yet taken by a flush
 *
 * Since: 0.1
 */
guint
hbase_write_buffer_get_pending_count (HBaseWriteBuffer *buffer)
{
  guint count;

  g_return_val_if_fail (HBASE_IS_WRITE_BUFFER (buffer), 0);
  g_mutex_lock (&buffer->lock);
  count = buffer->pending->len;
  g_mutex_unlock (&buffer->lock);
  return count;
}

/**
 * hbase_write_buffer_get_pending_bytes:
 * @buffer: a write buffer
 *
 * Gets the estimated size of the mutations waiting in @buffer for a flush.
 *
 * Returns: the size in bytes, as compared with the @max_bytes option
 *
 * Since: 0.1
 */
gsize
hbase_write_buffer_get_pending_bytes (HBaseWriteBuffer *buffer)
{
  gsize bytes;

  g_return_val_if_fail (HBASE_IS_WRITE_BUFFER (buffer), 0);
  g_mutex_lock (&buffer->lock);
  bytes = buffer->pending_bytes;
  g_mutex_unlock (&buffer->lock);
  return bytes;
}

/**
 * hbase_write_buffer_take_failures:
 * @buffer: a write buffer
 *
 * Takes the failures kept so far (only kept when the options have no
 * failure callback), oldest first; the buffer keeps none of them.  Also
 * valid after hbase_write_buffer_close().
 *
 * Returns: (transfer container) (element-type HBaseWriteFailure): the
 *   failures, possibly none
 *
 * Since: 0.1
 */
GPtrArray *
hbase_write_buffer_take_failures (HBaseWriteBuffer *buffer)
{
  GPtrArray *taken;

  g_return_val_if_fail (HBASE_IS_WRITE_BUFFER (buffer), NULL);
  g_mutex_lock (&buffer->lock);
  taken = buffer->failures;
  buffer->failures = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_write_failure_free);
  g_mutex_unlock (&buffer->lock);
  return taken;
}

/* The most the buffer's own estimate of the mutations it held (waiting,
 * and taken by a flush until written) reached since it was made; for
 * tests of the bound hbase-write-buffer.h documents. */
gsize
_hbase_write_buffer_get_peak_held_bytes (HBaseWriteBuffer *buffer)
{
  gsize bytes;

  g_return_val_if_fail (HBASE_IS_WRITE_BUFFER (buffer), 0);
  g_mutex_lock (&buffer->lock);
  bytes = buffer->peak_held_bytes;
  g_mutex_unlock (&buffer->lock);
  return bytes;
}
