/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-get-coalescer.c: concurrent hbase_table_get_async() calls on one
 * table gathered into getMultiple calls.
 *
 * Why: each get is a round trip to the gateway (or, on the native backend,
 * to the region server) and a call into HBase;
 * many small async lookups (a dimension join, say) spent most of their
 * time in those.  One getMultiple of N keys costs far less than N gets.
 *
 * How: each table has a queue of waiting gets and a count of "drainers",
 * jobs on the client's worker pool that take gets off the queue and send
 * them.  A get that arrives while fewer than SLOTS drainers run starts a
 * new one, which finds it at once: a lone get leaves without delay, as a
 * get of its own.  Gets arriving while the drainers are busy wait; a
 * drainer whose call returned takes every waiting get that reads the same
 * columns, versions, time range and filter as the first one waiting (up
 * to the coalesce-gets setting) and sends them as one getMultiple, whose
 * results come back in request order.  More drainers start (up to the
 * pool's workers but one, which stays for other calls) while a full
 * call's worth of keys waits.  With a window
 * (coalesce-gets-window-us), a drainer waits that long after the first
 * get arrived before taking them.
 *
 * Each get keeps its own task: its cancellation completes it at once with
 * G_IO_ERROR_CANCELLED (if it was already sent, its result is dropped),
 * and a timer completes it with HBASE_ERROR_TIMEOUT at its own operation
 * deadline, counted from its _async call, wherever it is then.  A failed
 * call gives each of its gets a copy of the error, the same error a get
 * of its own would get (a call of one key is a plain get).  Who completes
 * a get is decided by one atomic state: WAITING -> SENT by a drainer
 * (under the lock), then -> DONE by whoever comes first: the drainer with
 * the result, the cancellation or the timer.  Only a drainer takes a get
 * off the queue and disconnects its handler and timer. */
#include "config.h"

#include <hbase-glib/hbase-error.h>

#include "hbase-get-coalescer.h"
#include "hbase-get-request.h"
#include "../connection/hbase-client-async-private.h"
#include "../connection/hbase-connection-private.h"

/* Drainers that start at once for a get, whatever waits: two, so a get
 * arriving while one call is in flight still leaves at once, while a
 * steady stream of gets gathers behind them. */
#define SLOTS 2u

/* The most drainers of one table: all the client's workers but one, so
 * that a steady stream of gets on a table leaves a worker to the client's
 * other async calls (a drainer runs as long as gets wait). */
static guint
max_drainers (HBaseTable *table)
{
  guint workers = MAX (hbase_config_get_pool_size (hbase_client_get_config (table->client)), 2u);

  return workers - 1;
}

enum {
  WAITING,
  SENT,
  DONE
};

struct _HBaseGetCoalescer {
  GMutex lock;
  GQueue waiting;     /* Waiter, in arrival order */
  guint drainers;     /* started and not finished */
  guint64 calls;      /* counts, for tests */
  guint64 keys;
};

/* A call in flight: cancelled when every get in it was completed
 * otherwise (cancelled, timed out), so that it frees its worker and
 * connection rather than run on for nobody. */
typedef struct {
  gint refs;
  gint live;                /* gets in it still waiting for its result */
  GCancellable *cancellable;
} Batch;

typedef struct {
  gint refs;
  gint state;
  Batch *batch;             /* set when it leaves */
  GTask *task;
  TableCall *call;          /* one HBaseGetRequest in call->gets */
  gint64 arrived;           /* monotonic time of the _async call */
  guint timeout_ms;
  GCancellable *cancellable;
  gulong cancel_handler;    /* 0 if not connected */
  GSource *timer;
} Waiter;

HBaseGetCoalescer *
_hbase_get_coalescer_new (void)
{
  HBaseGetCoalescer *coalescer = g_new0 (HBaseGetCoalescer, 1);

  g_mutex_init (&coalescer->lock);
  g_queue_init (&coalescer->waiting);
  return coalescer;
}

/* The table is finalized: no get waits (each holds a reference on it). */
void
_hbase_get_coalescer_free (HBaseGetCoalescer *coalescer)
{
  if (coalescer == NULL)
    return;
  g_mutex_clear (&coalescer->lock);
  g_free (coalescer);
}

gboolean
_hbase_get_coalescer_enabled (HBaseTable *table)
{
  /* on either backend: a gathered call is a get_multiple, which the native
   * backend sends as one Multi call per region server */
  return hbase_config_get_coalesce_gets (hbase_client_get_config (table->client)) > 1;
}

void
_hbase_get_coalescer_get_counts (HBaseTable *table, guint64 *calls, guint64 *keys)
{
  HBaseGetCoalescer *coalescer = table->coalescer;

  g_mutex_lock (&coalescer->lock);
  *calls = coalescer->calls;
  *keys = coalescer->keys;
  g_mutex_unlock (&coalescer->lock);
}

/* --- one waiting get ------------------------------------------------------------------ */

static Batch *
batch_ref (Batch *batch)
{
  g_atomic_int_inc (&batch->refs);
  return batch;
}

static void
batch_unref (Batch *batch)
{
  if (batch == NULL || !g_atomic_int_dec_and_test (&batch->refs))
    return;
  g_object_unref (batch->cancellable);
  g_free (batch);
}

static Waiter *
waiter_ref (Waiter *waiter)
{
  g_atomic_int_inc (&waiter->refs);
  return waiter;
}

static void
waiter_unref (gpointer data)
{
  Waiter *waiter = data;

  if (!g_atomic_int_dec_and_test (&waiter->refs))
    return;
  g_clear_object (&waiter->task);
  g_clear_pointer (&waiter->call, _hbase_table_call_free);
  g_clear_object (&waiter->cancellable);
  g_clear_pointer (&waiter->timer, g_source_unref);
  batch_unref (waiter->batch);
  g_free (waiter);
}

/* Completes the get unless the drainer did: TRUE if this caller does.
 * @sent tells whether it had left (its result, when it comes, is dropped). */
static gboolean
claim (Waiter *waiter, gboolean *sent)
{
  *sent = FALSE;
  if (g_atomic_int_compare_and_exchange (&waiter->state, WAITING, DONE))
    return TRUE;
  if (!g_atomic_int_compare_and_exchange (&waiter->state, SENT, DONE))
    return FALSE;
  *sent = TRUE;
  return TRUE;
}

/* The batch is cancelled when its last get goes: call after the task
 * returned (the cancellation may run the call's handlers). */
static void
left_batch (Waiter *waiter)
{
  if (g_atomic_int_dec_and_test (&waiter->batch->live))
    g_cancellable_cancel (waiter->batch->cancellable);
}

static void
on_cancelled (GCancellable *cancellable, gpointer data)
{
  Waiter *waiter = data;
  gboolean sent;

  if (!claim (waiter, &sent))
    return;
  g_task_return_new_error (waiter->task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           sent ? "the get was cancelled while its call was in flight"
                                : "the get was cancelled before it was sent");
  if (sent)
    left_batch (waiter);
}

static gboolean
on_deadline (gpointer data)
{
  Waiter *waiter = data;
  gboolean sent;

  if (!claim (waiter, &sent))
    return G_SOURCE_REMOVE;
  g_task_return_new_error (waiter->task, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                           "operation timed out after %u ms (%s)", waiter->timeout_ms,
                           sent ? "its getMultiple call with other gets was still in flight"
                                : "it was waiting to be sent with other gets");
  if (sent)
    left_batch (waiter);
  return G_SOURCE_REMOVE;
}

/* Off the queue for good: nothing may fire any more (a drainer's thread). */
static void
waiter_retire (gpointer data)
{
  Waiter *waiter = data;

  if (waiter->cancel_handler != 0)
    g_cancellable_disconnect (waiter->cancellable, waiter->cancel_handler);
  g_source_destroy (waiter->timer);
  waiter_unref (waiter);
}

static HBaseGetRequest *
request_of (Waiter *waiter)
{
  return g_ptr_array_index (waiter->call->gets, 0);
}

/* --- draining the queue ------------------------------------------------------------------ */

static void start_drainer (HBaseTable *table, GTask *like);

/* Takes the next batch off the queue, or NULL (and the drainer ends) when
 * none waits.  Completed gets on the way go to @dead. */
static GPtrArray *
take_batch (HBaseTable *table, guint max_keys, guint window_us, GPtrArray *dead)
{
  HBaseGetCoalescer *coalescer = table->coalescer;
  GPtrArray *batch = NULL;
  Batch *in_flight = NULL;
  const HBaseGetRequest *first = NULL;
  GList *link;

  g_mutex_lock (&coalescer->lock);
  for (;;)
    {
      Waiter *head = g_queue_peek_head (&coalescer->waiting);
      gint64 now, leave;

      if (head == NULL || window_us == 0 || coalescer->waiting.length >= max_keys)
        break;
      now = g_get_monotonic_time ();
      leave = head->arrived + window_us;
      if (now >= leave)
        break;
      g_mutex_unlock (&coalescer->lock);
      g_usleep ((gulong) (leave - now));
      g_mutex_lock (&coalescer->lock);
    }
  link = coalescer->waiting.head;
  while (link != NULL && (batch == NULL || batch->len < max_keys))
    {
      GList *next = link->next;
      Waiter *waiter = link->data;

      if (g_atomic_int_get (&waiter->state) == DONE)
        {
          g_queue_delete_link (&coalescer->waiting, link);
          g_ptr_array_add (dead, waiter);
        }
      else if (first == NULL || _hbase_get_request_same_read (first, request_of (waiter)))
        {
          g_queue_delete_link (&coalescer->waiting, link);
          if (batch == NULL)
            {
              in_flight = g_new0 (Batch, 1);
              in_flight->refs = 1;
              in_flight->live = 1;    /* until it is complete */
              in_flight->cancellable = g_cancellable_new ();
              batch = g_ptr_array_new_with_free_func (waiter_retire);
            }
          /* before it can be seen SENT */
          waiter->batch = batch_ref (in_flight);
          g_atomic_int_inc (&in_flight->live);
          if (g_atomic_int_compare_and_exchange (&waiter->state, WAITING, SENT))
            {
              g_ptr_array_add (batch, waiter);
              if (first == NULL)
                first = request_of (waiter);
            }
          else
            {
              g_atomic_int_add (&in_flight->live, -1);
              g_ptr_array_add (dead, waiter);
            }
        }
      link = next;
    }
  if (in_flight != NULL)
    {
      /* every get of it may have been completed meanwhile */
      if (g_atomic_int_dec_and_test (&in_flight->live))
        g_cancellable_cancel (in_flight->cancellable);
      batch_unref (in_flight);                    /* its gets hold it */
    }
  if (batch != NULL && batch->len == 0)
    g_clear_pointer (&batch, g_ptr_array_unref);
  if (batch == NULL)
    coalescer->drainers--;
  else
    {
      coalescer->calls++;
      coalescer->keys += batch->len;
    }
  g_mutex_unlock (&coalescer->lock);
  return batch;
}

/* The gets of a batch that return in one main context at one priority.
 * Why: g_task_return_*() from a worker thread attaches an idle source per
 * task to the task's context; one source for all the gets of a call that
 * return there costs one source instead of one per get (callgrind on
 * examples/dim-lookup-async: about 2,000 instructions per get), and the
 * tasks, returned from a source of their own context, run their
 * callbacks at once. */
typedef struct {
  GMainContext *context;
  gint priority;
  GPtrArray *waiters;       /* Waiter, referenced */
  GPtrArray *rows;          /* HBaseRow or NULL, one per waiter; NULL on error */
  GError *error;
} Completion;

static void
completion_free (gpointer data)
{
  Completion *completion = data;

  g_ptr_array_unref (completion->waiters);
  g_clear_pointer (&completion->rows, g_ptr_array_unref);
  g_clear_error (&completion->error);
  g_free (completion);
}

static gboolean
complete_gets (gpointer data)
{
  Completion *completion = data;

  for (guint i = 0; i < completion->waiters->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (completion->waiters, i);

      if (completion->error != NULL)
        g_task_return_error (waiter->task, g_error_copy (completion->error));
      else
        {
          HBaseRow *row = g_steal_pointer (&completion->rows->pdata[i]);

          g_task_return_pointer (waiter->task, row, (GDestroyNotify) hbase_row_unref);
        }
    }
  return G_SOURCE_REMOVE;
}

/* The completion for @waiter's context and priority in @completions,
 * added if none is there yet. */
static Completion *
completion_for (GPtrArray *completions, Waiter *waiter, gboolean failed)
{
  GMainContext *context = g_task_get_context (waiter->task);
  gint priority = g_task_get_priority (waiter->task);
  Completion *completion;

  for (guint i = 0; i < completions->len; i++)
    {
      completion = g_ptr_array_index (completions, i);
      if (completion->context == context && completion->priority == priority)
        return completion;
    }
  completion = g_new0 (Completion, 1);
  completion->context = context;
  completion->priority = priority;
  completion->waiters = g_ptr_array_new_with_free_func (waiter_unref);
  if (!failed)
    completion->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) hbase_row_unref);
  g_ptr_array_add (completions, completion);
  return completion;
}

