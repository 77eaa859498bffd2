/* SPDX-License-Identifier: Apache-2.0 */
/* cli-options.c: the command line of the hbase-glib tool: the connection
 * options, each command's options and arguments, its usage errors, and the
 * arguments that are numbers or columns. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include "cli.h"

#define EXIT_FOOTER \
  "Exit status: 0 done, 1 the operation failed, 2 bad usage or invalid input,\n" \
  "3 not found, 4 the gateway could not be reached, 5 a condition was not met.\n" \
  "Settings also come from HBASE_GLIB_GATEWAYS, HBASE_GLIB_PROTOCOL,\n" \
  "HBASE_GLIB_TRANSPORT, HBASE_GLIB_TLS_* and the key file named by HBASE_GLIB_CONFIG;\n" \
  "the Redis credentials from HBASE_GLIB_REDIS_USER and HBASE_GLIB_REDIS_PASSWORD(_FILE);\n" \
  "hbase-glib --help-connection shows the connection options.\n" \
  "See hbase-glib(1)."

/* The connection options, storing into @options; ends with
 * G_OPTION_ENTRY_NULL, freed with g_free(). */
static GOptionEntry *
new_connection_entries (CliConnectionOptions *options)
{
  const GOptionEntry entries[] = {
    { "gateways", 'g', 0, G_OPTION_ARG_STRING, &options->gateways,
      "Thrift2 gateways, HOST:PORT or http(s)://HOST:PORT[/PATH], separated by commas (default localhost:9090)", "LIST" },
    { "protocol", 0, 0, G_OPTION_ARG_STRING, &options->protocol,
      "Thrift protocol of the gateways: binary (default) or compact", "PROTOCOL" },
    { "transport", 0, 0, G_OPTION_ARG_STRING, &options->transport,
      "Thrift transport of the gateways: buffered (default) or framed", "TRANSPORT" },
    { "config", 0, 0, G_OPTION_ARG_FILENAME, &options->config_file,
      "Read settings from this key file (group [hbase])", "FILE" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &options->timeout_ms,
      "Give up on each operation after this many milliseconds, retries included", "MS" },
    { "tls-ca-file", 0, 0, G_OPTION_ARG_FILENAME, &options->tls_ca_file,
      "Trust the CA certificates of this PEM file for https:// gateways (default: the system's)", "FILE" },
    { "tls-no-verify-hostname", 0, 0, G_OPTION_ARG_NONE, &options->tls_no_verify_hostname,
      "Accept an https:// gateway's certificate issued for another host name (tests only)", NULL },
    { "allow-insecure-http", 0, 0, G_OPTION_ARG_NONE, &options->allow_insecure_http,
      "Allow --kerberos and --proxy-user with plain http:// gateways, where the token can be read "
      "and replayed (trusted paths and tests only)", NULL },
    { "kerberos", 0, 0, G_OPTION_ARG_NONE, &options->kerberos,
      "Authenticate with Kerberos: SASL GSSAPI to socket gateways, SPNEGO to http(s):// ones "
      "(the credentials of KRB5CCNAME unless --kerberos-keytab; implied by the other --kerberos-* options)",
      NULL },
    { "kerberos-principal", 0, 0, G_OPTION_ARG_STRING, &options->kerberos_principal,
      "Client principal (default: the credentials cache's)", "PRINCIPAL" },
    { "kerberos-keytab", 0, 0, G_OPTION_ARG_FILENAME, &options->kerberos_keytab,
      "Log in from this keytab as --kerberos-principal (renewed before the ticket ends)", "FILE" },
    { "kerberos-ccache", 0, 0, G_OPTION_ARG_STRING, &options->kerberos_ccache,
      "Credentials cache to use (default: KRB5CCNAME)", "NAME" },
    { "kerberos-qop", 0, 0, G_OPTION_ARG_STRING, &options->kerberos_qop,
      "Protection levels accepted from socket gateways: authentication, integrity, privacy, "
      "separated by commas, or any (default)", "LEVELS" },
    { "kerberos-service-principal", 0, 0, G_OPTION_ARG_STRING, &options->kerberos_service_principal,
      "Socket gateways' principal (default hbase/_HOST)", "PRINCIPAL" },
    { "kerberos-http-principal", 0, 0, G_OPTION_ARG_STRING, &options->kerberos_http_principal,
      "HTTP gateways' principal (default HTTP/_HOST)", "PRINCIPAL" },
    { "kerberos-no-canonicalize-host", 0, 0, G_OPTION_ARG_NONE,
      &options->kerberos_no_canonicalize_host,
      "Put each gateway's host as given in place of _HOST in its principal, not its canonical "
      "name (no DNS lookups)", NULL },
    { "proxy-user", 0, 0, G_OPTION_ARG_STRING, &options->proxy_user,
      "Act for this user (doAs) on http(s):// gateways that allow it", "USER" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &options->verbose,
      "Show errors in full, with the server's stack trace", NULL },
    { "redis", 0, 0, G_OPTION_ARG_STRING, &options->redis,
      "Redis of the secondary indexes, HOST:PORT (default 127.0.0.1:6379)", "HOST:PORT" },
    { "redis-socket", 0, 0, G_OPTION_ARG_FILENAME, &options->redis_socket,
      "Redis unix socket, instead of --redis", "PATH" },
    { "redis-db", 0, 0, G_OPTION_ARG_INT, &options->redis_db, "Redis database number (default 0)", "N" },
    { "redis-user", 0, 0, G_OPTION_ARG_STRING, &options->redis_user,
      "Redis ACL user (Redis 6+; default: the legacy password of the default user)", "USER" },
    { "redis-password-file", 0, 0, G_OPTION_ARG_FILENAME, &options->redis_password_file,
      "Read the Redis password from the first line of this file (or set HBASE_GLIB_REDIS_PASSWORD)",
      "FILE" },
    /* a password on the command line is visible to every user (ps,
     * /proc/PID/cmdline, shell history): refused, see cli_index_options() */
    { "redis-password", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &options->redis_password_refused,
      NULL, NULL },
    { "index-meta-table", 0, 0, G_OPTION_ARG_STRING, &options->index_meta_table,
      "HBase table of index definitions (default " HBASE_INDEX_DEFAULT_META_TABLE ")", "TABLE" },
    G_OPTION_ENTRY_NULL
  };

  return g_memdup2 (entries, sizeof entries);
}

