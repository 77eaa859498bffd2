/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-glib: look at and change HBase data from the command line, through
 * the Thrift2 gateway, with hbase-glib.
 *
 *   hbase-glib [CONNECTION OPTIONS] COMMAND [OPTIONS] ARGUMENTS
 *
 * The commands are in tables (cli-data.c, cli-admin.c, ...); `hbase-glib
 * help` lists them, `hbase-glib COMMAND --help` explains one.  See
 * tools/hbase-glib.1 for the whole manual. */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "cli.h"

static int run_help (Cli *cli, const CliCommand *command, int argc, char **argv);
static int run_version (Cli *cli, const CliCommand *command, int argc, char **argv);

static const CliCommand help_commands[] = {
  { "help", "Help", "[COMMAND]", "Show the list of commands, or the help of one command.",
    "hbase-glib help --commands prints only the command names, one a line;\n"
    "hbase-glib --help-connection the connection options.", run_help },
  { "version", "Help", NULL, "Print the versions of the tool and of the hbase-glib library.",
    "Needs no gateway.  The library is the one loaded at run time; the headers\n"
    "are those the tool was built with.  Same as hbase-glib --version.", run_version },
  { NULL, NULL, NULL, NULL, NULL, NULL }
};

/* Every table of commands; a module's commands are one more table. */
static const CliCommand *const command_tables[] = {
  cli_data_commands,
  cli_admin_commands,
  cli_schema_commands,
  cli_set_commands,
  cli_zset_commands,
  cli_index_commands,
  help_commands,
};

static const CliCommand *
find_command (const char *name)
{
  for (gsize t = 0; t < G_N_ELEMENTS (command_tables); t++)
    for (const CliCommand *c = command_tables[t]; c->name != NULL; c++)
      if (strcmp (c->name, name) == 0)
        return c;
  return NULL;
}

/* "unknown command 'scna'; did you mean 'scan'?" */
static int
unknown_command (const CliCommand *command, const char *name)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *guess;

  for (gsize t = 0; t < G_N_ELEMENTS (command_tables); t++)
    for (const CliCommand *c = command_tables[t]; c->name != NULL; c++)
      g_ptr_array_add (names, (gpointer) c->name);
  g_ptr_array_add (names, NULL);
  guess = cli_suggest_command (name, (const char *const *) names->pdata);
  if (guess != NULL)
    return cli_usage (command, "unknown command '%s'; did you mean '%s'?", name, guess);
  return cli_usage (command, "unknown command '%s' (hbase-glib help lists the commands)", name);
}

static int
run_version (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  CliOutput output = { 0 };
  const GOptionEntry entries[] = {
    CLI_FORMAT_ENTRY (&output),
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GError) error = NULL;
  g_autofree char *headers = g_strdup_printf ("%d.%d.%d", HBASE_GLIB_MAJOR_VERSION, HBASE_GLIB_MINOR_VERSION,
                                              HBASE_GLIB_MICRO_VERSION);
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 0, 0)) != CLI_EXIT_OK)
    goto out;
  if (!cli_output_check (&output, &error))
    {
      status = cli_fail (cli, command, error);
      goto out;
    }
  if (output.format == CLI_FORMAT_JSON)
    {
      g_autoptr(GString) line = g_string_new ("{\"tool\":");

      cli_json_string (line, PACKAGE_VERSION);
      g_string_append (line, ",\"library\":");
      cli_json_string (line, hbase_version_string ());
      g_string_append (line, ",\"headers\":");
      cli_json_string (line, headers);
      g_string_append (line, "}\n");
      fputs (line->str, stdout);
    }
  else
    printf ("hbase-glib %s\nlibrary %s\nheaders %s\n", PACKAGE_VERSION, hbase_version_string (), headers);
out:
  g_free (output.format_name);
  return status;
}

