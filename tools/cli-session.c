/* SPDX-License-Identifier: Apache-2.0 */
/* cli-session.c: the connection of one run of the hbase-glib tool (its
 * client, tables and secondary index, made from the connection options)
 * and the report of a failure as a message and an exit status. */
#include "config.h"

#include <string.h>

#include "cli.h"

/* --- client and tables ------------------------------------------------------------------------ */

/* Any Kerberos option turns Kerberos on: naming a keytab or a principal
 * and then talking in plain to a secured gateway (which hangs, for a
 * socket one) helps nobody. */
static gboolean
apply_kerberos_options (HBaseConfig *config, const CliConnectionOptions *options, GError **error)
{
  HBaseKerberosQop qop;

  if (options->kerberos || options->kerberos_principal != NULL || options->kerberos_keytab != NULL ||
      options->kerberos_ccache != NULL || options->kerberos_qop != NULL ||
      options->kerberos_service_principal != NULL || options->kerberos_http_principal != NULL ||
      options->kerberos_no_canonicalize_host)
    hbase_config_set_kerberos (config, TRUE);
  if (options->kerberos_no_canonicalize_host)
    hbase_config_set_kerberos_canonicalize_host (config, FALSE);
  if ((options->kerberos_principal != NULL || options->kerberos_keytab != NULL) &&
      !hbase_config_set_kerberos_keytab (config,
                                         options->kerberos_principal != NULL
                                           ? options->kerberos_principal
                                           : hbase_config_get_kerberos_principal (config),
                                         options->kerberos_keytab != NULL
                                           ? options->kerberos_keytab
                                           : hbase_config_get_kerberos_keytab (config),
                                         error))
    return FALSE;
  if (options->kerberos_ccache != NULL &&
      !hbase_config_set_kerberos_ccache (config, options->kerberos_ccache, error))
    return FALSE;
  if (options->kerberos_qop != NULL &&
      (!hbase_kerberos_qop_from_string (options->kerberos_qop, &qop, error) ||
       !hbase_config_set_kerberos_qop (config, qop, error)))
    return FALSE;
  if (options->kerberos_service_principal != NULL &&
      !hbase_config_set_kerberos_service_principal (config, options->kerberos_service_principal,
                                                    error))
    return FALSE;
  if (options->kerberos_http_principal != NULL &&
      !hbase_config_set_kerberos_http_principal (config, options->kerberos_http_principal, error))
    return FALSE;
  if (options->proxy_user != NULL && !hbase_config_set_proxy_user (config, options->proxy_user, error))
    return FALSE;
  return TRUE;
}

static gboolean
apply_options (HBaseConfig *config, const CliConnectionOptions *options, GError **error)
{
  HBaseProtocol protocol;
  HBaseTransport transport;

  if (options->config_file != NULL && !hbase_config_load_file (config, options->config_file, error))
    return FALSE;
  if (options->gateways != NULL && !hbase_config_set_gateways (config, options->gateways, error))
    return FALSE;
  if (options->protocol != NULL &&
      (!hbase_protocol_from_string (options->protocol, &protocol, error) ||
       !hbase_config_set_protocol (config, protocol, error)))
    return FALSE;
  if (options->transport != NULL &&
      (!hbase_transport_from_string (options->transport, &transport, error) ||
       !hbase_config_set_transport (config, transport, error)))
    return FALSE;
  if (options->timeout_ms >= 0 &&
      !hbase_config_set_operation_timeout (config, (guint) options->timeout_ms, error))
    return FALSE;
  if (options->tls_ca_file != NULL && !hbase_config_set_tls_ca_file (config, options->tls_ca_file, error))
    return FALSE;
  if (options->tls_no_verify_hostname)
    hbase_config_set_tls_verify_hostname (config, FALSE);
  if (options->allow_insecure_http)
    hbase_config_set_allow_insecure_http (config, TRUE);
  return apply_kerberos_options (config, options, error);
}

/* The client, made on first use from the environment, then the options
 * given before the command, then those given after it.  A bad setting is
 * an HBASE_ERROR_ILLEGAL_ARGUMENT (exit status 2). */
