/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-client-async.c: the worker pool the library's _async calls run on.
 *
 * Each client has its own GThreadPool, as many threads as pooled
 * connections, so a burst of calls waits in the client's queue rather than
 * in GLib's shared pool of ten threads.  A job's operation deadline starts
 * when its _async function is called, not when a worker takes it:
 *  - cancelling a job still waiting for a worker completes it at once;
 *  - a job still waiting when its deadline passes completes at once with
 *    HBASE_ERROR_TIMEOUT (a timer in the task's main context);
 *  - the first client call the job makes ends by the same deadline.
 * One atomic state decides who completes the task: the worker (QUEUED ->
 * RUNNING), or the cancellation or the timer (QUEUED -> DONE).  The worker
 * takes every job off the queue in the end, and only it disconnects the
 * cancellation handler and destroys the timer: a handler may run in any
 * thread and must not disconnect itself. */
#include "config.h"

#include <hbase-glib/hbase-error.h>

#include "hbase-client-async-private.h"

enum {
  JOB_QUEUED,
  JOB_RUNNING,
  JOB_DONE
};

typedef struct {
  gint refs;
  gint state;
  GTask *task;
  GTaskThreadFunc func;
  HBaseClient *client;
  gint64 start;           /* monotonic time of the _async call */
  gint64 deadline;        /* start + operation timeout */
  guint timeout_ms;       /* the operation timeout */
  gint workers;           /* the client's number of worker threads */
  GCancellable *cancellable;
  gulong cancel_handler;  /* 0 if not connected */
  GSource *timer;         /* NULL if none */
  gint *pending;          /* the client's count of waiting calls */
  gint counted;           /* 1 while this job is part of *pending */
} Job;

/* The start of the job the current thread runs, until its first call takes it. */
static GPrivate call_start = G_PRIVATE_INIT (g_free);

static Job *
job_ref (Job *job)
{
  g_atomic_int_inc (&job->refs);
  return job;
}

static void
job_unref (gpointer data)
{
  Job *job = data;

  if (!g_atomic_int_dec_and_test (&job->refs))
    return;
  g_clear_object (&job->task);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->timer, g_source_unref);
  g_clear_object (&job->client);
  g_free (job);
}

/* Completes a job nobody runs yet: TRUE if this caller did. */
static gboolean
claim_queued (Job *job)
{
  return g_atomic_int_compare_and_exchange (&job->state, JOB_QUEUED, JOB_DONE);
}

/* The job no longer waits: once, whoever notices first. */
static void
uncount (Job *job)
{
  if (g_atomic_int_compare_and_exchange (&job->counted, 1, 0))
    g_atomic_int_add (job->pending, -1);
}

/* Counts a new job as waiting unless @max_pending (0: no limit) are already. */
static gboolean
count_in (gint *pending, guint max_pending)
{
  gint n;

  do
    {
      n = g_atomic_int_get (pending);
      if (max_pending > 0 && (guint) n >= max_pending)
        return FALSE;
    }
  while (!g_atomic_int_compare_and_exchange (pending, n, n + 1));
  return TRUE;
}

static void
return_timeout (Job *job)
{
  g_task_return_new_error (job->task, HBASE_ERROR, HBASE_ERROR_TIMEOUT,
                           "operation timed out after %u ms waiting for a free worker "
                           "thread (all %d of the client's workers were busy)",
                           job->timeout_ms, job->workers);
}

static void
on_cancelled (GCancellable *cancellable, gpointer data)
{
  Job *job = data;

  if (!claim_queued (job))
    return;
  uncount (job);
  g_task_return_new_error (job->task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           "the call was cancelled before a worker thread ran it");
}

static gboolean
on_deadline (gpointer data)
{
  Job *job = data;

  if (claim_queued (job))
    {
      uncount (job);
      return_timeout (job);
    }
  return G_SOURCE_REMOVE;
}

static void
run_job (gpointer data, gpointer user_data)
{
  Job *job = data;
  gboolean mine = g_atomic_int_compare_and_exchange (&job->state, JOB_QUEUED, JOB_RUNNING);

  uncount (job);
  /* whoever completed the job, it has left the queue: nothing may fire now */
  if (job->cancel_handler != 0)
    g_cancellable_disconnect (job->cancellable, job->cancel_handler);
  if (job->timer != NULL)
    g_source_destroy (job->timer);
  if (mine)
    {
      if (g_get_monotonic_time () >= job->deadline)
        return_timeout (job);
      else if (!g_task_return_error_if_cancelled (job->task))
        {
          gint64 *start = g_new (gint64, 1);

          *start = job->start;
          g_private_replace (&call_start, start);
          job->func (job->task, g_task_get_source_object (job->task),
                     g_task_get_task_data (job->task), job->cancellable);
          g_private_replace (&call_start, NULL);
        }
    }
  job_unref (job);
}

gint64
_hbase_client_take_call_start (void)
{
  gint64 *start = g_private_get (&call_start);
  gint64 value;

  if (start == NULL)
    return 0;
  value = *start;
  g_private_replace (&call_start, NULL);
  return value;
}

void
_hbase_client_run_task (HBaseClient *client, GTask *task, GTaskThreadFunc func)
{
  Job *job;
  GThreadPool *workers;
  g_autoptr(GError) error = NULL;
  gint *pending;
  guint max_pending;

  g_return_if_fail (HBASE_IS_CLIENT (client) && G_IS_TASK (task) && func != NULL);
  pending = _hbase_client_get_pending (client, &max_pending);
  if (!count_in (pending, max_pending))
    {
      /* nothing queued, nothing sent: the caller may try again later */
      g_task_return_new_error (task, HBASE_ERROR, HBASE_ERROR_BUSY,
                               "the client already has %u async calls waiting for a worker "
                               "thread, its limit (max-pending): the call was not made",
                               max_pending);
      return;
    }
  job = g_new0 (Job, 1);
  job->pending = pending;
  job->counted = 1;
  job->refs = 1;
  job->state = JOB_QUEUED;
  workers = _hbase_client_get_workers (client, run_job);
  job->workers = g_thread_pool_get_max_threads (workers);
  job->timeout_ms = _hbase_client_get_operation_timeout_ms (client);
  job->start = g_get_monotonic_time ();
  job->deadline = job->start + (gint64) job->timeout_ms * G_TIME_SPAN_MILLISECOND;
  job->task = g_object_ref (task);
  job->func = func;
  job->client = g_object_ref (client);
  job->cancellable = g_task_get_cancellable (task);
  if (job->cancellable != NULL)
    {
      g_object_ref (job->cancellable);
      /* already cancelled: runs on_cancelled now, which completes the task */
      job->cancel_handler = g_cancellable_connect (job->cancellable, G_CALLBACK (on_cancelled),
                                                   job_ref (job), job_unref);
    }
  job->timer = g_timeout_source_new (job->timeout_ms);
  g_source_set_ready_time (job->timer, job->deadline);
  g_source_set_priority (job->timer, g_task_get_priority (task));
  g_source_set_static_name (job->timer, "[hbase-glib] async call deadline");
  g_source_set_callback (job->timer, on_deadline, job_ref (job), job_unref);
  g_source_attach (job->timer, g_task_get_context (task));

  /* a job that could get no thread stays queued: the next worker runs it,
   * and the deadline timer completes it should none come in time */
  if (!g_thread_pool_push (workers, job, &error))
    g_debug ("hbase-glib: no new worker thread for an async call: %s", error->message);
}
