/* SPDX-License-Identifier: Apache-2.0 */
/* cli-set.c: the hbase-glib commands for sets kept in HBase rows
 * (hbase-set.h), named after Redis's: sadd, srem, scard, sismember,
 * smembers, sinter, sunion, sdiff. */
#include "config.h"

#include "cli-structures.h"

#define SETS_GROUP "Sets (one set per row key, family \"s\" by default)"

#define SHARDS_ENTRY(a) \
  { "shards", 0, 0, G_OPTION_ARG_INT, &(a)->shards, \
    "Rows the set is spread over (every command on a set must give the same; default 1)", "N" }

static HBaseSet *
open_set (Cli *cli, StructArgs *args, const char *table_name, const char *key_text, GError **error)
{
  HBaseSetOptions options = HBASE_SET_OPTIONS_INIT;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GBytes) key = NULL;

  if (args->shards < 0)
    {
      g_set_error_literal (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT, "--shards must not be negative");
      return NULL;
    }
  options.family = args->family;
  options.shards = (guint) args->shards;
  if ((key = cli_unescape (key_text, "key", error)) == NULL || (table = cli_table (cli, table_name, error)) == NULL)
    return NULL;
  return hbase_set_new (table, key, &options, error);
}

static int
set_change (Cli *cli, const CliCommand *command, int argc, char **argv, gboolean add)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), SHARDS_ENTRY (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GPtrArray) members = NULL;
  g_autoptr(GError) error = NULL;
  guint64 n = 0;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 3, -1)) == CLI_EXIT_OK)
    {
      if ((members = cli_members_from (argv + 3, argc - 3, &error)) == NULL ||
          (set = open_set (cli, &args, argv[1], argv[2], &error)) == NULL ||
          !(add ? hbase_set_add (set, members, &n, NULL, &error) : hbase_set_remove (set, members, &n, NULL, &error)))
        status = cli_fail (cli, command, error);
      else
        cli_print_integer (args.output.format, "count", (gint64) n);
    }
  cli_struct_args_clear (&args);
  return status;
}

static int
run_sadd (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return set_change (cli, command, argc, argv, TRUE);
}

static int
run_srem (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return set_change (cli, command, argc, argv, FALSE);
}

static int
run_scard (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), SHARDS_ENTRY (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GError) error = NULL;
  guint64 n = 0;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 2, 2)) == CLI_EXIT_OK)
    {
      if ((set = open_set (cli, &args, argv[1], argv[2], &error)) == NULL || !hbase_set_card (set, &n, NULL, &error))
        status = cli_fail (cli, command, error);
      else
        cli_print_integer (args.output.format, "count", (gint64) n);
    }
  cli_struct_args_clear (&args);
  return status;
}

static int
run_sismember (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), SHARDS_ENTRY (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(GBytes) member = NULL;
  g_autoptr(GError) error = NULL;
  gboolean is_member = FALSE;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 3, 3)) == CLI_EXIT_OK)
    {
      if ((member = cli_unescape (argv[3], "member", &error)) == NULL ||
          (set = open_set (cli, &args, argv[1], argv[2], &error)) == NULL ||
          !hbase_set_contains (set, member, &is_member, NULL, &error))
        status = cli_fail (cli, command, error);
      else
        {
          if (args.output.format == CLI_FORMAT_JSON)
            printf ("{\"member\":%s}\n", is_member ? "true" : "false");
          else
            printf ("%s\n", is_member ? "yes" : "no");
          status = is_member ? CLI_EXIT_OK : CLI_EXIT_NOT_FOUND;
        }
    }
  cli_struct_args_clear (&args);
  return status;
}

static int
print_set_iter (Cli *cli, const CliCommand *command, StructArgs *args, HBaseSetIter *iter)
{
  g_autoptr(GError) error = NULL;

  for (;;)
    {
      g_autoptr(GBytes) member = NULL;

      if (!hbase_set_iter_next (iter, &member, NULL, &error))
        return cli_fail (cli, command, error);
      if (member == NULL)
        return CLI_EXIT_OK;
      cli_print_member (args, member, NULL);
    }
}

static int
run_smembers (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), SHARDS_ENTRY (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseSet) set = NULL;
  g_autoptr(HBaseSetIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 2, 2)) == CLI_EXIT_OK)
    {
      if ((set = open_set (cli, &args, argv[1], argv[2], &error)) == NULL)
        status = cli_fail (cli, command, error);
      else
        {
          iter = hbase_set_members (set);
          status = print_set_iter (cli, command, &args, iter);
        }
    }
  cli_struct_args_clear (&args);
  return status;
}

typedef enum { SET_INTER, SET_UNION, SET_DIFF } SetAlgebra;

static int
set_algebra (Cli *cli, const CliCommand *command, int argc, char **argv, SetAlgebra op)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), SHARDS_ENTRY (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(GPtrArray) sets = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(HBaseSetIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 2, -1)) != CLI_EXIT_OK)
    goto out;
  for (int i = 2; i < argc; i++)
    {
      HBaseSet *set = open_set (cli, &args, argv[1], argv[i], &error);

      if (set == NULL)
        {
          status = cli_fail (cli, command, error);
          goto out;
        }
      g_ptr_array_add (sets, set);
    }
  iter = op == SET_INTER ? hbase_set_intersect (sets, &error)
         : op == SET_UNION ? hbase_set_union (sets, &error) : hbase_set_diff (sets, &error);
  status = iter != NULL ? print_set_iter (cli, command, &args, iter) : cli_fail (cli, command, error);
out:
  cli_struct_args_clear (&args);
  return status;
}

static int
run_sinter (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return set_algebra (cli, command, argc, argv, SET_INTER);
}

static int
run_sunion (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return set_algebra (cli, command, argc, argv, SET_UNION);
}

static int
run_sdiff (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  return set_algebra (cli, command, argc, argv, SET_DIFF);
}

const CliCommand cli_set_commands[] = {
  { "sadd", SETS_GROUP, "TABLE KEY MEMBER...", "Add members to a set; print how many were new.",
    "The set lives in the row KEY (or in --shards rows) of TABLE, whose family (\"s\"\n"
    "by default, --family) must exist.  Members are any bytes, with the escapes of\n"
    "rows and values.", run_sadd },
  { "srem", SETS_GROUP, "TABLE KEY MEMBER...", "Remove members from a set; print how many were there.", NULL, run_srem },
  { "scard", SETS_GROUP, "TABLE KEY", "Print the number of members of a set.", NULL, run_scard },
  { "sismember", SETS_GROUP, "TABLE KEY MEMBER", "Tell whether MEMBER is in the set (\"yes\", or \"no\" and exit status 3).",
    NULL, run_sismember },
  { "smembers", SETS_GROUP, "TABLE KEY", "Print the members of a set, in byte order.",
    "One member a line (escaped as rows are), or one JSON string a line with -o json.\n"
    "Read a page at a time, so any size of set can be listed.", run_smembers },
  { "sinter", SETS_GROUP, "TABLE KEY...", "Print the members common to every set.", NULL, run_sinter },
  { "sunion", SETS_GROUP, "TABLE KEY...", "Print the members of any of the sets.", NULL, run_sunion },
  { "sdiff", SETS_GROUP, "TABLE KEY...", "Print the members of the first set in none of the others.", NULL, run_sdiff },
  { NULL, NULL, NULL, NULL, NULL, NULL }
};