/* The connection options go in a group of their own: a command's --help
 * shows its own options, --help-connection (or --help-all) these. */
void
cli_add_connection_entries (GOptionContext *context, CliConnectionOptions *options)
{
  g_autofree GOptionEntry *entries = new_connection_entries (options);
  GOptionGroup *group = g_option_group_new ("connection",
                                            "Connection options (before or after the command):",
                                            "Show the connection options", NULL, NULL);

  g_option_group_add_entries (group, entries);
  g_option_context_add_group (context, group);
}

char *
cli_connection_help (void)
{
  CliConnectionOptions unused = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autofree GOptionEntry *entries = new_connection_entries (&unused);
  GOptionGroup *group = g_option_group_new ("connection",
                                            "Connection options (before or after the command):",
                                            "Show the connection options", NULL, NULL);

  g_option_group_add_entries (group, entries);
  g_option_context_add_group (context, group);
  return g_option_context_get_help (context, FALSE, group);
}

void
cli_print_option_names (FILE *out, const GOptionEntry *entries)
{
  for (const GOptionEntry *e = entries; e != NULL && e->long_name != NULL; e++)
    {
      const char *takes_value = e->arg == G_OPTION_ARG_NONE ? "" : "=";

      if (e->flags & G_OPTION_FLAG_HIDDEN)
        continue;
      fprintf (out, " --%s%s", e->long_name, takes_value);
      if (e->short_name != '\0')
        fprintf (out, " -%c%s", e->short_name, takes_value);
    }
}

void
cli_print_connection_option_names (FILE *out)
{
  CliConnectionOptions unused = { 0 };
  g_autofree GOptionEntry *entries = new_connection_entries (&unused);

  cli_print_option_names (out, entries);
}

void
cli_connection_options_clear (CliConnectionOptions *options)
{
  g_clear_pointer (&options->gateways, g_free);
  g_clear_pointer (&options->protocol, g_free);
  g_clear_pointer (&options->transport, g_free);
  g_clear_pointer (&options->config_file, g_free);
  options->timeout_ms = -1;
  g_clear_pointer (&options->tls_ca_file, g_free);
  options->tls_no_verify_hostname = FALSE;
  options->allow_insecure_http = FALSE;
  options->kerberos = FALSE;
  g_clear_pointer (&options->kerberos_principal, g_free);
  g_clear_pointer (&options->kerberos_keytab, g_free);
  g_clear_pointer (&options->kerberos_ccache, g_free);
  g_clear_pointer (&options->kerberos_qop, g_free);
  g_clear_pointer (&options->kerberos_service_principal, g_free);
  g_clear_pointer (&options->kerberos_http_principal, g_free);
  g_clear_pointer (&options->proxy_user, g_free);
  options->verbose = FALSE;
  g_clear_pointer (&options->redis, g_free);
  g_clear_pointer (&options->redis_socket, g_free);
  g_clear_pointer (&options->redis_user, g_free);
  g_clear_pointer (&options->redis_password_file, g_free);
  if (options->redis_password_refused != NULL)
    explicit_bzero (options->redis_password_refused, strlen (options->redis_password_refused));
  g_clear_pointer (&options->redis_password_refused, g_free);
  g_clear_pointer (&options->index_meta_table, g_free);
  options->redis_db = -1;
}