/* Sends @batch (Waiters) as a get (one key) or a getMultiple and gives
 * each get its row or a copy of the error. */
static void
send_batch (HBaseTable *table, GPtrArray *batch)
{
  g_autoptr(TableCall) call = _hbase_table_call_new (table);
  Waiter *first = g_ptr_array_index (batch, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) completions = g_ptr_array_new ();
  gboolean ok;

  call->filter = g_strdup (first->call->filter);
  if (first->call->typed_filter != NULL)
    call->typed_filter = hbase_filter_ref (first->call->typed_filter);
  /* the requests stay the waiters' */
  call->gets = g_ptr_array_new_full (batch->len, NULL);
  for (guint i = 0; i < batch->len; i++)
    g_ptr_array_add (call->gets, request_of (g_ptr_array_index (batch, i)));
  ok = _hbase_table_call_run (call, batch->len == 1 ? _hbase_table_get_once
                                                    : _hbase_table_get_multiple_once,
                              first->batch->cancellable, &error);
  for (guint i = 0; i < batch->len; i++)
    {
      Waiter *waiter = g_ptr_array_index (batch, i);
      Completion *completion;

      if (!g_atomic_int_compare_and_exchange (&waiter->state, SENT, DONE))
        continue;       /* cancelled or timed out meanwhile: the result is dropped */
      completion = completion_for (completions, waiter, !ok);
      g_ptr_array_add (completion->waiters, waiter_ref (waiter));
      if (ok)
        g_ptr_array_add (completion->rows,
                         batch->len == 1 ? g_steal_pointer (&call->row)
                                         : hbase_row_ref (g_ptr_array_index (call->rows, i)));
      else if (completion->error == NULL)
        completion->error = g_error_copy (error);
    }
  for (guint i = 0; i < completions->len; i++)
    {
      Completion *completion = g_ptr_array_index (completions, i);
      g_autoptr(GSource) source = g_idle_source_new ();

      g_source_set_priority (source, completion->priority);
      g_source_set_static_name (source, "[hbase-glib] coalesced gets returning");
      g_source_set_callback (source, complete_gets, completion, completion_free);
      g_source_attach (source, completion->context);
    }
}

