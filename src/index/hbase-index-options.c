/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-options.c: the heap constructors, deep copies and setters of
 * the index's option structs (HBaseIndexOptions, HBaseIndexFindOptions,
 * HBaseIndexMaintenanceOptions) and the boxed types of the structs it
 * reports (HBaseIndexQueryStats, HBaseIndexProgress), for bindings and for
 * callers that keep them around.  A struct from _new() owns what its
 * setters stored; see docs/api-conventions.md. */
#include "config.h"

#include "hbase-index-private.h"

/* --- HBaseIndexOptions ----------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseIndexOptions, hbase_index_options, hbase_index_options_copy, hbase_index_options_free)

/**
 * hbase_index_options_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a new struct, zeroed: the defaults
 *
 * Since: 0.1
 */
HBaseIndexOptions *
hbase_index_options_new (void)
{
  return g_new0 (HBaseIndexOptions, 1);
}

/**
 * hbase_index_options_copy:
 * @options: a struct
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a deep copy of @options
 *
 * Since: 0.1
 */
HBaseIndexOptions *
hbase_index_options_copy (const HBaseIndexOptions *options)
{
  HBaseIndexOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  copy->redis_host = g_strdup (options->redis_host);
  copy->redis_socket = g_strdup (options->redis_socket);
  copy->redis_password = g_strdup (options->redis_password);
  copy->meta_table = g_strdup (options->meta_table);
  copy->redis_username = g_strdup (options->redis_username);
  copy->redis_password_file = g_strdup (options->redis_password_file);
  return copy;
}

/**
 * hbase_index_options_free:
 * @options: (nullable) (transfer full): a struct from hbase_index_options_new() or
 *   hbase_index_options_copy()
 *
 * Frees @options and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_index_options_free (HBaseIndexOptions *options)
{
  if (options == NULL)
    return;
  g_free ((char *) options->redis_host);
  g_free ((char *) options->redis_socket);
  _hbase_index_free_secret ((char *) options->redis_password);
  g_free ((char *) options->meta_table);
  g_free ((char *) options->redis_username);
  g_free ((char *) options->redis_password_file);
  g_free (options);
}

/**
 * hbase_index_options_set_redis_host:
 * @options: a struct from hbase_index_options_new()
 * @redis_host: (nullable): the Redis host; %NULL for 127.0.0.1
 *
 * Stores a copy of @redis_host, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_index_options_set_redis_host (HBaseIndexOptions *options, const char *redis_host)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->redis_host;
  options->redis_host = g_strdup (redis_host);
  g_free (old);
}

/**
 * hbase_index_options_set_redis_socket:
 * @options: a struct from hbase_index_options_new()
 * @redis_socket: (nullable): a unix socket path; %NULL for none
 *
 * Stores a copy of @redis_socket, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_index_options_set_redis_socket (HBaseIndexOptions *options, const char *redis_socket)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->redis_socket;
  options->redis_socket = g_strdup (redis_socket);
  g_free (old);
}

/**
 * hbase_index_options_set_redis_password:
 * @options: a struct from hbase_index_options_new()
 * @redis_password: (nullable): sent with AUTH; %NULL for none
 *
 * Stores a copy of @redis_password, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_index_options_set_redis_password (HBaseIndexOptions *options, const char *redis_password)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->redis_password;
  options->redis_password = g_strdup (redis_password);
  _hbase_index_free_secret (old);
}

/**
 * hbase_index_options_set_redis_username:
 * @options: a struct from hbase_index_options_new()
 * @redis_username: (nullable): the Redis ACL user (Redis 6 or later) to
 *   authenticate as with `AUTH user password`; %NULL for the legacy
 *   `AUTH password` of the default user
 *
 * Stores a copy of @redis_username, freeing the previous one.  A user
 * needs a password: hbase_index_options_set_redis_password() or
 * hbase_index_options_set_redis_password_file().
 *
 * Since: 0.1
 */
void
hbase_index_options_set_redis_username (HBaseIndexOptions *options, const char *redis_username)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->redis_username;
  options->redis_username = g_strdup (redis_username);
  g_free (old);
}

/**
 * hbase_index_options_set_redis_password_file:
 * @options: a struct from hbase_index_options_new()
 * @redis_password_file: (nullable) (type filename): a file whose first
 *   line is the Redis password; %NULL for none
 *
 * Stores a copy of @redis_password_file, freeing the previous one.
 * hbase_index_open() reads the file: its first line, without the line
 * end, is the password.  Exclusive with a password set by
 * hbase_index_options_set_redis_password().
 *
 * Since: 0.1
 */