/* The connection options that take a value, for takes_next_argument() */
static const GOptionEntry connection_entries[] = {
  { "redis", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "redis-socket", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "redis-db", 0, 0, G_OPTION_ARG_INT, NULL, NULL, NULL },
  { "redis-user", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "redis-password-file", 0, 0, G_OPTION_ARG_FILENAME, NULL, NULL, NULL },
  { "redis-password", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "index-meta-table", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "gateways", 'g', 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "protocol", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "transport", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "config", 0, 0, G_OPTION_ARG_FILENAME, NULL, NULL, NULL },
  { "timeout", 0, 0, G_OPTION_ARG_INT, NULL, NULL, NULL },
  { "tls-ca-file", 0, 0, G_OPTION_ARG_FILENAME, NULL, NULL, NULL },
  { "kerberos-principal", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "kerberos-keytab", 0, 0, G_OPTION_ARG_FILENAME, NULL, NULL, NULL },
  { "kerberos-ccache", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "kerberos-qop", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "kerberos-service-principal", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "kerberos-http-principal", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "proxy-user", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  G_OPTION_ENTRY_NULL
};

/* Whether @arg is a negative number ("-1", "-2.5", "-inf"), which
 * GOption would take for an option. */
static gboolean
is_negative_number (const char *arg)
{
  char *end = NULL;

  if (arg[0] != '-' || arg[1] == '\0' || arg[1] == '-')
    return FALSE;
  if (g_ascii_strcasecmp (arg, "-inf") == 0)
    return TRUE;
  if (!g_ascii_isdigit (arg[1]) && !(arg[1] == '.' && g_ascii_isdigit (arg[2])))
    return FALSE;
  g_ascii_strtod (arg, &end);
  return end != NULL && *end == '\0';
}

/* Whether @arg is an option of @entries that takes its value from the
 * next argument ("--start", "-s"; not "--start=x"). */
static gboolean
takes_next_argument (const char *arg, const GOptionEntry *entries)
{
  if (entries == NULL || arg[0] != '-' || strchr (arg, '=') != NULL)
    return FALSE;
  for (const GOptionEntry *e = entries; e->long_name != NULL; e++)
    {
      if (e->arg == G_OPTION_ARG_NONE)
        continue;
      if ((arg[1] == '-' && strcmp (arg + 2, e->long_name) == 0) ||
          (arg[1] != '-' && e->short_name != '\0' && arg[strlen (arg) - 1] == e->short_name))
        return TRUE;
    }
  return FALSE;
}

/* Parses the options of @command: its own @entries and the connection
 * options.  --help prints the command's help and exits.  When
 * @cli->list_options is set (hbase-glib --list-commands), prints the
 * command's name and option names on one line instead and returns
 * CLI_EXIT_USAGE, so that the command goes no further.  Negative
 * numbers among the arguments ("zrange T K 0 -1") are arguments, not
 * options.  Returns CLI_EXIT_OK, or CLI_EXIT_USAGE after saying what is
 * wrong. */
int
cli_parse (Cli *cli, const CliCommand *command, const GOptionEntry *entries, int *argc, char ***argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (command->params);
  g_autofree char *description = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) hidden = g_hash_table_new_full (g_direct_hash, g_direct_equal, g_free, NULL);
  gboolean options_ended = FALSE;

  if (cli->list_options)
    {
      /* hbase-glib --list-commands: this command's line of the table */
      printf ("%s --help --help-connection --help-all", command->name);
      cli_print_option_names (stdout, entries);
      cli_print_connection_option_names (stdout);
      printf ("\n");
      cli->options_listed = TRUE;
      return CLI_EXIT_USAGE;
    }
  description = command->description != NULL ? g_strconcat (command->description, "\n\n", EXIT_FOOTER, NULL)
                                              : g_strdup (EXIT_FOOTER);
  g_option_context_set_summary (context, command->summary);
  g_option_context_set_description (context, description);
  if (entries != NULL)
    g_option_context_add_main_entries (context, entries, NULL);
  cli_add_connection_entries (context, &cli->local);
  /* GOption moves the arguments it leaves without copying them, so a
   * negative number swapped for a stand-in comes back by its address */
  for (int i = 1; i < *argc; i++)
    {
      char *arg = (*argv)[i];

      if (strcmp (arg, "--") == 0)
        options_ended = TRUE;
      if (options_ended || !is_negative_number (arg) || takes_next_argument ((*argv)[i - 1], entries) ||
          takes_next_argument ((*argv)[i - 1], connection_entries))
        continue;
      (*argv)[i] = g_strdup ("negative number");
      g_hash_table_insert (hidden, (*argv)[i], arg);
    }
  if (!g_option_context_parse (context, argc, argv, &error))
    return cli_usage (command, "%s", error->message);
  if (cli->global.redis_password_refused != NULL || cli->local.redis_password_refused != NULL)
    return cli_usage (command, "--redis-password is refused: a password on the command line is "
                      "visible to other users (ps, /proc); give --redis-password-file=FILE "
                      "(first line), or set HBASE_GLIB_REDIS_PASSWORD or HBASE_GLIB_REDIS_PASSWORD_FILE");
  for (int i = 1; i < *argc; i++)
    {
      char *original = g_hash_table_lookup (hidden, (*argv)[i]);

      if (original != NULL)
        (*argv)[i] = original;
    }
  cli->verbose = cli->global.verbose || cli->local.verbose;
  /* GOption leaves the "--" that ends the options (so that rows may start
   * with '-'); the first one goes */
  for (int i = 1; i < *argc; i++)
    if (strcmp ((*argv)[i], "--") == 0)
      {
        memmove (*argv + i, *argv + i + 1, sizeof (char *) * (size_t) (*argc - i));
        (*argc)--;
        break;
      }
  return CLI_EXIT_OK;
}

