/* SPDX-License-Identifier: Apache-2.0 */
/* cli-zset.c: the hbase-glib commands for sorted sets kept in HBase rows
 * (hbase-zset.h), named after Redis's: zadd, zincrby, zrem, zscore, zcard,
 * zcount, zrank, zrange, zrangebyscore, zpopmin, zpopmax. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "cli-structures.h"

#define ZSETS_GROUP "Sorted sets (one per row key, family \"z\" by default)"

static HBaseZSet *
open_zset (Cli *cli, StructArgs *args, const char *table_name, const char *key_text, GError **error)
{
  HBaseZSetOptions options = HBASE_ZSET_OPTIONS_INIT;
  g_autoptr(HBaseTable) table = NULL;
  g_autoptr(GBytes) key = NULL;

  options.family = args->family;
  if ((key = cli_unescape (key_text, "key", error)) == NULL || (table = cli_table (cli, table_name, error)) == NULL)
    return NULL;
  return hbase_zset_new (table, key, &options, error);
}

static gboolean
parse_score (const char *text, double *score, GError **error)
{
  char *end = NULL;

  if (g_ascii_strcasecmp (text, "+inf") == 0 || g_ascii_strcasecmp (text, "inf") == 0)
    *score = HUGE_VAL;
  else if (g_ascii_strcasecmp (text, "-inf") == 0)
    *score = -HUGE_VAL;
  else
    {
      *score = g_ascii_strtod (text, &end);
      if (end == text || *end != '\0' || isnan (*score) || g_ascii_isspace (text[0]))
        {
          g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                       "score \"%s\" is not a number (inf, -inf and decimals are)", text);
          return FALSE;
        }
    }
  return TRUE;
}

/* A bound as Redis writes one: "1.5", "(1.5" (exclusive), "-inf", "+inf". */
static gboolean
parse_bound (const char *text, double *value, gboolean *exclusive, GError **error)
{
  *exclusive = text[0] == '(';
  return parse_score (text + (*exclusive ? 1 : 0), value, error);
}

static int
run_zadd (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  gboolean nx = FALSE, xx = FALSE, gt = FALSE, lt = FALSE, ch = FALSE;
  const GOptionEntry entries[] = {
    STRUCT_ENTRIES (&args),
    { "nx", 0, 0, G_OPTION_ARG_NONE, &nx, "Only add new members", NULL },
    { "xx", 0, 0, G_OPTION_ARG_NONE, &xx, "Only update existing members", NULL },
    { "gt", 0, 0, G_OPTION_ARG_NONE, &gt, "Update a member only to a greater score", NULL },
    { "lt", 0, 0, G_OPTION_ARG_NONE, &lt, "Update a member only to a lower score", NULL },
    { "ch", 0, 0, G_OPTION_ARG_NONE, &ch, "Count changed members too, not only added ones", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  g_autoptr(GArray) scores = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  HBaseZAddFlags flags = HBASE_ZADD_NONE;
  guint64 n = 0;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 4, -1)) != CLI_EXIT_OK)
    goto out;
  if ((argc - 3) % 2 != 0)
    {
      status = cli_usage (command, "scores and members come in pairs: SCORE MEMBER [SCORE MEMBER...]");
      goto out;
    }
  flags |= nx ? HBASE_ZADD_NX : 0;
  flags |= xx ? HBASE_ZADD_XX : 0;
  flags |= gt ? HBASE_ZADD_GT : 0;
  flags |= lt ? HBASE_ZADD_LT : 0;
  flags |= ch ? HBASE_ZADD_CH : 0;
  for (int i = 3; i + 1 < argc; i += 2)
    {
      double score;
      GBytes *member;

      if (!parse_score (argv[i], &score, &error) || (member = cli_unescape (argv[i + 1], "member", &error)) == NULL)
        goto failed;
      g_array_append_val (scores, score);
      g_ptr_array_add (members, member);
    }
  if ((zset = open_zset (cli, &args, argv[1], argv[2], &error)) == NULL ||
      !hbase_zset_add (zset, flags, members, (const double *) (gpointer) scores->data, &n, NULL, &error))
    goto failed;
  cli_print_integer (args.output.format, "count", (gint64) n);
  goto out;