static void
print_overview (FILE *out)
{
  const char *group = NULL;

  fprintf (out,
           "Usage: hbase-glib [CONNECTION OPTIONS] COMMAND [OPTIONS] ARGUMENTS\n"
           "\n"
           "Reads and changes HBase tables through a Thrift2 gateway.\n");
  for (gsize t = 0; t < G_N_ELEMENTS (command_tables); t++)
    for (const CliCommand *c = command_tables[t]; c->name != NULL; c++)
      {
        if (group == NULL || strcmp (group, c->group) != 0)
          {
            group = c->group;
            fprintf (out, "\n%s:\n", group);
          }
        fprintf (out, "  %-16s %s\n", c->name, c->summary);
      }
  fprintf (out,
           "\n"
           "Connection options (before or after the command; --help-connection tells more):\n"
           "  -g, --gateways=LIST      Thrift2 gateways, HOST:PORT or http(s)://HOST:PORT[/PATH],\n"
           "                           separated by commas (default localhost:9090)\n"
           "  --protocol=PROTOCOL      binary (default) or compact\n"
           "  --transport=TRANSPORT    buffered (default) or framed\n"
           "  --config=FILE            settings from a key file (group [hbase])\n"
           "  --timeout=MS             give up on an operation after MS milliseconds\n"
           "  --tls-ca-file=FILE, --tls-no-verify-hostname   TLS of https:// gateways\n"
           "  --kerberos, --kerberos-keytab=FILE, --kerberos-principal=PRINCIPAL,\n"
           "  --kerberos-qop=LEVELS, --proxy-user=USER   a secured (Kerberos) gateway\n"
           "  --allow-insecure-http    allow Kerberos over plain http:// gateways\n"
           "  -v, --verbose            show errors in full (with the server's stack trace)\n"
           "  --redis=HOST:PORT, --redis-socket=PATH, --redis-db=N, --index-meta-table=TABLE\n"
           "                           where the secondary indexes are (default 127.0.0.1:6379)\n"
           "  --redis-user=USER, --redis-password-file=FILE\n"
           "                           Redis credentials (never a password on the command line)\n"
           "Environment: HBASE_GLIB_GATEWAYS, HBASE_GLIB_PROTOCOL, HBASE_GLIB_TRANSPORT,\n"
           "HBASE_GLIB_CONFIG (a key file) and the other HBASE_GLIB_* settings;\n"
           "HBASE_GLIB_REDIS_USER, HBASE_GLIB_REDIS_PASSWORD, HBASE_GLIB_REDIS_PASSWORD_FILE.\n"
           "\n"
           "Rows, columns and values are text; \\\\ \\t \\n \\r \\0 and \\xNN stand for bytes,\n"
           "and output escapes bytes the same way.\n"
           "\n"
           "Exit status: 0 done, 1 the operation failed, 2 bad usage or invalid input,\n"
           "3 not found, 4 the gateway could not be reached, 5 a condition was not met.\n"
           "\n"
           "`hbase-glib COMMAND --help` explains a command; see also hbase-glib(1).\n");
}

static int
run_help (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  gboolean names = FALSE;
  const GOptionEntry entries[] = {
    { "commands", 0, 0, G_OPTION_ARG_NONE, &names, "Print the command names, one a line", NULL },
    G_OPTION_ENTRY_NULL
  };
  const CliCommand *wanted;
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 0, 1)) != CLI_EXIT_OK)
    return status;
  if (names)
    {
      for (gsize t = 0; t < G_N_ELEMENTS (command_tables); t++)
        for (const CliCommand *c = command_tables[t]; c->name != NULL; c++)
          printf ("%s\n", c->name);
      return CLI_EXIT_OK;
    }
  if (argc < 2)
    {
      print_overview (stdout);
      return CLI_EXIT_OK;
    }
  if ((wanted = find_command (argv[1])) == NULL)
    return unknown_command (command, argv[1]);
  {
    char *help_argv[] = { (char *) wanted->name, (char *) "--help", NULL };
    g_autofree char *prgname = g_strconcat ("hbase-glib ", wanted->name, NULL);

    g_set_prgname (prgname);
    return wanted->run (cli, wanted, 2, help_argv);
  }
}