HBaseClient *
cli_client (Cli *cli, GError **error)
{
  g_autoptr(HBaseConfig) config = NULL;
  GError *local = NULL;

  if (cli->client != NULL)
    return cli->client;
  config = hbase_config_new_from_environment (&local);
  if (config == NULL || !apply_options (config, &cli->global, &local) ||
      !apply_options (config, &cli->local, &local))
    {
      if (local->domain != HBASE_ERROR)
        {
          /* a key file that cannot be read or parsed */
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "%s", local->message);
          g_error_free (local);
        }
      else
        g_propagate_error (error, local);
      return NULL;
    }
  cli->client = hbase_client_new (config);
  return cli->client;
}

/* The table the command works on, for cli_fail(). */
static void
remember_table (Cli *cli, const char *name)
{
  g_free (cli->table_name);
  cli->table_name = g_strdup (name);
}

HBaseTable *
cli_table (Cli *cli, const char *name, GError **error)
{
  HBaseClient *client = cli_client (cli, error);

  if (client == NULL)
    return NULL;
  remember_table (cli, name);
  return hbase_table_new (client, name, error);
}

/* A non-empty environment variable, or NULL. */
static const char *
variable (const char *name)
{
  const char *value = g_getenv (name);

  return value != NULL && *value != '\0' ? value : NULL;
}

/* The Redis credentials: the user from --redis-user or
 * HBASE_GLIB_REDIS_USER, the password from --redis-password-file, else
 * HBASE_GLIB_REDIS_PASSWORD_FILE or HBASE_GLIB_REDIS_PASSWORD (not both),
 * never from the command line.  The strings are borrowed. */
static gboolean
credentials (Cli *cli, HBaseIndexOptions *options, GError **error)
{
  const char *user = cli->local.redis_user != NULL ? cli->local.redis_user : cli->global.redis_user;
  const char *file = cli->local.redis_password_file != NULL ? cli->local.redis_password_file
                                                             : cli->global.redis_password_file;

  options->redis_username = user != NULL ? user : variable ("HBASE_GLIB_REDIS_USER");
  if (file == NULL)
    {
      const char *env_file = variable ("HBASE_GLIB_REDIS_PASSWORD_FILE");
      const char *env_password = variable ("HBASE_GLIB_REDIS_PASSWORD");

      if (env_file != NULL && env_password != NULL)
        {
          g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                               "both HBASE_GLIB_REDIS_PASSWORD and HBASE_GLIB_REDIS_PASSWORD_FILE are "
                               "set: unset one");
          return FALSE;
        }
      file = env_file;
      options->redis_password = env_password;
    }
  options->redis_password_file = file;
  return TRUE;
}

/* The Redis settings of the options (after the command over before it). */
gboolean
cli_index_options (Cli *cli, HBaseIndexOptions *options, GError **error)
{
  const char *redis = cli->local.redis != NULL ? cli->local.redis : cli->global.redis;
  const char *socket = cli->local.redis_socket != NULL ? cli->local.redis_socket : cli->global.redis_socket;
  int db = cli->local.redis_db >= 0 ? cli->local.redis_db : cli->global.redis_db;

  if (redis != NULL)
    {
      const char *colon = strrchr (redis, ':');
      guint64 port = 6379;

      if (colon != NULL && !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, NULL))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "--redis \"%s\": the port must be a number from 1 to 65535", redis);
          return FALSE;
        }
      g_free (cli->redis_host);
      cli->redis_host = colon != NULL ? g_strndup (redis, (gsize) (colon - redis)) : g_strdup (redis);
      options->redis_host = cli->redis_host;
      options->redis_port = (guint) port;
    }
  options->redis_socket = socket;
  options->redis_db = db >= 0 ? (guint) db : 0;
  if (!credentials (cli, options, error))
    return FALSE;
  options->meta_table = cli_index_meta_table (cli);
  return TRUE;
}

const char *
cli_index_meta_table (Cli *cli)
{
  return cli->local.index_meta_table != NULL ? cli->local.index_meta_table : cli->global.index_meta_table;
}

/* The table for a command that writes: through the table's secondary
 * index when it has one (so the index stays up to date), unless
 * @no_index. */