failed:
  status = cli_fail (cli, command, error);
out:
  cli_struct_args_clear (&args);
  return status;
}

static int
run_zincrby (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GBytes) member = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  double increment = 0, score = 0;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 4, 4)) == CLI_EXIT_OK)
    {
      if (!parse_score (argv[3], &increment, &error) ||
          (member = cli_unescape (argv[4], "member", &error)) == NULL ||
          (zset = open_zset (cli, &args, argv[1], argv[2], &error)) == NULL ||
          !hbase_zset_incr_by (zset, member, increment, &score, NULL, &error))
        status = cli_fail (cli, command, error);
      else
        {
          gboolean json = args.output.format == CLI_FORMAT_JSON;

          g_string_append (text, json ? "{\"score\":" : "");
          cli_append_score (text, score, json);
          printf ("%s%s\n", text->str, json ? "}" : "");
        }
    }
  cli_struct_args_clear (&args);
  return status;
}

static int
run_zrem (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GPtrArray) members = NULL;
  g_autoptr(GError) error = NULL;
  guint64 n = 0;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 3, -1)) == CLI_EXIT_OK)
    {
      if ((members = cli_members_from (argv + 3, argc - 3, &error)) == NULL ||
          (zset = open_zset (cli, &args, argv[1], argv[2], &error)) == NULL ||
          !hbase_zset_remove (zset, members, &n, NULL, &error))
        status = cli_fail (cli, command, error);
      else
        cli_print_integer (args.output.format, "count", (gint64) n);
    }
  cli_struct_args_clear (&args);
  return status;
}

static int
run_zscore (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GBytes) member = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  gboolean found = FALSE;
  double score = 0;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 3, 3)) == CLI_EXIT_OK)
    {
      if ((member = cli_unescape (argv[3], "member", &error)) == NULL ||
          (zset = open_zset (cli, &args, argv[1], argv[2], &error)) == NULL ||
          !hbase_zset_score (zset, member, &found, &score, NULL, &error))
        status = cli_fail (cli, command, error);
      else if (!found)
        {
          g_printerr ("hbase-glib zscore: %s is not a member\n", argv[3]);
          status = CLI_EXIT_NOT_FOUND;
        }
      else
        {
          gboolean json = args.output.format == CLI_FORMAT_JSON;

          g_string_append (text, json ? "{\"score\":" : "");
          cli_append_score (text, score, json);
          printf ("%s%s\n", text->str, json ? "}" : "");
        }
    }
  cli_struct_args_clear (&args);
  return status;
}

static int
run_zcard (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GError) error = NULL;
  HBaseScoreRange range = HBASE_SCORE_RANGE_INIT;
  guint64 n = 0;
  int status;
  gboolean counting;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 2, 4)) != CLI_EXIT_OK)
    goto out;
  counting = strcmp (command->name, "zcount") == 0;
  if (counting != (argc == 5))
    {
      status = cli_usage (command, counting ? "give MIN and MAX" : "too many arguments");
      goto out;
    }
  if (counting && (!parse_bound (argv[3], &range.min, &range.min_exclusive, &error) ||
                   !parse_bound (argv[4], &range.max, &range.max_exclusive, &error)))
    goto failed;
  if ((zset = open_zset (cli, &args, argv[1], argv[2], &error)) == NULL ||
      !(counting ? hbase_zset_count (zset, &range, &n, NULL, &error) : hbase_zset_card (zset, &n, NULL, &error)))
    goto failed;
  cli_print_integer (args.output.format, "count", (gint64) n);
  goto out;
failed:
  status = cli_fail (cli, command, error);
out:
  cli_struct_args_clear (&args);
  return status;
}

