/* SPDX-License-Identifier: Apache-2.0 */
/* cli-structures.h: what the hbase-glib commands for sets (cli-set.c) and
 * sorted sets (cli-zset.c) share: their options, their arguments and how
 * they print members (cli-structures.c). */
#ifndef HBASE_GLIB_CLI_STRUCTURES_H
#define HBASE_GLIB_CLI_STRUCTURES_H

#include "cli.h"

G_BEGIN_DECLS

/* Options every set or sorted-set command takes. */
typedef struct {
  char *family;
  int shards;
  CliOutput output;
  gboolean with_scores;
} StructArgs;

#define STRUCT_ENTRIES(a) \
  { "family", 'F', 0, G_OPTION_ARG_STRING, &(a)->family, "The column family holding the structure", "FAMILY" }, \
  { "format", 'o', 0, G_OPTION_ARG_STRING, &(a)->output.format_name, \
    "Output format: tsv (default) or json (one JSON value per line)", "FORMAT" }, \
  { "ascii", 0, 0, G_OPTION_ARG_NONE, &(a)->output.ascii, \
    "TSV: escape every byte outside printable ASCII, UTF-8 text too", NULL }, \
  { "base64", 0, 0, G_OPTION_ARG_NONE, &(a)->output.base64, "JSON: members as base64 strings", NULL }

void          cli_struct_args_clear (StructArgs        *args);
/* The members given as arguments @args[0..@n), unescaped. */
GPtrArray    *cli_members_from      (char             **args,
                                     int                n,
                                     GError           **error);
/* A score as Redis writes one ("inf" and "-inf" for the infinities, quoted
 * in JSON). */
void          cli_append_score      (GString           *out,
                                     double             score,
                                     gboolean           json);
void          cli_print_member      (const StructArgs  *args,
                                     GBytes            *member,
                                     const double      *score);
int           cli_parse_struct      (Cli               *cli,
                                     const CliCommand  *command,
                                     const GOptionEntry *entries,
                                     int               *argc,
                                     char            ***argv,
                                     StructArgs        *args,
                                     int                min_args,
                                     int                max_args);

G_END_DECLS

#endif /* HBASE_GLIB_CLI_STRUCTURES_H */