typedef struct {
  gboolean ran;
} Drainer;

static void
drain (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  HBaseTable *table = source;
  Drainer *drainer = task_data;
  const HBaseConfig *config = hbase_client_get_config (table->client);
  guint max_keys = hbase_config_get_coalesce_gets (config);
  guint window_us = hbase_config_get_coalesce_gets_window (config);
  g_autoptr(GPtrArray) dead = g_ptr_array_new_with_free_func (waiter_retire);
  GPtrArray *batch;

  drainer->ran = TRUE;
  /* each call counts its deadline from when it starts: every get has its
   * own timer, and a call must not fail a get that arrived later than
   * the one that started this job */
  _hbase_client_take_call_start ();
  while ((batch = take_batch (table, max_keys, window_us, dead)) != NULL)
    {
      g_ptr_array_set_size (dead, 0);
      send_batch (table, batch);
      g_ptr_array_unref (batch);
    }
  g_task_return_boolean (task, TRUE);
}

/* A drainer that never ran (it waited for a worker past the operation
 * timeout): its slot is free again, and gets may still wait. */
static void
drainer_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  HBaseTable *table = HBASE_TABLE (source);
  HBaseGetCoalescer *coalescer = table->coalescer;
  Drainer *drainer = g_task_get_task_data (G_TASK (result));
  gboolean again;

  if (drainer->ran)
    return;
  g_mutex_lock (&coalescer->lock);
  coalescer->drainers--;
  again = coalescer->waiting.length > 0 &&
          coalescer->drainers < MIN (SLOTS, max_drainers (table));
  if (again)
    coalescer->drainers++;
  g_mutex_unlock (&coalescer->lock);
  if (again)
    start_drainer (table, G_TASK (result));
}

