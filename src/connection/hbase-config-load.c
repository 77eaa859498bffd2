/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-config-load.c: HBaseConfig settings from a key file or the
 * environment.  Loading is all-or-nothing: it works on a copy and only a
 * fully valid result replaces the caller's config. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>
#include <hbase-glib/hbase-config.h>
#include <hbase-glib/hbase-error.h>

#include "hbase-config-private.h"

#define DEFAULT_GROUP "hbase"
#define CONFIG_FILE_VARIABLE "HBASE_GLIB_CONFIG"

/* Strictly a decimal number: no sign, blanks or trailing junk. */
static gboolean
parse_uint (Setting setting, const char *text, guint *value, GError **error)
{
  g_autoptr(GError) local_error = NULL;
  guint64 number;

  if (!g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT, &number, &local_error))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   g_error_matches (local_error, G_NUMBER_PARSER_ERROR,
                                    G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS)
                   ? "%s is out of range, got '%s'"
                   : "%s must be a whole number, got '%s'",
                   _hbase_config_settings[setting].key, text);
      return FALSE;
    }
  *value = (guint) number;
  return TRUE;
}

static gboolean
apply_setting (HBaseConfig *config, Setting setting, const char *text, GError **error)
{
  if (_hbase_config_settings[setting].set_uint != NULL)
    {
      guint number;

      return parse_uint (setting, text, &number, error) &&
             _hbase_config_settings[setting].set_uint (config, number, error);
    }

  switch (setting)
    {
    case SETTING_GATEWAYS:
      return hbase_config_set_gateways (config, text, error);
    case SETTING_BOOTSTRAP_SERVERS:
      return hbase_config_set_bootstrap_servers (config, text, error);
    case SETTING_PROTOCOL:
      {
        HBaseProtocol protocol;

        if (!hbase_protocol_from_string (text, &protocol, error))
          {
            g_prefix_error (error, "protocol: ");
            return FALSE;
          }
        return hbase_config_set_protocol (config, protocol, error);
      }
    case SETTING_TRANSPORT:
      {
        HBaseTransport transport;

        if (!hbase_transport_from_string (text, &transport, error))
          {
            g_prefix_error (error, "transport: ");
            return FALSE;
          }
        return hbase_config_set_transport (config, transport, error);
      }
    case SETTING_TLS_CA_FILE:
    case SETTING_TLS_CA_PATH:
    case SETTING_TLS_VERIFY_HOSTNAME:
    case SETTING_TLS_CLIENT_CERT:
    case SETTING_TLS_CLIENT_KEY:
    case SETTING_TLS_CLIENT_KEY_PASSWORD:
    case SETTING_ALLOW_INSECURE_HTTP:
      return _hbase_config_apply_tls (config, setting, text, error);
    case SETTING_KERBEROS:
    case SETTING_KERBEROS_QOP:
    case SETTING_KERBEROS_SERVICE_PRINCIPAL:
    case SETTING_KERBEROS_HTTP_PRINCIPAL:
    case SETTING_KERBEROS_PRINCIPAL:
    case SETTING_KERBEROS_KEYTAB:
    case SETTING_KERBEROS_CCACHE:
    case SETTING_PROXY_USER:
    case SETTING_KERBEROS_CANONICALIZE_HOST:
      return _hbase_config_apply_kerberos (config, setting, text, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

/* Either backoff key may come alone; the other keeps its current value,
 * and the pair is checked together.  An error is labelled with the
 * source of the wrong value if it was given, else of the one that was. */
static gboolean
apply_retry_backoff (HBaseConfig        *config,
                     const char *const  *values,
                     const char *const  *labels,
                     GError            **error)
{
  const char *first_text = values[SETTING_RETRY_BACKOFF];
  const char *max_text = values[SETTING_RETRY_BACKOFF_MAX];
  guint first = hbase_config_get_retry_backoff (config);
  guint max = hbase_config_get_retry_backoff_max (config);
  GError *local_error = NULL;
  Setting wrong;

  if (first_text == NULL && max_text == NULL)
    return TRUE;
  if (first_text != NULL && !parse_uint (SETTING_RETRY_BACKOFF, first_text, &first, &local_error))
    {
      g_propagate_prefixed_error (error, local_error, "%s: ", labels[SETTING_RETRY_BACKOFF]);
      return FALSE;
    }
  if (max_text != NULL && !parse_uint (SETTING_RETRY_BACKOFF_MAX, max_text, &max, &local_error))
    {
      g_propagate_prefixed_error (error, local_error, "%s: ", labels[SETTING_RETRY_BACKOFF_MAX]);
      return FALSE;
    }
  wrong = _hbase_config_check_retry_backoff (first, max, &local_error);
  if (wrong != N_SETTINGS)
    {
      if (values[wrong] == NULL)
        wrong = wrong == SETTING_RETRY_BACKOFF ? SETTING_RETRY_BACKOFF_MAX : SETTING_RETRY_BACKOFF;
      g_propagate_prefixed_error (error, local_error, "%s: ", labels[wrong]);
      return FALSE;
    }
  return hbase_config_set_retry_backoff (config, first, max, error);
}

/* Applies every non-NULL value to @config in table order, prefixing an
 * error with the label of the value's source.  Leaves @config half
 * changed on error: callers work on a copy. */
static gboolean
apply_settings (HBaseConfig        *config,
                const char *const  *values,
                const char *const  *labels,
                GError            **error)
{
  for (Setting s = 0; s < N_SETTINGS; s++)
    {
      GError *local_error = NULL;

      if (values[s] == NULL || s == SETTING_RETRY_BACKOFF || s == SETTING_RETRY_BACKOFF_MAX)
        continue;
      if (!apply_setting (config, s, values[s], &local_error))
        {
          g_propagate_prefixed_error (error, local_error, "%s: ", labels[s]);
          return FALSE;
        }
    }
  return apply_retry_backoff (config, values, labels, error);
}

static void
free_values (char **values)
{
  for (guint i = 0; i < N_SETTINGS; i++)
    g_free (values[i]);
}

/* TRUE if every backslash of the raw value of @key starts one of the
 * escapes of key files.  GLib 2.74's g_key_file_get_string() sets its
 * error twice (a warning) for a value with a bad escape and a lone
 * backslash at its end, so such values must not reach it. */
static gboolean
escapes_valid (GKeyFile *key_file, const char *group, const char *key)
{
  g_autofree char *raw = g_key_file_get_value (key_file, group, key, NULL);

  for (const char *p = raw; p != NULL && *p != '\0'; p++)
    if (*p == '\\')
      {
        p++;
        if (*p == '\0' || strchr ("sntr\\", *p) == NULL)
          return FALSE;
      }
  return TRUE;
}

/**
 * hbase_config_load_key_file:
 * @config: a config
 * @key_file: a key file
 * @group: (nullable): the group of the settings, or %NULL for "hbase"
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Applies the settings of @group (keys of the table in #HBaseConfig) over
 * @config.  The group must exist and hold only known keys, so a typo is an
 * error rather than a silently ignored line.  All or nothing: on error
 * @config is unchanged.
 *
 * Returns: %TRUE if every setting of the group was valid.
 *
 * Since: 0.1
 */
gboolean
hbase_config_load_key_file (HBaseConfig  *config,
                            GKeyFile     *key_file,
                            const char   *group,
                            GError      **error)
{
  g_autoptr(HBaseConfig) copy = NULL;
  g_auto(GStrv) keys = NULL;
  g_autofree char *label = NULL;
  char *values[N_SETTINGS] = { NULL };
  const char *labels[N_SETTINGS];
  gboolean ok = TRUE;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (key_file != NULL, FALSE);

  if (group == NULL)
    group = DEFAULT_GROUP;
  keys = g_key_file_get_keys (key_file, group, NULL, NULL);
  if (keys == NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "group [%s] not found", group);
      return FALSE;
    }

  label = g_strdup_printf ("group [%s]", group);
  for (guint i = 0; ok && keys[i] != NULL; i++)
    {
      Setting s = 0;
      GError *local_error = NULL;

      while (s < N_SETTINGS && strcmp (keys[i], _hbase_config_settings[s].key) != 0)
        s++;
      if (s == N_SETTINGS)
        {
          /* a key file's keys need not be UTF-8 */
          g_autofree char *escaped = g_strescape (keys[i], NULL);

          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "unknown setting '%s' in group [%s]", escaped, group);
          ok = FALSE;
          break;
        }
      g_free (values[s]);
      values[s] = NULL;
      if (!escapes_valid (key_file, group, keys[i]))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "%s: %s: a backslash starts \\s, \\n, \\t, \\r or \\\\", label,
                       keys[i]);
          ok = FALSE;
          break;
        }
      values[s] = g_key_file_get_string (key_file, group, keys[i], &local_error);
      /* Invalid UTF-8 (escapes were checked above).  GLib's message
       * quotes the value, which may be a secret (a password): only the
       * key is named. */
      if (local_error != NULL)
        {
          g_clear_pointer (&values[s], g_free);
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "%s: %s: the value is not valid UTF-8 text", label, keys[i]);
          g_error_free (local_error);
          ok = FALSE;
          break;
        }
    }

  if (ok)
    {
      for (guint i = 0; i < N_SETTINGS; i++)
        labels[i] = label;
      copy = hbase_config_copy (config);
      ok = apply_settings (copy, (const char *const *) values, labels, error);
    }
  free_values (values);
  if (!ok)
    return FALSE;
  _hbase_config_replace (config, g_steal_pointer (&copy));
  return TRUE;
}

