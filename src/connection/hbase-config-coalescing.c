/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-config-coalescing.c: the HBaseConfig settings of get coalescing,
 * how concurrent hbase_table_get_async() calls on one table are gathered
 * into getMultiple calls (src/table/hbase-get-coalescer.c does it). */
#include "config.h"

#include <hbase-glib/hbase-config.h>
#include <hbase-glib/hbase-error.h>

#include "hbase-config-private.h"

static gboolean
in_range (Setting setting, guint value, guint min, guint max, GError **error)
{
  if (value >= min && value <= max)
    return TRUE;
  g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
               "%s must be between %u and %u, got %u", _hbase_config_settings[setting].key, min,
               max, value);
  return FALSE;
}

/**
 * hbase_config_set_coalesce_gets:
 * @config: a config
 * @max_keys: the most row keys one gathered call carries, 1 to 10000;
 *   1 turns gathering off
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Sets how many concurrent hbase_table_get_async() calls on one table may
 * be sent together as one getMultiple call.  A get that arrives while
 * fewer than two gathered calls of its table are in flight (one with a
 * pool of two connections or fewer: a worker thread stays free for other
 * calls) leaves at once, on its own, so gathering adds no latency to a
 * lone get; gets that arrive while those calls are in flight wait for one
 * to finish and then leave together, up to @max_keys in one call (and
 * more calls at once when a full call's worth waits).  A round trip to the
 * gateway then carries many keys instead of one, which is what makes many
 * small async lookups about as cheap as hand-made batches.  Only gets with
 * equal read options are gathered together.  The default is
 * %HBASE_CONFIG_DEFAULT_COALESCE_GETS: 100 keys, the batch size the
 * synchronous lookup example uses, small enough for the reply to stay far
 * under a framed gateway's 2 MB frame limit with rows of a few kilobytes.
 * On error @config is left as it was.
 *
 * Returns: %TRUE if @max_keys was in range.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_coalesce_gets (HBaseConfig *config, guint max_keys, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!in_range (SETTING_COALESCE_GETS, max_keys, 1, 10000, error))
    return FALSE;
  _hbase_config_get_coalescing (config)->max_keys = max_keys;
  return TRUE;
}

/**
 * hbase_config_get_coalesce_gets:
 * @config: a config
 *
 * Gets the most row keys one gathered get call carries; see
 * hbase_config_set_coalesce_gets().
 *
 * Returns: the most keys per gathered call; 1 when gathering is off.
 *
 * Since: 0.1
 */
guint
hbase_config_get_coalesce_gets (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return _hbase_config_get_coalescing (config)->max_keys;
}

/**
 * hbase_config_set_coalesce_gets_window:
 * @config: a config
 * @microseconds: how long a gathered get call waits for more gets before
 *   it leaves, 0 to 1000000; 0 (the default) does not wait
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * With a window, a gathered call leaves @microseconds after its first get
 * arrived (or as soon as it is full), so even gets that arrive while no
 * call is in flight are gathered, at the price of up to @microseconds of
 * added latency for each.  The default, 0, only gathers the gets that
 * arrive while earlier calls are in flight, which costs no latency.  On
 * error @config is left as it was.
 *
 * Returns: %TRUE if @microseconds was in range.
 *
 * Since: 0.1
 */
gboolean
hbase_config_set_coalesce_gets_window (HBaseConfig *config, guint microseconds, GError **error)
{
  g_return_val_if_fail (config != NULL, FALSE);

  if (!in_range (SETTING_COALESCE_GETS_WINDOW, microseconds, 0, 1000000, error))
    return FALSE;
  _hbase_config_get_coalescing (config)->window_us = microseconds;
  return TRUE;
}

/**
 * hbase_config_get_coalesce_gets_window:
 * @config: a config
 *
 * Gets how long a gathered get call waits for more gets; see
 * hbase_config_set_coalesce_gets_window().
 *
 * Returns: the window in microseconds; 0 when calls leave at once.
 *
 * Since: 0.1
 */
guint
hbase_config_get_coalesce_gets_window (const HBaseConfig *config)
{
  g_return_val_if_fail (config != NULL, 0);
  return _hbase_config_get_coalescing (config)->window_us;
}