/* The slot is already counted in coalescer->drainers. */
static void
start_drainer (HBaseTable *table, GTask *like)
{
  g_autoptr(GTask) task = g_task_new (table, NULL, drainer_done, NULL);

  g_task_set_source_tag (task, start_drainer);
  g_task_set_priority (task, g_task_get_priority (like));
  g_task_set_task_data (task, g_new0 (Drainer, 1), g_free);
  _hbase_client_run_task (table->client, task, drain);
}

void
_hbase_get_coalescer_add (HBaseTable *table, TableCall *call, GTask *task)
{
  HBaseGetCoalescer *coalescer = table->coalescer;
  const HBaseConfig *config = hbase_client_get_config (table->client);
  guint max_keys = hbase_config_get_coalesce_gets (config);
  guint limit = max_drainers (table);
  Waiter *waiter = g_new0 (Waiter, 1);
  gboolean start;

  waiter->refs = 1;
  waiter->state = WAITING;
  waiter->task = g_object_ref (task);
  waiter->call = call;
  waiter->arrived = g_get_monotonic_time ();
  waiter->timeout_ms = _hbase_client_get_operation_timeout_ms (table->client);
  waiter->timer = g_timeout_source_new (waiter->timeout_ms);
  g_source_set_ready_time (waiter->timer,
                           waiter->arrived + (gint64) waiter->timeout_ms * G_TIME_SPAN_MILLISECOND);
  g_source_set_priority (waiter->timer, g_task_get_priority (task));
  g_source_set_static_name (waiter->timer, "[hbase-glib] coalesced get deadline");
  g_source_set_callback (waiter->timer, on_deadline, waiter_ref (waiter), waiter_unref);
  g_source_attach (waiter->timer, g_task_get_context (task));
  waiter->cancellable = g_task_get_cancellable (task);
  if (waiter->cancellable != NULL)
    {
      g_object_ref (waiter->cancellable);
      /* already cancelled: completes the get now; a drainer drops it */
      waiter->cancel_handler = g_cancellable_connect (waiter->cancellable,
                                                      G_CALLBACK (on_cancelled),
                                                      waiter_ref (waiter), waiter_unref);
    }

  g_mutex_lock (&coalescer->lock);
  g_queue_push_tail (&coalescer->waiting, waiter);
  start = coalescer->drainers < MIN (SLOTS, limit) ||
          (coalescer->drainers < limit &&
           coalescer->waiting.length >= (guint64) max_keys * coalescer->drainers);
  if (start)
    coalescer->drainers++;
  g_mutex_unlock (&coalescer->lock);
  if (start)
    start_drainer (table, task);
}
