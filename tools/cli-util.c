/* SPDX-License-Identifier: Apache-2.0 */
/* cli-util.c: options, connection, escaping, output and progress shared
 * by the subcommands of the hbase-glib tool. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#define EXIT_FOOTER \
  "Exit status: 0 done, 1 the operation failed, 2 bad usage or invalid input,\n" \
  "3 not found, 4 the gateway could not be reached, 5 a condition was not met.\n" \
  "Settings also come from HBASE_GLIB_GATEWAYS, HBASE_GLIB_PROTOCOL,\n" \
  "HBASE_GLIB_TRANSPORT and the key file named by HBASE_GLIB_CONFIG.\n" \
  "See hbase-glib(1)."

/* --- options ------------------------------------------------------------------ */

static gboolean verbose;
/* the client and table of the command, for cli_fail() */
static HBaseClient *last_client;
static char *last_table;

void
cli_add_connection_entries (GOptionContext *context, CliConnectionOptions *options)
{
  const GOptionEntry entries[] = {
    { "gateways", 'g', 0, G_OPTION_ARG_STRING, &options->gateways,
      "Thrift2 gateways, HOST:PORT separated by commas (default localhost:9090)", "LIST" },
    { "protocol", 0, 0, G_OPTION_ARG_STRING, &options->protocol,
      "Thrift protocol of the gateways: binary (default) or compact", "PROTOCOL" },
    { "transport", 0, 0, G_OPTION_ARG_STRING, &options->transport,
      "Thrift transport of the gateways: buffered (default) or framed", "TRANSPORT" },
    { "config", 0, 0, G_OPTION_ARG_FILENAME, &options->config_file,
      "Read settings from this key file (group [hbase])", "FILE" },
    { "timeout", 0, 0, G_OPTION_ARG_INT, &options->timeout_ms,
      "Give up on each operation after this many milliseconds, retries included", "MS" },
    { "verbose", 'v', 0, G_OPTION_ARG_NONE, &options->verbose,
      "Show errors in full, with the server's stack trace", NULL },
    { "redis", 0, 0, G_OPTION_ARG_STRING, &options->redis,
      "Redis of the secondary indexes, HOST:PORT (default 127.0.0.1:6379)", "HOST:PORT" },
    { "redis-socket", 0, 0, G_OPTION_ARG_FILENAME, &options->redis_socket,
      "Redis unix socket, instead of --redis", "PATH" },
    { "redis-db", 0, 0, G_OPTION_ARG_INT, &options->redis_db, "Redis database number (default 0)", "N" },
    { "index-meta-table", 0, 0, G_OPTION_ARG_STRING, &options->index_meta_table,
      "HBase table of index definitions (default " HBASE_INDEX_DEFAULT_META_TABLE ")", "TABLE" },
    G_OPTION_ENTRY_NULL
  };

  g_option_context_add_main_entries (context, entries, NULL);
}

void
cli_forget_table (void)
{
  last_client = NULL;
  g_clear_pointer (&last_table, g_free);
}

void
cli_connection_options_clear (CliConnectionOptions *options)
{
  g_clear_pointer (&options->gateways, g_free);
  g_clear_pointer (&options->protocol, g_free);
  g_clear_pointer (&options->transport, g_free);
  g_clear_pointer (&options->config_file, g_free);
  options->timeout_ms = -1;
  options->verbose = FALSE;
  g_clear_pointer (&options->redis, g_free);
  g_clear_pointer (&options->redis_socket, g_free);
  g_clear_pointer (&options->index_meta_table, g_free);
  options->redis_db = -1;
}