void
hbase_index_options_set_redis_password_file (HBaseIndexOptions *options,
                                             const char        *redis_password_file)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->redis_password_file;
  options->redis_password_file = g_strdup (redis_password_file);
  g_free (old);
}

/**
 * hbase_index_options_set_meta_table:
 * @options: a struct from hbase_index_options_new()
 * @meta_table: (nullable): the table of definitions; %NULL for
 *   %HBASE_INDEX_DEFAULT_META_TABLE
 *
 * Stores a copy of @meta_table, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_index_options_set_meta_table (HBaseIndexOptions *options, const char *meta_table)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->meta_table;
  options->meta_table = g_strdup (meta_table);
  g_free (old);
}

/* --- HBaseIndexFindOptions ------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseIndexFindOptions, hbase_index_find_options, hbase_index_find_options_copy, hbase_index_find_options_free)

/**
 * hbase_index_find_options_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a new struct, zeroed: the defaults
 *
 * Since: 0.1
 */
HBaseIndexFindOptions *
hbase_index_find_options_new (void)
{
  return g_new0 (HBaseIndexFindOptions, 1);
}

/**
 * hbase_index_find_options_copy:
 * @options: a struct
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a deep copy of @options
 *
 * Since: 0.1
 */
HBaseIndexFindOptions *
hbase_index_find_options_copy (const HBaseIndexFindOptions *options)
{
  HBaseIndexFindOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  copy->page_token = g_strdup (options->page_token);
  copy->columns = (const char *const *) g_strdupv ((char **) options->columns);
  return copy;
}

/**
 * hbase_index_find_options_free:
 * @options: (nullable) (transfer full): a struct from hbase_index_find_options_new() or
 *   hbase_index_find_options_copy()
 *
 * Frees @options and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_index_find_options_free (HBaseIndexFindOptions *options)
{
  if (options == NULL)
    return;
  g_free ((char *) options->page_token);
  g_strfreev ((char **) options->columns);
  g_free (options);
}

/**
 * hbase_index_find_options_set_page_token:
 * @options: a struct from hbase_index_find_options_new()
 * @page_token: (nullable): the token of the previous page; %NULL for the
 *   first page
 *
 * Stores a copy of @page_token, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_index_find_options_set_page_token (HBaseIndexFindOptions *options, const char *page_token)
{
  char *old;

  g_return_if_fail (options != NULL);
  old = (char *) options->page_token;
  options->page_token = g_strdup (page_token);
  g_free (old);
}

/**
 * hbase_index_find_options_set_columns:
 * @options: a struct from hbase_index_find_options_new()
 * @columns: (nullable) (array zero-terminated=1): the columns to return; %NULL for the
 *   whole rows
 *
 * Stores a copy of @columns, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_index_find_options_set_columns (HBaseIndexFindOptions *options, const char *const *columns)
{
  char **old;

  g_return_if_fail (options != NULL);
  old = (char **) options->columns;
  options->columns = (const char *const *) g_strdupv ((char **) columns);
  g_strfreev (old);
}

/* --- HBaseIndexMaintenanceOptions ------------------------------------------ */

G_DEFINE_BOXED_TYPE (HBaseIndexMaintenanceOptions, hbase_index_maintenance_options, hbase_index_maintenance_options_copy, hbase_index_maintenance_options_free)

/**
 * hbase_index_maintenance_options_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a new struct, zeroed: the defaults
 *
 * Since: 0.1
 */
HBaseIndexMaintenanceOptions *
hbase_index_maintenance_options_new (void)
{
  return g_new0 (HBaseIndexMaintenanceOptions, 1);
}

/**
 * hbase_index_maintenance_options_copy:
 * @options: a struct
 *
 * Copies it.  The copy calls the same progress callback with the same
 * user data but does not own that data (its destroy notify is %NULL), so
 * the data is released once, by the original.
 *
 * Returns: (transfer full): a deep copy of @options
 *
 * Since: 0.1
 */
HBaseIndexMaintenanceOptions *
hbase_index_maintenance_options_copy (const HBaseIndexMaintenanceOptions *options)
{
  HBaseIndexMaintenanceOptions *copy;

  g_return_val_if_fail (options != NULL, NULL);
  copy = g_memdup2 (options, sizeof *options);
  copy->user_data_destroy = NULL;
  return copy;
}