/* A key file holding a secret (the TLS key's password) that its group or
 * others may read is reported, not refused: g_message, so that a test run
 * with fatal warnings does not abort on a deployment's file modes. */
static void
warn_if_secret_readable (GKeyFile *key_file, const char *path, const char *display)
{
  GStatBuf st;

  if (!g_key_file_has_key (key_file, DEFAULT_GROUP, "tls-client-key-password", NULL) ||
      g_stat (path, &st) != 0 || (st.st_mode & (S_IRGRP | S_IROTH)) == 0)
    return;
  g_message ("the configuration file %s holds a password (tls-client-key-password) and is "
             "readable by %s (mode %03o): make it readable by its owner only (chmod 600)",
             display, (st.st_mode & S_IROTH) != 0 ? "others" : "its group",
             (unsigned) (st.st_mode & 0777));
}

/**
 * hbase_config_load_file:
 * @config: a config
 * @path: (type filename): a key file with a [hbase] group
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Reads @path and applies its [hbase] group with
 * hbase_config_load_key_file().  Errors, including an unreadable or
 * malformed file, name @path.  On error @config is unchanged.
 *
 * Returns: %TRUE if the file was read and every setting was valid.
 *
 * Since: 0.1
 */
gboolean
hbase_config_load_file (HBaseConfig *config, const char *path, GError **error)
{
  g_autoptr(GKeyFile) key_file = NULL;
  g_autofree char *display = NULL;
  GError *local_error = NULL;

  g_return_val_if_fail (config != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  display = g_filename_display_name (path);
  key_file = g_key_file_new ();
  if (!g_key_file_load_from_file (key_file, path, G_KEY_FILE_NONE, &local_error))
    {
      /* GLib's parse errors quote the offending line, which may hold a
       * secret (a password written without its '='): not passed on */
      if (local_error->domain == G_KEY_FILE_ERROR)
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                     "cannot load configuration file %s: it is not a valid key file (a line "
                     "that is neither a [group], a key=value pair nor a # comment, or a value "
                     "before the first group)", display);
      else
        g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                     "cannot load configuration file %s: %s", display, local_error->message);
      g_error_free (local_error);
      return FALSE;
    }
  if (!hbase_config_load_key_file (config, key_file, DEFAULT_GROUP, &local_error))
    {
      g_propagate_prefixed_error (error, local_error, "%s: ", display);
      return FALSE;
    }
  warn_if_secret_readable (key_file, path, display);
  return TRUE;
}