/* The connection options that take a value, for takes_next_argument() */
static const GOptionEntry connection_entries[] = {
  { "redis", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "redis-socket", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "redis-db", 0, 0, G_OPTION_ARG_INT, NULL, NULL, NULL },
  { "index-meta-table", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "gateways", 'g', 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "protocol", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "transport", 0, 0, G_OPTION_ARG_STRING, NULL, NULL, NULL },
  { "config", 0, 0, G_OPTION_ARG_FILENAME, NULL, NULL, NULL },
  { "timeout", 0, 0, G_OPTION_ARG_INT, NULL, NULL, NULL },
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
 * options.  --help prints the command's help and exits.  Negative
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
  for (int i = 1; i < *argc; i++)
    {
      char *original = g_hash_table_lookup (hidden, (*argv)[i]);

      if (original != NULL)
        (*argv)[i] = original;
    }
  verbose = cli->global.verbose || cli->local.verbose;
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

int
cli_exit_for_error (const GError *error)
{
  if (error == NULL)
    return CLI_EXIT_FAILED;
  if (error->domain == HBASE_ERROR)
    switch ((HBaseErrorCode) error->code)
      {
      case HBASE_ERROR_CONNECTION:
      case HBASE_ERROR_TIMEOUT:
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
    switch ((HBaseIndexErrorCode) error->code)
      {
      case HBASE_INDEX_ERROR_REDIS:
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

/* Some calls (scans, batches, the structures' reads) get a missing table
 * reported by the gateway as an I/O error that only names it; after such
 * an error, one tableExists call tells whether that was the cause, so the
 * exit status is 3 and the message plain. */
static GError *
refine_table_error (const GError *error)
{
  gboolean exists = TRUE;

  if (error == NULL || !g_error_matches (error, HBASE_ERROR, HBASE_ERROR_IO) || last_table == NULL ||
      !hbase_admin_table_exists (last_client, last_table, &exists, NULL, NULL) || exists)
    return NULL;
  return g_error_new (HBASE_ERROR, HBASE_ERROR_NOT_FOUND, "table %s does not exist", last_table);
}

/* Says what failed, in the library's words, and returns the exit status. */
int
cli_fail (const CliCommand *command, const GError *error)
{
  g_autoptr(GError) refined = refine_table_error (error);
  int status;

  if (refined != NULL)
    error = refined;
  status = cli_exit_for_error (error);
  g_autofree char *message = error == NULL ? g_strdup ("failed")
                             : verbose ? g_strdup (error->message) : plain_message (error->message);

  g_printerr ("hbase-glib%s%s: %s\n", command != NULL ? " " : "", command != NULL ? command->name : "", message);
  if (g_error_matches (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS))
    g_printerr ("(the table has a secondary index in Redis: check that Redis runs and that\n"
                " --redis or --redis-socket name it; --no-index writes without the index)\n");
  else if (status == CLI_EXIT_CONNECTION)
    g_printerr ("(check that the gateway runs and that --gateways, --protocol and --transport,\n"
                " or HBASE_GLIB_GATEWAYS, _PROTOCOL and _TRANSPORT, match it)\n");
  return status;
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

/* --- connection ------------------------------------------------------------------------ */

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
  return TRUE;
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
  cli->client = hbase_client_new (config, error);
  return cli->client;
}

static void
remember_table (HBaseClient *client, const char *name)
{
  last_client = client;
  g_free (last_table);
  last_table = g_strdup (name);
}

HBaseTable *
cli_table (Cli *cli, const char *name, GError **error)
{
  HBaseClient *client = cli_client (cli, error);

  if (client == NULL)
    return NULL;
  remember_table (client, name);
  return hbase_table_new (client, name, error);
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
  remember_table (client, name);
  if (no_index)
    return hbase_table_new (client, name, error);
  if (!cli_index_options (cli, &options, error))
    return NULL;
  g_clear_pointer (&cli->index, hbase_index_free);
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
  g_clear_pointer (&cli->index, hbase_index_free);
  g_clear_object (&cli->client);
  g_clear_pointer (&cli->redis_host, g_free);
  cli_connection_options_clear (&cli->global);
  cli_connection_options_clear (&cli->local);
  cli_forget_table ();
}

/* The table, after checking that it exists: for work that reads its
 * input first and writes in batches, so a missing table is said before
 * reading anything. */
HBaseTable *
cli_existing_table (Cli *cli, const char *name, gboolean no_index, GError **error)
{
  HBaseClient *client = cli_client (cli, error);
  gboolean exists = FALSE;

  if (client == NULL || !hbase_admin_table_exists (client, name, &exists, NULL, error))
    return NULL;
  remember_table (client, name);
  if (!exists)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_NOT_FOUND, "table %s does not exist", name);
      return NULL;
    }
  return cli_write_table (cli, name, no_index, error);
}

/* --- escaping ----------------------------------------------------------------------- */

/* Bytes from the command line: text with the escapes \\ \t \n \r \0 and
 * \xNN (two hex digits); every other byte stands for itself. */
GBytes *
cli_unescape (const char *text, const char *what, GError **error)
{
  g_autoptr(GByteArray) out = g_byte_array_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p++)
    {
      guint8 byte = (guint8) *p;

      if (*p == '\\')
        {
          p++;
          switch (*p)
            {
            case '\\': byte = '\\'; break;
            case 't': byte = '\t'; break;
            case 'n': byte = '\n'; break;
            case 'r': byte = '\r'; break;
            case '0': byte = '\0'; break;
            case 'x':
              if (g_ascii_isxdigit (p[1]) && g_ascii_isxdigit (p[2]))
                {
                  byte = (guint8) (g_ascii_xdigit_value (p[1]) * 16 + g_ascii_xdigit_value (p[2]));
                  p += 2;
                  break;
                }
              G_GNUC_FALLTHROUGH;
            default:
              g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                           "%s \"%s\": a backslash starts \\\\, \\t, \\n, \\r, \\0 or \\xNN "
                           "(two hex digits)", what, text);
              return NULL;
            }
        }
      g_byte_array_append (out, &byte, 1);
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&out));
}

