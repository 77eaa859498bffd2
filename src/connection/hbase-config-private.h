/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-config-private.h (private): the table of settings (key file keys,
 * environment variables) shared by the setters and the loaders. */
#ifndef HBASE_CONFIG_PRIVATE_H
#define HBASE_CONFIG_PRIVATE_H

#include <hbase-glib/hbase-config.h>

G_BEGIN_DECLS

/* The rows of the table in hbase-config.h, in its order. */
typedef enum {
  SETTING_GATEWAYS,
  SETTING_PROTOCOL,
  SETTING_TRANSPORT,
  SETTING_CONNECT_TIMEOUT,
  SETTING_OPERATION_TIMEOUT,
  SETTING_MAX_ATTEMPTS,
  SETTING_RETRY_BACKOFF,
  SETTING_RETRY_BACKOFF_MAX,
  SETTING_POOL_SIZE,
  SETTING_POOL_WAIT,
  SETTING_MAX_MESSAGE_SIZE,
  N_SETTINGS
} Setting;

/* set_uint is the setter of the plain numeric settings; the others are
 * applied by the loaders one by one. */
typedef struct {
  const char *key;
  const char *variable;
  gboolean (*set_uint) (HBaseConfig *config, guint value, GError **error);
} HBaseConfigSetting;

extern const HBaseConfigSetting _hbase_config_settings[N_SETTINGS];

/* Which of the two backoff settings is wrong (with @error set), or
 * N_SETTINGS if neither. */
Setting _hbase_config_check_retry_backoff (guint first_ms, guint max_ms, GError **error);
/* Moves the contents of @src into @dest and frees @src. */
void    _hbase_config_replace             (HBaseConfig *dest, HBaseConfig *src);

G_END_DECLS

#endif /* HBASE_CONFIG_PRIVATE_H */
