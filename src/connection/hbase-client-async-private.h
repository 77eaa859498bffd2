/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-client-async-private.h: how the library's _async calls run on the
 * client's own worker threads, with the operation deadline counted from the
 * _async call itself. */
#ifndef HBASE_CLIENT_ASYNC_PRIVATE_H
#define HBASE_CLIENT_ASYNC_PRIVATE_H

#include <gio/gio.h>
#include <hbase-glib/hbase-client.h>

G_BEGIN_DECLS

/* Runs @func (@task, its source object, its task data, its cancellable) in
 * one of @client's worker threads (at most the connection pool size of
 * them); @func returns the task's result as in g_task_run_in_thread().
 * The operation deadline starts now: a job still waiting for a worker
 * when the task's cancellable is cancelled completes at once with
 * G_IO_ERROR_CANCELLED, one still waiting at its deadline completes (in
 * the task's main context) with HBASE_ERROR_TIMEOUT, and the first client
 * call @func makes gets the deadline of this call, not a new one.  Takes
 * its own reference on @task. */
void   _hbase_client_run_task          (HBaseClient     *client,
                                        GTask           *task,
                                        GTaskThreadFunc  func);

/* For the client's call path: the monotonic time at which the _async call
 * the current worker thread runs was made, or 0; clears it, so that only
 * the first call of a job counts from there. */
gint64 _hbase_client_take_call_start   (void);

/* hbase-client.c: the client's worker pool (made on first use, running
 * @func on each job) and its operation timeout. */
GThreadPool *_hbase_client_get_workers             (HBaseClient *client,
                                                    GFunc        func);
guint        _hbase_client_get_operation_timeout_ms (HBaseClient *client);
/* The number of the client's _async calls queued and not yet running or
 * completed (read and changed atomically), and in @max_pending the most
 * there may be (0: no limit). */
gint        *_hbase_client_get_pending              (HBaseClient *client,
                                                    guint       *max_pending);

G_END_DECLS

#endif /* HBASE_CLIENT_ASYNC_PRIVATE_H */