static int
run_zrank (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  gboolean reverse = FALSE, with_score = FALSE;
  const GOptionEntry entries[] = {
    STRUCT_ENTRIES (&args),
    { "reverse", 'r', 0, G_OPTION_ARG_NONE, &reverse, "Rank from the highest score (ZREVRANK)", NULL },
    { "with-score", 0, 0, G_OPTION_ARG_NONE, &with_score, "Print the score after the rank", NULL },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GBytes) member = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  gboolean found = FALSE;
  guint64 rank = 0;
  double score = 0;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 3, 3)) == CLI_EXIT_OK)
    {
      if ((member = cli_unescape (argv[3], "member", &error)) == NULL ||
          (zset = open_zset (cli, &args, argv[1], argv[2], &error)) == NULL ||
          !hbase_zset_rank (zset, member, reverse, &found, &rank, &score, NULL, &error))
        status = cli_fail (cli, command, error);
      else if (!found)
        {
          g_printerr ("hbase-glib zrank: %s is not a member\n", argv[3]);
          status = CLI_EXIT_NOT_FOUND;
        }
      else
        {
          gboolean json = args.output.format == CLI_FORMAT_JSON;

          g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, json ? "{\"rank\":" : "", rank);
          if (with_score)
            {
              g_string_append (text, json ? ",\"score\":" : "\t");
              cli_append_score (text, score, json);
            }
          printf ("%s%s\n", text->str, json ? "}" : "");
        }
    }
  cli_struct_args_clear (&args);
  return status;
}

static int
print_zset_iter (Cli *cli, const CliCommand *command, StructArgs *args, HBaseZSetIter *iter)
{
  g_autoptr(GError) error = NULL;

  for (;;)
    {
      g_autoptr(GBytes) member = NULL;
      double score = 0;

      if (!hbase_zset_iter_next (iter, &member, &score, NULL, &error))
        return cli_fail (cli, command, error);
      if (member == NULL)
        return CLI_EXIT_OK;
      cli_print_member (args, member, args->with_scores ? &score : NULL);
    }
}

static int
run_zrange (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  gboolean reverse = FALSE;
  gint64 offset = 0, count = -1;
  gboolean by_score = strcmp (command->name, "zrangebyscore") == 0;
  const GOptionEntry entries[] = {
    STRUCT_ENTRIES (&args),
    { "reverse", 'r', 0, G_OPTION_ARG_NONE, &reverse, "From the highest score down", NULL },
    { "with-scores", 's', 0, G_OPTION_ARG_NONE, &args.with_scores, "Print each member's score", NULL },
    { "offset", 0, 0, G_OPTION_ARG_INT64, &offset, "zrangebyscore: skip N entries of the range", "N" },
    { "count", 0, 0, G_OPTION_ARG_INT64, &count, "zrangebyscore: at most N entries", "N" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(HBaseZSetIter) iter = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 4, 4)) != CLI_EXIT_OK)
    goto out;
  if (!by_score && (offset != 0 || count != -1))
    {
      status = cli_usage (command, "--offset and --count go with zrangebyscore");
      goto out;
    }
  if (by_score)
    {
      HBaseScoreRange range = HBASE_SCORE_RANGE_INIT;
      /* ZREVRANGEBYSCORE takes MAX first; here MIN MAX always */
      if (!parse_bound (argv[3], &range.min, &range.min_exclusive, &error) ||
          !parse_bound (argv[4], &range.max, &range.max_exclusive, &error) ||
          (zset = open_zset (cli, &args, argv[1], argv[2], &error)) == NULL)
        goto failed;
      iter = hbase_zset_range_by_score (zset, &range, reverse, offset, count);
    }
  else
    {
      gint64 start, stop;

      if (!cli_parse_int64 (argv[3], "start", &start, &error) || !cli_parse_int64 (argv[4], "stop", &stop, &error) ||
          (zset = open_zset (cli, &args, argv[1], argv[2], &error)) == NULL)
        goto failed;
      iter = hbase_zset_range_by_rank (zset, start, stop, reverse);
    }
  status = print_zset_iter (cli, command, &args, iter);
  goto out;
failed:
  status = cli_fail (cli, command, error);