/* As cli_unescape() for names that must stay C strings (no NUL byte). */
char *
cli_unescape_string (const char *text, const char *what, GError **error)
{
  g_autoptr(GBytes) bytes = cli_unescape (text, what, error);
  gsize length;
  const char *data;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &length);
  if (length > 0 && memchr (data, '\0', length) != NULL)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "%s \"%s\" must not contain a NUL byte", what, text);
      return NULL;
    }
  /* an empty GBytes may have no data at all */
  return length > 0 ? g_strndup (data, length) : g_strdup ("");
}

/* The length of the valid UTF-8 character at @p (at most @left bytes),
 * or 0 when the bytes there are not one. */
static gsize
utf8_length (const guint8 *p, gsize left)
{
  gunichar c;

  if (*p < 0x80)
    return 1;
  c = g_utf8_get_char_validated ((const char *) p, (gssize) left);
  if (c == (gunichar) -1 || c == (gunichar) -2)
    return 0;
  return (gsize) g_utf8_skip[*p];
}

/* Bytes for a line of TSV: \\ \t \n \r for those four, \xNN for other
 * control bytes, DEL and bytes that are not UTF-8 (every byte outside
 * printable ASCII with @ascii_only).  cli_unescape() reads it back. */
void
cli_escape (GString *out, const guint8 *data, gsize length, gboolean ascii_only)
{
  for (gsize i = 0; i < length;)
    {
      guint8 byte = data[i];
      gsize n;

      switch (byte)
        {
        case '\\': g_string_append (out, "\\\\"); i++; continue;
        case '\t': g_string_append (out, "\\t"); i++; continue;
        case '\n': g_string_append (out, "\\n"); i++; continue;
        case '\r': g_string_append (out, "\\r"); i++; continue;
        default: break;
        }
      if (byte >= 0x20 && byte < 0x7f)
        {
          g_string_append_c (out, (char) byte);
          i++;
          continue;
        }
      n = byte >= 0x80 && !ascii_only ? utf8_length (data + i, length - i) : 0;
      /* C1 controls (U+0080..U+009F) are escaped too */
      if (n > 0 && !(n == 2 && byte == 0xc2 && data[i + 1] < 0xa0))
        {
          g_string_append_len (out, (const char *) data + i, (gssize) n);
          i += n;
          continue;
        }
      g_string_append_printf (out, "\\x%02x", byte);
      i++;
    }
}