int
cli_usage (const CliCommand *command, const char *format, ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (command != NULL)
    g_printerr ("hbase-glib %s: %s\nusage: hbase-glib %s%s%s\n(hbase-glib %s --help tells more)\n",
                command->name, message, command->name, command->params != NULL ? " " : "",
                command->params != NULL ? command->params : "", command->name);
  else
    g_printerr ("hbase-glib: %s\n(hbase-glib --help tells more)\n", message);
  return CLI_EXIT_USAGE;
}

int
cli_expect_args (const CliCommand *command, int argc, int min, int max)
{
  /* argv[0] is the command */
  if (argc - 1 < min)
    return cli_usage (command, "too few arguments");
  if (max >= 0 && argc - 1 > max)
    return cli_usage (command, "too many arguments");
  return CLI_EXIT_OK;
}

gboolean
cli_parse_int64 (const char *text, const char *what, gint64 *value, GError **error)
{
  g_autoptr(GError) local = NULL;

  if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, value, &local))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s \"%s\" is not a whole number", what, text);
      return FALSE;
    }
  return TRUE;
}

gboolean
cli_confirm (const char *question, gboolean yes, GError **error)
{
  char answer[32] = "";

  if (yes)
    return TRUE;
  if (!isatty (STDIN_FILENO))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s: not confirmed (stdin is not a terminal; add --yes)", question);
      return FALSE;
    }
  g_printerr ("%s [y/N] ", question);
  if (fgets (answer, sizeof answer, stdin) == NULL ||
      (g_ascii_strcasecmp (g_strstrip (answer), "y") != 0 && g_ascii_strcasecmp (answer, "yes") != 0))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "%s: not confirmed", question);
      return FALSE;
    }
  return TRUE;
}

/* "family" or "family:qualifier" (the qualifier is everything after the
 * first colon, escapes allowed).  @qualifier is NULL for a whole family. */
gboolean
cli_parse_column (const char *text, char **family, char **qualifier, GError **error)
{
  const char *colon = strchr (text, ':');
  g_autofree char *family_text = colon != NULL ? g_strndup (text, (gsize) (colon - text)) : g_strdup (text);

  *family = NULL;
  *qualifier = NULL;
  if (*family_text == '\0')
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "column \"%s\" has no family (write FAMILY or FAMILY:QUALIFIER)", text);
      return FALSE;
    }
  if ((*family = cli_unescape_string (family_text, "column family", error)) == NULL)
    return FALSE;
  if (colon != NULL && (*qualifier = cli_unescape_string (colon + 1, "column qualifier", error)) == NULL)
    {
      g_clear_pointer (family, g_free);
      return FALSE;
    }
  return TRUE;
}