/* hbase-glib --list-commands (hidden, for tools/bash-completion.sh): a
 * line of the options before the command ("hbase-glib --help ..."), then
 * a line per command, its name and its options; an option followed by
 * '=' takes a value.  Every command prints its line from the entries it
 * parses (cli_parse()), so the list is the one the tool uses. */
static int
list_commands (Cli *cli, const GOptionEntry *main_entries)
{
  int status = CLI_EXIT_OK;

  printf ("hbase-glib");
  cli_print_option_names (stdout, main_entries);
  cli_print_connection_option_names (stdout);
  printf ("\n");
  cli->list_options = TRUE;
  for (gsize t = 0; t < G_N_ELEMENTS (command_tables); t++)
    for (const CliCommand *c = command_tables[t]; c->name != NULL; c++)
      {
        char *command_argv[] = { (char *) c->name, NULL };

        cli->options_listed = FALSE;
        c->run (cli, c, 1, command_argv);
        if (!cli->options_listed)
          {
            g_printerr ("hbase-glib: command %s did not list its options\n", c->name);
            status = CLI_EXIT_FAILED;
          }
      }
  return status;
}

int
main (int argc, char **argv)
{
  Cli cli = { .global.timeout_ms = -1, .local.timeout_ms = -1, .global.redis_db = -1, .local.redis_db = -1 };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = NULL;
  gboolean help = FALSE, help_connection = FALSE, help_all = FALSE, version = FALSE, list = FALSE;
  const GOptionEntry entries[] = {
    { "help", 'h', 0, G_OPTION_ARG_NONE, &help, NULL, NULL },
    { "help-connection", 0, 0, G_OPTION_ARG_NONE, &help_connection, NULL, NULL },
    { "help-all", 0, 0, G_OPTION_ARG_NONE, &help_all, NULL, NULL },
    { "version", 'V', 0, G_OPTION_ARG_NONE, &version, NULL, NULL },
    { "list-commands", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &list, NULL, NULL },
    G_OPTION_ENTRY_NULL
  };
  const CliCommand *command;
  int status;

  setlocale (LC_ALL, "");
  g_set_prgname ("hbase-glib");
  /* options up to the command name; the command parses the rest */
  g_option_context_set_help_enabled (context, FALSE);
  g_option_context_set_strict_posix (context, TRUE);
  g_option_context_add_main_entries (context, entries, NULL);
  cli_add_connection_entries (context, &cli.global);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      status = cli_usage (NULL, "%s", error->message);
      goto out;
    }
  if (list)
    {
      status = list_commands (&cli, entries);
      goto out;
    }
  if (version)
    {
      char *version_argv[] = { (char *) "version", NULL };

      status = run_version (&cli, find_command ("version"), 1, version_argv);
      goto out;
    }
  if (help_connection || help_all)
    {
      g_autofree char *text = cli_connection_help ();

      if (help_all)
        print_overview (stdout);
      printf ("%s%s", help_all ? "\n" : "", text);
      status = CLI_EXIT_OK;
      goto out;
    }
  if (help || argc < 2)
    {
      print_overview (help ? stdout : stderr);
      status = help ? CLI_EXIT_OK : CLI_EXIT_USAGE;
      goto out;
    }
  if ((command = find_command (argv[1])) == NULL)
    {
      status = unknown_command (NULL, argv[1]);
      goto out;
    }
  cli.command = command;
  /* "hbase-glib get" in the usage line of --help */
  prgname = g_strconcat ("hbase-glib ", command->name, NULL);
  g_set_prgname (prgname);
  status = command->run (&cli, command, argc - 1, argv + 1);
  fflush (stdout);
  if (ferror (stdout) && status == CLI_EXIT_OK)
    {
      g_printerr ("hbase-glib %s: writing the output failed\n", command->name);
      status = CLI_EXIT_FAILED;
    }
out:
  cli_clear (&cli);
  return status;
}