HBaseTable *
cli_write_table (Cli *cli, const char *name, gboolean no_index, GError **error)
{
  HBaseIndexOptions options = HBASE_INDEX_OPTIONS_INIT;
  HBaseClient *client = cli_client (cli, error);
  GError *local = NULL;

  if (client == NULL)
    return NULL;
  remember_table (cli, name);
  if (no_index)
    {
      /* --no-index: the user says the index may miss these writes */
      HBaseTable *table = hbase_table_new (client, name, error);

      if (table != NULL)
        hbase_table_set_allow_unindexed_writes (table, TRUE);
      return table;
    }
  if (!cli_index_options (cli, &options, error))
    return NULL;
  g_clear_object (&cli->index);
  cli->index = hbase_index_open (client, name, &options, NULL, &local);
  if (cli->index != NULL)
    return g_object_ref (hbase_index_get_table (cli->index));
  /* no definitions for the table, or no table of definitions at all */
  if (g_error_matches (local, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_NO_INDEX) ||
      g_error_matches (local, HBASE_ERROR, HBASE_ERROR_NOT_FOUND))
    {
      g_error_free (local);
      return hbase_table_new (client, name, error);
    }
  g_propagate_error (error, local);
  return NULL;
}

void
cli_clear (Cli *cli)
{
  g_clear_object (&cli->index);
  g_clear_object (&cli->client);
  g_clear_pointer (&cli->redis_host, g_free);
  cli_connection_options_clear (&cli->global);
  cli_connection_options_clear (&cli->local);
  g_clear_pointer (&cli->table_name, g_free);
}

/* The table, after checking that it exists: for work that reads its
 * input first and writes in batches, so a missing table is said before
 * reading anything. */
HBaseTable *
cli_existing_table (Cli *cli, const char *name, gboolean no_index, GError **error)
{
  HBaseClient *client = cli_client (cli, error);
  gboolean exists = FALSE;

  if (client == NULL || !hbase_client_table_exists (client, name, &exists, NULL, error))
    return NULL;
  remember_table (cli, name);
  if (!exists)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND, "table %s does not exist", name);
      return NULL;
    }
  return cli_write_table (cli, name, no_index, error);
}

/* --- failures ------------------------------------------------------------------------------ */

int
cli_exit_for_error (const GError *error)
{
  if (error == NULL)
    return CLI_EXIT_FAILED;
  if (error->domain == HBASE_ERROR)
    switch ((HBaseError) error->code)
      {
      case HBASE_ERROR_CONNECTION:
      case HBASE_ERROR_TIMEOUT:
      case HBASE_ERROR_AUTHENTICATION:
        return CLI_EXIT_CONNECTION;
      case HBASE_ERROR_NOT_FOUND:
        return CLI_EXIT_NOT_FOUND;
      case HBASE_ERROR_ILLEGAL_ARGUMENT:
        return CLI_EXIT_USAGE;
      case HBASE_ERROR_PROTOCOL:
      case HBASE_ERROR_IO:
      case HBASE_ERROR_SERVER:
      case HBASE_ERROR_BAD_DATA:
      default:
        return CLI_EXIT_FAILED;
      }
  if (error->domain == HBASE_INDEX_ERROR)
    switch ((HBaseIndexError) error->code)
      {
      case HBASE_INDEX_ERROR_REDIS:
      case HBASE_INDEX_ERROR_AUTH_FAILED:
      case HBASE_INDEX_ERROR_AUTH_NOT_ENABLED:
      case HBASE_INDEX_ERROR_AUTH_REQUIRED:
        return CLI_EXIT_CONNECTION;
      case HBASE_INDEX_ERROR_NO_INDEX:
        return CLI_EXIT_NOT_FOUND;
      case HBASE_INDEX_ERROR_BAD_TOKEN:
        return CLI_EXIT_USAGE;
      case HBASE_INDEX_ERROR_DIRTY:
      case HBASE_INDEX_ERROR_CHANGED:
      default:
        return CLI_EXIT_FAILED;
      }
  if (error->domain == G_OPTION_ERROR)
    return CLI_EXIT_USAGE;
  return CLI_EXIT_FAILED;
}

/* A server's message in plain words: its first line, Java exception
 * classes without their packages, without the table descriptor HBase
 * appends to some ("..., {TABLE_ATTRIBUTES => ...}"). */