/**
 * hbase_index_maintenance_options_free:
 * @options: (nullable) (transfer full): a struct from hbase_index_maintenance_options_new() or
 *   hbase_index_maintenance_options_copy()
 *
 * Frees @options and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_index_maintenance_options_free (HBaseIndexMaintenanceOptions *options)
{
  if (options == NULL)
    return;
  if (options->user_data_destroy != NULL)
    options->user_data_destroy (options->user_data);
  g_free (options);
}

/**
 * hbase_index_maintenance_options_set_progress:
 * @options: a struct from hbase_index_maintenance_options_new()
 * @progress: (nullable) (scope notified) (closure user_data) (destroy destroy):
 *   called as the work goes on
 * @user_data: for @progress
 * @destroy: (nullable): frees @user_data when it is replaced or @options
 *   freed
 *
 * Stores the progress callback, releasing the previous data.  A copy of
 * @options calls the same callback with the same data but does not own
 * the data.
 *
 * Since: 0.1
 */
void
hbase_index_maintenance_options_set_progress (HBaseIndexMaintenanceOptions *options,
                                              HBaseIndexProgressFunc        progress,
                                              gpointer                      user_data,
                                              GDestroyNotify                destroy)
{
  GDestroyNotify old_destroy;
  gpointer old_data;

  g_return_if_fail (options != NULL);
  old_destroy = options->user_data_destroy;
  old_data = options->user_data;
  options->progress = progress;
  options->user_data = user_data;
  options->user_data_destroy = destroy;
  if (old_destroy != NULL)
    old_destroy (old_data);
}

/* --- HBaseIndexQueryStats -------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseIndexQueryStats, hbase_index_query_stats, hbase_index_query_stats_copy, hbase_index_query_stats_free)

/**
 * hbase_index_query_stats_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a new struct, zeroed
 *
 * Since: 0.1
 */
HBaseIndexQueryStats *
hbase_index_query_stats_new (void)
{
  return g_new0 (HBaseIndexQueryStats, 1);
}

/**
 * hbase_index_query_stats_copy:
 * @stats: a struct
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a deep copy of @stats
 *
 * Since: 0.1
 */
HBaseIndexQueryStats *
hbase_index_query_stats_copy (const HBaseIndexQueryStats *stats)
{
  HBaseIndexQueryStats *copy;

  g_return_val_if_fail (stats != NULL, NULL);
  copy = g_memdup2 (stats, sizeof *stats);
  return copy;
}

/**
 * hbase_index_query_stats_free:
 * @stats: (nullable) (transfer full): a struct from hbase_index_query_stats_new() or
 *   hbase_index_query_stats_copy()
 *
 * Frees @stats and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_index_query_stats_free (HBaseIndexQueryStats *stats)
{
  if (stats == NULL)
    return;
  g_free (stats);
}

/* --- HBaseIndexProgress ---------------------------------------------------- */

G_DEFINE_BOXED_TYPE (HBaseIndexProgress, hbase_index_progress, hbase_index_progress_copy, hbase_index_progress_free)

/**
 * hbase_index_progress_new:
 *
 * Makes options with every field at its default (a zeroed struct), on the
 * heap: for bindings, and for options kept beyond one scope.  Set pointer
 * fields with the setters (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a new struct, zeroed
 *
 * Since: 0.1
 */
HBaseIndexProgress *
hbase_index_progress_new (void)
{
  return g_new0 (HBaseIndexProgress, 1);
}

/**
 * hbase_index_progress_copy:
 * @progress: a struct
 *
 * Copies it deeply: the copy owns its own copies or references of
 * everything the original points to (see docs/api-conventions.md).
 *
 * Returns: (transfer full): a deep copy of @progress
 *
 * Since: 0.1
 */
HBaseIndexProgress *
hbase_index_progress_copy (const HBaseIndexProgress *progress)
{
  HBaseIndexProgress *copy;

  g_return_val_if_fail (progress != NULL, NULL);
  copy = g_memdup2 (progress, sizeof *progress);
  copy->phase = g_strdup (progress->phase);
  return copy;
}

/**
 * hbase_index_progress_free:
 * @progress: (nullable) (transfer full): a struct from hbase_index_progress_new() or
 *   hbase_index_progress_copy()
 *
 * Frees @progress and what its setters stored.
 *
 * Since: 0.1
 */
void
hbase_index_progress_free (HBaseIndexProgress *progress)
{
  if (progress == NULL)
    return;
  g_free ((char *) progress->phase);
  g_free (progress);
}

/**
 * hbase_index_progress_set_phase:
 * @progress: a struct from hbase_index_progress_new()
 * @phase: (nullable): "clear", "scan", "check" or "fix"
 *
 * Stores a copy of @phase, freeing the previous one.
 *
 * Since: 0.1
 */
void
hbase_index_progress_set_phase (HBaseIndexProgress *progress, const char *phase)
{
  char *old;

  g_return_if_fail (progress != NULL);
  old = (char *) progress->phase;
  progress->phase = g_strdup (phase);
  g_free (old);
}