void
cli_escape_bytes (GString *out, GBytes *bytes, gboolean ascii_only)
{
  gsize length = 0;
  const guint8 *data = bytes != NULL ? g_bytes_get_data (bytes, &length) : NULL;

  cli_escape (out, data, length, ascii_only);
}

static gboolean
is_utf8 (const guint8 *data, gsize length)
{
  for (gsize i = 0; i < length;)
    {
      gsize n = utf8_length (data + i, length - i);

      if (n == 0)
        return FALSE;
      i += n;
    }
  return TRUE;
}

static void
json_text (GString *out, const guint8 *data, gsize length)
{
  g_string_append_c (out, '"');
  for (gsize i = 0; i < length; i++)
    {
      guint8 byte = data[i];

      switch (byte)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (byte < 0x20 || byte == 0x7f)
            g_string_append_printf (out, "\\u%04x", byte);
          else
            g_string_append_c (out, (char) byte);
        }
    }
  g_string_append_c (out, '"');
}

/* Bytes as a JSON value that gives them back exactly: a string when they
 * are UTF-8 (control characters as \uNNNN), otherwise {"base64": "..."};
 * with @base64, always a base64 string. */
void
cli_json_bytes (GString *out, const guint8 *data, gsize length, gboolean base64)
{
  if (!base64 && is_utf8 (data, length))
    {
      json_text (out, data, length);
      return;
    }
  {
    g_autofree char *encoded = g_base64_encode (data, length);

    g_string_append_printf (out, base64 ? "\"%s\"" : "{\"base64\":\"%s\"}", encoded);
  }
}

void
cli_json_string (GString *out, const char *text)
{
  json_text (out, (const guint8 *) text, strlen (text));
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

/* --- output of rows --------------------------------------------------------------------------- */

gboolean
cli_output_check (CliOutput *output, GError **error)
{
  if (output->format_name == NULL || strcmp (output->format_name, "tsv") == 0)
    output->format = CLI_FORMAT_TSV;
  else if (strcmp (output->format_name, "json") == 0)
    output->format = CLI_FORMAT_JSON;
  else
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "unknown output format \"%s\" (tsv or json)", output->format_name);
      return FALSE;
    }
  return TRUE;
}

static void
column_bytes (GByteArray *column, const HBaseCell *cell)
{
  gsize length;
  const guint8 *data;

  g_byte_array_set_size (column, 0);
  data = g_bytes_get_data (hbase_cell_get_family ((HBaseCell *) cell), &length);
  g_byte_array_append (column, data, (guint) length);
  g_byte_array_append (column, (const guint8 *) ":", 1);
  data = g_bytes_get_data (hbase_cell_get_qualifier ((HBaseCell *) cell), &length);
  g_byte_array_append (column, data, (guint) length);
}

/* Writes @row to stdout: TSV, one line per cell ("ROW\tFAMILY:QUALIFIER
 * [\tTIMESTAMP]\tVALUE"), or one line of JSON ({"row": ..., "cells":
 * [{"column": ..., "timestamp": ..., "value": ...}]}).  With keys_only,
 * only the row key.  @buffer is scratch space. */
