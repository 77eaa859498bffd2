/* SPDX-License-Identifier: Apache-2.0 */
/* cli-structures.c: what the hbase-glib commands for sets and sorted sets
 * share: their options, member arguments and the printing of members
 * (with their scores), in TSV or JSON. */
#include "config.h"

#include <math.h>

#include "cli-structures.h"

void
cli_struct_args_clear (StructArgs *args)
{
  g_free (args->family);
  g_free (args->output.format_name);
}

GPtrArray *
cli_members_from (char **args, int n, GError **error)
{
  g_autoptr(GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);

  for (int i = 0; i < n; i++)
    {
      GBytes *member = cli_unescape (args[i], "member", error);

      if (member == NULL)
        return NULL;
      g_ptr_array_add (members, member);
    }
  return g_steal_pointer (&members);
}


/* A score as Redis writes one: the shortest text that reads back the
 * same, "inf" and "-inf" for the infinities. */
void
cli_append_score (GString *out, double score, gboolean json)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (isinf (score))
    g_string_append_printf (out, json ? "\"%s\"" : "%s", score > 0 ? "inf" : "-inf");
  else
    g_string_append (out, g_ascii_dtostr (text, sizeof text, score));
}

/* One member (with its score) on a line of stdout. */
void
cli_print_member (const StructArgs *args, GBytes *member, const double *score)
{
  g_autoptr(GString) line = g_string_new (NULL);
  gsize length;
  const guint8 *data = g_bytes_get_data (member, &length);

  if (args->output.format == CLI_FORMAT_JSON)
    {
      if (score != NULL)
        g_string_append (line, "{\"member\":");
      cli_json_bytes (line, data, length, args->output.base64);
      if (score != NULL)
        {
          g_string_append (line, ",\"score\":");
          cli_append_score (line, *score, TRUE);
          g_string_append_c (line, '}');
        }
    }
  else
    {
      cli_escape (line, data, length, args->output.ascii);
      if (score != NULL)
        {
          g_string_append_c (line, '\t');
          cli_append_score (line, *score, FALSE);
        }
    }
  g_string_append_c (line, '\n');
  fwrite (line->str, 1, line->len, stdout);
}

/* Parses the command line: @min_args arguments at least (TABLE, KEY, ...),
 * @max_args at most (-1: any). */
int
cli_parse_struct (Cli *cli, const CliCommand *command, const GOptionEntry *entries, int *argc, char ***argv,
                  StructArgs *args, int min_args, int max_args)
{
  g_autoptr(GError) error = NULL;
  int status;

  if ((status = cli_parse (cli, command, entries, argc, argv)) != CLI_EXIT_OK ||
      (status = cli_expect_args (command, *argc, min_args, max_args)) != CLI_EXIT_OK)
    return status;
  if (!cli_output_check (&args->output, &error))
    return cli_fail (cli, command, error);
  return CLI_EXIT_OK;
}