out:
  cli_struct_args_clear (&args);
  return status;
}

static int
run_zpop (Cli *cli, const CliCommand *command, int argc, char **argv)
{
  StructArgs args = { 0 };
  const GOptionEntry entries[] = { STRUCT_ENTRIES (&args), G_OPTION_ENTRY_NULL };
  g_autoptr(HBaseZSet) zset = NULL;
  g_autoptr(GPtrArray) entries_popped = NULL;
  g_autoptr(GError) error = NULL;
  gint64 count = 1;
  int status;

  if ((status = cli_parse_struct (cli, command, entries, &argc, &argv, &args, 2, 3)) != CLI_EXIT_OK)
    goto out;
  if (argc == 4 && (!cli_parse_int64 (argv[3], "count", &count, &error) || count < 0))
    {
      status = error != NULL ? cli_fail (cli, command, error) : cli_usage (command, "COUNT must not be negative");
      goto out;
    }
  if ((zset = open_zset (cli, &args, argv[1], argv[2], &error)) == NULL ||
      !hbase_zset_pop (zset, strcmp (command->name, "zpopmax") == 0, (guint64) count, &entries_popped, NULL, &error))
    {
      status = cli_fail (cli, command, error);
      goto out;
    }
  for (guint i = 0; i < entries_popped->len; i++)
    {
      HBaseZSetEntry *entry = entries_popped->pdata[i];

      cli_print_member (&args, entry->member, &entry->score);
    }
out:
  cli_struct_args_clear (&args);
  return status;
}

const CliCommand cli_zset_commands[] = {
  { "zadd", ZSETS_GROUP, "TABLE KEY SCORE MEMBER [SCORE MEMBER...]",
    "Add members with scores, or change their scores; print how many were new.",
    "Scores are decimal numbers, inf or -inf.  The family (\"z\" by default,\n"
    "--family) must exist.", run_zadd },
  { "zincrby", ZSETS_GROUP, "TABLE KEY INCREMENT MEMBER", "Add to a member's score; print the new score.", NULL,
    run_zincrby },
  { "zrem", ZSETS_GROUP, "TABLE KEY MEMBER...", "Remove members; print how many were there.", NULL, run_zrem },
  { "zscore", ZSETS_GROUP, "TABLE KEY MEMBER", "Print a member's score (exit status 3 when it is not a member).",
    NULL, run_zscore },
  { "zcard", ZSETS_GROUP, "TABLE KEY", "Print the number of members.", NULL, run_zcard },
  { "zcount", ZSETS_GROUP, "TABLE KEY MIN MAX", "Print the number of members with a score in [MIN, MAX].",
    "A bound written \"(1.5\" excludes 1.5; -inf and +inf are the infinities.", run_zcard },
  { "zrank", ZSETS_GROUP, "TABLE KEY MEMBER", "Print a member's 0-based rank by score (exit status 3 when absent).",
    NULL, run_zrank },
  { "zrange", ZSETS_GROUP, "TABLE KEY START STOP", "Print the members ranked START to STOP (inclusive).",
    "Ranks count from 0; negative ranks count from the end (-1 is the last), as in\n"
    "Redis: \"zrange T K 0 -1\" prints every member, lowest score first.", run_zrange },
  { "zrangebyscore", ZSETS_GROUP, "TABLE KEY MIN MAX", "Print the members with a score in [MIN, MAX], by score.",
    "Bounds as for zcount; with --reverse from MAX down to MIN (still written MIN MAX).\n"
    "Runs on the server: the cost follows --offset and what is printed.", run_zrange },
  { "zpopmin", ZSETS_GROUP, "TABLE KEY [COUNT]", "Remove and print the COUNT (default 1) lowest-scored members.",
    NULL, run_zpop },
  { "zpopmax", ZSETS_GROUP, "TABLE KEY [COUNT]", "Remove and print the COUNT (default 1) highest-scored members.",
    NULL, run_zpop },
  { NULL, NULL, NULL, NULL, NULL, NULL }
};