static char *
plain_message (const char *message)
{
  g_autoptr(GRegex) java_class = g_regex_new ("\\b(?:[a-z][a-z0-9_]*\\.)+([A-Z][A-Za-z0-9_$]*(?:Exception|Error))\\b",
                                              0, 0, NULL);
  const char *newline = strchr (message, '\n');
  g_autofree char *line = newline != NULL ? g_strndup (message, (gsize) (newline - message)) : g_strdup (message);
  char *plain = g_regex_replace (java_class, line, -1, 0, "\\1", 0, NULL);
  char *descriptor;

  if (plain == NULL)
    return g_steal_pointer (&line);
  if ((descriptor = strstr (plain, ", {")) != NULL)
    {
      char *shorter;

      *descriptor = '\0';
      shorter = g_strconcat (plain, " (...)", NULL);
      g_free (plain);
      return shorter;
    }
  return plain;
}

/* The message and, when the server described the failure, its whole
 * text with the stack trace (the library's message is one line). */
static char *
full_message (const GError *error)
{
  const char *trace = hbase_error_get_server_trace (error);
  gsize len = trace != NULL ? strlen (trace) : 0;

  while (len > 0 && (trace[len - 1] == '\n' || trace[len - 1] == '\r'))
    len--;
  if (len == 0)
    return g_strdup (error->message);
  return g_strdup_printf ("%s\n%.*s", error->message, (int) len, trace);
}

/* Some calls (scans, batches, the structures' reads) get a missing table
 * reported by the gateway as an I/O error that only names it; after such
 * an error, one tableExists call tells whether that was the cause, so the
 * exit status is 3 and the message plain. */
static GError *
refine_table_error (Cli *cli, const GError *error)
{
  gboolean exists = TRUE;

  if (error == NULL || !g_error_matches (error, HBASE_ERROR, HBASE_ERROR_IO) || cli->table_name == NULL ||
      !hbase_client_table_exists (cli->client, cli->table_name, &exists, NULL, NULL) || exists)
    return NULL;
  return g_error_new (HBASE_ERROR, HBASE_ERROR_NOT_FOUND, "table %s does not exist", cli->table_name);
}

/* Says what failed, in the library's words, and returns the exit status. */
int
cli_fail (Cli *cli, const CliCommand *command, const GError *error)
{
  g_autoptr(GError) refined = refine_table_error (cli, error);
  int status;

  if (refined != NULL)
    error = refined;
  status = cli_exit_for_error (error);
  g_autofree char *message = error == NULL ? g_strdup ("failed")
                             : cli->verbose ? full_message (error) : plain_message (error->message);

  g_printerr ("hbase-glib%s%s: %s\n", command != NULL ? " " : "", command != NULL ? command->name : "", message);
  if (g_error_matches (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS))
    g_printerr ("(the table has a secondary index in Redis: check that Redis runs and that\n"
                " --redis or --redis-socket name it; --no-index writes without the index)\n");
  else if (error != NULL && error->domain == HBASE_INDEX_ERROR &&
           (error->code == HBASE_INDEX_ERROR_AUTH_FAILED || error->code == HBASE_INDEX_ERROR_AUTH_NOT_ENABLED ||
            error->code == HBASE_INDEX_ERROR_AUTH_REQUIRED))
    g_printerr ("(the Redis credentials come from --redis-user and --redis-password-file, or\n"
                " HBASE_GLIB_REDIS_USER and HBASE_GLIB_REDIS_PASSWORD or _PASSWORD_FILE)\n");
  else if (g_error_matches (error, HBASE_ERROR, HBASE_ERROR_AUTHENTICATION))
    g_printerr ("(Kerberos: a ticket from kinit (KRB5CCNAME), or --kerberos-keytab and\n"
                " --kerberos-principal; the gateway's principal with --kerberos-service-principal\n"
                " or --kerberos-http-principal; or HBASE_GLIB_KERBEROS_*)\n");
  else if (status == CLI_EXIT_CONNECTION)
    g_printerr ("(check that the gateway runs and that --gateways, --protocol and --transport,\n"
                " or HBASE_GLIB_GATEWAYS, _PROTOCOL and _TRANSPORT, match it)\n");
  return status;
}