/**
 * hbase_config_load_environment:
 * @config: a config
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * Applies the environment over @config: first the key file named by
 * `HBASE_GLIB_CONFIG`, if set, then every `HBASE_GLIB_*` variable of the
 * table in #HBaseConfig.  Empty variables count as unset.  Errors name the
 * variable.  All or nothing: on error @config is unchanged.
 *
 * Returns: %TRUE if the file and every variable were valid.
 *
 * Since: 0.1
 */
gboolean
hbase_config_load_environment (HBaseConfig *config, GError **error)
{
  g_autoptr(HBaseConfig) copy = NULL;
  const char *values[N_SETTINGS];
  const char *labels[N_SETTINGS];
  const char *path;
  GError *local_error = NULL;

  g_return_val_if_fail (config != NULL, FALSE);

  copy = hbase_config_copy (config);
  path = g_getenv (CONFIG_FILE_VARIABLE);
  if (path != NULL && *path != '\0' &&
      !hbase_config_load_file (copy, path, &local_error))
    {
      g_propagate_prefixed_error (error, local_error, "%s: ", CONFIG_FILE_VARIABLE);
      return FALSE;
    }

  for (guint i = 0; i < N_SETTINGS; i++)
    {
      values[i] = g_getenv (_hbase_config_settings[i].variable);
      if (values[i] != NULL && *values[i] == '\0')
        values[i] = NULL;
      labels[i] = _hbase_config_settings[i].variable;
    }
  if (!apply_settings (copy, values, labels, error))
    return FALSE;
  _hbase_config_replace (config, g_steal_pointer (&copy));
  return TRUE;
}

/**
 * hbase_config_new_from_environment:
 * @error: return location for an %HBASE_ERROR_ILLEGAL_ARGUMENT
 *
 * The defaults overridden by the environment, as
 * hbase_config_load_environment() reads it.
 *
 * Returns: (transfer full) (nullable): a new config, or %NULL with @error set.
 *
 * Since: 0.1
 */
HBaseConfig *
hbase_config_new_from_environment (GError **error)
{
  g_autoptr(HBaseConfig) config = hbase_config_new ();

  if (!hbase_config_load_environment (config, error))
    return NULL;
  return g_steal_pointer (&config);
}
