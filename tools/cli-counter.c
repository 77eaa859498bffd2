/* SPDX-License-Identifier: Apache-2.0 */
/* cli-counter.c: the hbase-glib commands for 64-bit counters: incr and
 * counter (their entries are in cli-data.c's table). */
#include "config.h"

#include "cli.h"

/* --- counters ------------------------------------------------------------------------------- */

static int
counter_args (Cli *cli, const CliCommand *command, char **argv, GBytes **key, char **family, char **qualifier,
              GError **error)
{
  if ((*key = cli_unescape (argv[2], "row", error)) == NULL ||
      !cli_parse_column (argv[3], family, qualifier, error))
    return cli_fail (cli, command, *error);
  if (*qualifier == NULL)
    return cli_usage (command, "the counter column must be FAMILY:QUALIFIER");
  return CLI_EXIT_OK;
}

int
cli_run_incr (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GBytes) key = NULL;
  g_autofree char *family = NULL;
  g_autofree char *qualifier = NULL;
  g_autoptr(GError) error = NULL;
  gint64 amount = 1, value = 0;
  gboolean no_index = FALSE;
  g_autofree char *format_name = NULL;
  CliFormat format = CLI_FORMAT_TSV;
  const GOptionEntry entries[] = {
    CLI_NO_INDEX_ENTRY (&no_index),
    CLI_FORMAT_NAME_ENTRY (&format_name),
    G_OPTION_ENTRY_NULL
  };
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 3, 4)) != CLI_EXIT_OK ||
      (status = cli_format_parse (cli, command, format_name, &format)) != CLI_EXIT_OK ||
      (status = counter_args (cli, command, argv, &key, &family, &qualifier, &error)) != CLI_EXIT_OK)
    return status;
  if (argc == 5 && !cli_parse_int64 (argv[4], "amount", &amount, &error))
    return cli_fail (cli, command, error);
  if ((table = cli_write_table (cli, argv[1], no_index, &error)) == NULL ||
      !hbase_table_increment_counter (table, key, family, qualifier, amount, &value, NULL, &error))
    return cli_fail (cli, command, error);
  cli_print_integer (format, "value", value);
  return CLI_EXIT_OK;
}

int
cli_run_counter (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GBytes) key = NULL;
  g_autofree char *family = NULL;
  g_autofree char *qualifier = NULL;
  g_autoptr(GError) error = NULL;
  gint64 value = 0;
  gboolean no_index = FALSE;
  g_autofree char *format_name = NULL;
  CliFormat format = CLI_FORMAT_TSV;
  const GOptionEntry entries[] = {
    CLI_NO_INDEX_ENTRY (&no_index),
    CLI_FORMAT_NAME_ENTRY (&format_name),
    G_OPTION_ENTRY_NULL
  };
  int status;

  if ((status = cli_parse (cli, command, entries, &argc, &argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, argc, 3, 4)) != CLI_EXIT_OK ||
      (status = cli_format_parse (cli, command, format_name, &format)) != CLI_EXIT_OK ||
      (status = counter_args (cli, command, argv, &key, &family, &qualifier, &error)) != CLI_EXIT_OK)
    return status;
  if (argc == 5 && !cli_parse_int64 (argv[4], "value", &value, &error))
    return cli_fail (cli, command, error);
  if ((table = argc == 5 ? cli_write_table (cli, argv[1], no_index, &error) : cli_table (cli, argv[1], &error)) == NULL)
    return cli_fail (cli, command, error);
  if (argc == 5 ? !hbase_table_set_counter (table, key, family, qualifier, value, NULL, &error)
                : !hbase_table_get_counter (table, key, family, qualifier, &value, NULL, &error))
    return cli_fail (cli, command, error);
  cli_print_integer (format, "value", value);
  return CLI_EXIT_OK;
}