void
cli_output_row (const CliOutput *output, HBaseRow *row, GString *buffer)
{
  g_autoptr(GByteArray) column = g_byte_array_new ();
  GBytes *key = hbase_row_get_key (row);
  gsize key_length;
  const guint8 *key_data = g_bytes_get_data (key, &key_length);
  guint n = hbase_row_get_n_cells (row);

  g_string_truncate (buffer, 0);
  if (output->format == CLI_FORMAT_JSON)
    {
      g_string_append (buffer, "{\"row\":");
      cli_json_bytes (buffer, key_data, key_length, output->base64);
      if (!output->keys_only)
        {
          g_string_append (buffer, ",\"cells\":[");
          for (guint i = 0; i < n; i++)
            {
              const HBaseCell *cell = hbase_row_get_cell (row, i);
              gsize length;
              const guint8 *data = g_bytes_get_data (hbase_cell_get_value (cell), &length);

              column_bytes (column, cell);
              g_string_append (buffer, i > 0 ? ",{\"column\":" : "{\"column\":");
              cli_json_bytes (buffer, column->data, column->len, output->base64);
              g_string_append_printf (buffer, ",\"timestamp\":%" G_GINT64_FORMAT ",\"value\":",
                                      hbase_cell_get_timestamp (cell));
              cli_json_bytes (buffer, data, length, output->base64);
              g_string_append_c (buffer, '}');
            }
          g_string_append_c (buffer, ']');
        }
      g_string_append (buffer, "}\n");
    }
  else if (output->keys_only)
    {
      cli_escape (buffer, key_data, key_length, output->ascii);
      g_string_append_c (buffer, '\n');
    }
  else
    for (guint i = 0; i < n; i++)
      {
        const HBaseCell *cell = hbase_row_get_cell (row, i);

        column_bytes (column, cell);
        cli_escape (buffer, key_data, key_length, output->ascii);
        g_string_append_c (buffer, '\t');
        cli_escape (buffer, column->data, column->len, output->ascii);
        if (output->timestamps)
          g_string_append_printf (buffer, "\t%" G_GINT64_FORMAT, hbase_cell_get_timestamp (cell));
        g_string_append_c (buffer, '\t');
        cli_escape_bytes (buffer, hbase_cell_get_value (cell), output->ascii);
        g_string_append_c (buffer, '\n');
      }
  fwrite (buffer->str, 1, buffer->len, stdout);
}

/* --- progress ------------------------------------------------------------------------------ */

/* Progress of long work on stderr, redrawn at most ten times a second;
 * only when stderr is a terminal (or @force). */
void
cli_progress_start (CliProgress *progress, const char *unit, guint64 total, gboolean force)
{
  progress->unit = unit;
  progress->total = total;
  progress->started = g_get_monotonic_time ();
  progress->shown = 0;
  progress->drawn = FALSE;
  progress->enabled = force || isatty (STDERR_FILENO);
}

static void
progress_draw (CliProgress *progress, guint64 done)
{
  double seconds = (double) (g_get_monotonic_time () - progress->started) / G_USEC_PER_SEC;
  /* a rate over less than a fifth of a second means nothing */
  g_autofree char *rate = seconds >= 0.2 ? g_strdup_printf ("  %.0f/s", (double) done / seconds) : g_strdup ("");

  if (progress->total > 0)
    {
      const int width = 30;
      guint64 shown = MIN (done, progress->total);
      int filled = (int) ((double) shown * width / (double) progress->total);

      fprintf (stderr, "\r[%.*s%*s] %3d%%  %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " %s%s ",
               filled, "##############################", width - filled, "",
               (int) ((double) shown * 100 / (double) progress->total),
               done, progress->total, progress->unit, rate);
    }
  else
    fprintf (stderr, "\r%" G_GUINT64_FORMAT " %s%s ", done, progress->unit, rate);
  fflush (stderr);
  progress->drawn = TRUE;
}

void
cli_progress_update (CliProgress *progress, guint64 done)
{
  gint64 now;

  if (!progress->enabled)
    return;
  now = g_get_monotonic_time ();
  if (now - progress->shown < G_USEC_PER_SEC / 10)
    return;
  progress->shown = now;
  progress_draw (progress, done);
}

void
cli_progress_finish (CliProgress *progress)
{
  if (progress->enabled && progress->drawn)
    fprintf (stderr, "\r\033[K");
  progress->drawn = FALSE;
}
