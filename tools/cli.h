/* SPDX-License-Identifier: Apache-2.0 */
/* cli.h: what the parts of the hbase-glib command-line tool share.
 *
 * The tool is one table of subcommands (tools/hbase-glib.c); each
 * subcommand parses its own options with cli_parse(), which adds the
 * connection options, so they may come before or after the command name.
 * Every failure ends as an exit status (CliExit) and a plain message on
 * stderr; stdout carries only results. */
#ifndef HBASE_GLIB_CLI_H
#define HBASE_GLIB_CLI_H

#include <stdio.h>

#include <hbase-glib/hbase-glib-index.h>

G_BEGIN_DECLS

/* Exit statuses, documented in tools/hbase-glib.1 and docs/cli.md. */
typedef enum {
  CLI_EXIT_OK = 0,            /* done */
  CLI_EXIT_FAILED = 1,        /* HBase or the gateway refused or failed the operation */
  CLI_EXIT_USAGE = 2,         /* bad command line or invalid input */
  CLI_EXIT_NOT_FOUND = 3,     /* table, namespace, row or member does not exist */
  CLI_EXIT_CONNECTION = 4,    /* the gateway could not be reached or did not answer in time */
  CLI_EXIT_NOT_APPLIED = 5,   /* a condition was not met (check-and-put), a check found differences */
} CliExit;

typedef struct _Cli Cli;
typedef struct _CliCommand CliCommand;

typedef int (*CliRunFunc) (Cli *cli, const CliCommand *command, int argc, char **argv);

/* One subcommand.  @params and @summary make the usage line,
 * @description the text after the options in --help. */
struct _CliCommand {
  const char *name;
  const char *group;
  const char *params;
  const char *summary;
  const char *description;
  CliRunFunc run;
};

/* The connection options, given before the command, after it, or both
 * (after wins); a NULL/negative field is not given. */
typedef struct {
  char *gateways;
  char *protocol;
  char *transport;
  char *config_file;
  int timeout_ms;
  char *tls_ca_file;
  gboolean tls_no_verify_hostname;
  gboolean allow_insecure_http;
  gboolean kerberos;
  char *kerberos_principal;
  char *kerberos_keytab;
  char *kerberos_ccache;
  char *kerberos_qop;
  char *kerberos_service_principal;
  char *kerberos_http_principal;
  gboolean kerberos_no_canonicalize_host;
  char *proxy_user;
  gboolean verbose;
  char *redis;
  char *redis_socket;
  int redis_db;
  char *redis_user;
  char *redis_password_file;
  char *redis_password_refused;   /* --redis-password: refused, never shown */
  char *index_meta_table;
} CliConnectionOptions;

struct _Cli {
  CliConnectionOptions global;
  CliConnectionOptions local;
  const CliCommand *command;
  HBaseClient *client;
  HBaseIndex *index;          /* the index writes go through, if any */
  char *redis_host;
  gboolean quiet;
  gboolean verbose;           /* --verbose, before or after the command: cli_fail() says all */
  char *table_name;           /* the table the command works on, for cli_fail() */
  gboolean list_options;      /* --list-commands: cli_parse() prints the options and stops */
  gboolean options_listed;    /* ... and says it did */
};

/* --- command table (hbase-glib.c and the cli-*.c files) --- */
extern const CliCommand cli_data_commands[];
extern const CliCommand cli_admin_commands[];
extern const CliCommand cli_schema_commands[];
extern const CliCommand cli_set_commands[];
extern const CliCommand cli_zset_commands[];
extern const CliCommand cli_index_commands[];

/* the counter commands (cli-counter.c), in cli_data_commands */
int cli_run_incr    (Cli *cli, const CliCommand *command, int argc, char **argv);
int cli_run_counter (Cli *cli, const CliCommand *command, int argc, char **argv);

/* --- options (cli-options.c) ---------------------------------------------- */
int           cli_parse            (Cli               *cli,
                                    const CliCommand  *command,
                                    const GOptionEntry *entries,
                                    int               *argc,
                                    char            ***argv);
void          cli_add_connection_entries (GOptionContext       *context,
                                          CliConnectionOptions *options);
/* The help of the connection options alone (--help-connection). */
char         *cli_connection_help  (void);
/* The command of @names nearest to the mistyped @typed, or NULL
 * (cli-suggest.c). */
const char   *cli_suggest_command  (const char        *typed,
                                    const char *const *names);
void          cli_connection_options_clear (CliConnectionOptions *options);
/* " --name[=] -c[=]..." for each visible entry ('=': takes a value), for
 * the bash completion (tools/bash-completion.sh). */
void          cli_print_option_names (FILE               *out,
                                      const GOptionEntry *entries);
void          cli_print_connection_option_names (FILE *out);
void          cli_clear            (Cli              *cli);

/* --no-index, for the commands that write */
#define CLI_NO_INDEX_ENTRY(flag) \
  { "no-index", 0, 0, G_OPTION_ARG_NONE, (flag), \
    "Write to the table directly, not through its secondary index (which then lags)", NULL }
int           cli_usage            (const CliCommand *command,
                                    const char       *format,
                                    ...) G_GNUC_PRINTF (2, 3);
int           cli_expect_args      (const CliCommand *command,
                                    int               argc,
                                    int               min,
                                    int               max);

/* --- connection and failures (cli-session.c) -------------------------------- */
int           cli_fail             (Cli              *cli,
                                    const CliCommand *command,
                                    const GError     *error);
int           cli_exit_for_error   (const GError     *error);

HBaseClient  *cli_client           (Cli              *cli,
                                    GError          **error);
HBaseTable   *cli_table            (Cli              *cli,
                                    const char       *name,
                                    GError          **error);

gboolean      cli_index_options    (Cli               *cli,
                                    HBaseIndexOptions *options,
                                    GError           **error);
const char   *cli_index_meta_table (Cli              *cli);
HBaseTable   *cli_write_table      (Cli              *cli,
                                    const char       *name,
                                    gboolean          no_index,
                                    GError          **error);
HBaseTable   *cli_existing_table   (Cli              *cli,
                                    const char       *name,
                                    gboolean          no_index,
                                    GError          **error);

/* --- bytes in and out (cli-output.c; the put line in cli-data.c, a column in
 * cli-options.c) ------------------------------------------------------------------ */
GBytes       *cli_unescape         (const char       *text,
                                    const char       *what,
                                    GError          **error);
char         *cli_unescape_string  (const char       *text,
                                    const char       *what,
                                    GError          **error);
void          cli_escape           (GString          *out,
                                    const guint8     *data,
                                    gsize             length,
                                    gboolean          ascii_only);
void          cli_escape_bytes     (GString          *out,
                                    GBytes           *bytes,
                                    gboolean          ascii_only);
void          cli_json_bytes       (GString          *out,
                                    const guint8     *data,
                                    gsize             length,
                                    gboolean          base64);
void          cli_json_string      (GString          *out,
                                    const char       *text);
/* One line of `put TABLE -` input (tools/cli-data.c). */
gboolean      cli_parse_put_line   (char             *line,
                                    gboolean          int64,
                                    GBytes          **key,
                                    GBytes          **family,
                                    GBytes          **qualifier,
                                    gint64           *timestamp,
                                    GBytes          **value,
                                    GError          **error);
gboolean      cli_parse_column     (const char       *text,
                                    char            **family,
                                    char            **qualifier,
                                    GError          **error);

/* --- output of rows (cli-output.c) ----------------------------------------------- */
typedef enum {
  CLI_FORMAT_TSV,
  CLI_FORMAT_JSON,
} CliFormat;

typedef struct {
  char *format_name;
  gboolean timestamps;
  gboolean ascii;
  gboolean base64;
  gboolean keys_only;
  CliFormat format;
} CliOutput;

/* The output options, inside a GOptionEntry array. */
#define CLI_OUTPUT_ENTRIES(out) \
  { "format", 'o', 0, G_OPTION_ARG_STRING, &(out)->format_name, \
    "Output format: tsv (default) or json (one JSON object per row and line)", "FORMAT" }, \
  { "timestamps", 't', 0, G_OPTION_ARG_NONE, &(out)->timestamps, \
    "Show each cell's timestamp (TSV: a column before the value)", NULL }, \
  { "ascii", 0, 0, G_OPTION_ARG_NONE, &(out)->ascii, \
    "TSV: escape every byte outside printable ASCII, UTF-8 text too", NULL }, \
  { "base64", 0, 0, G_OPTION_ARG_NONE, &(out)->base64, \
    "JSON: write every key, column and value as a base64 string", NULL }
/* Only -o, for the commands that print something other than rows. */
#define CLI_FORMAT_ENTRY(out) \
  { "format", 'o', 0, G_OPTION_ARG_STRING, &(out)->format_name, \
    "Output format: tsv (default, also called text) or json", "FORMAT" }
/* -o for a format name kept apart (g_autofree), read by cli_format_parse() */
#define CLI_FORMAT_NAME_ENTRY(name) \
  { "format", 'o', 0, G_OPTION_ARG_STRING, (name), \
    "Output format: tsv (default, also called text) or json", "FORMAT" }
/* Sets @format from @name (NULL: tsv); says what is wrong otherwise. */
int           cli_format_parse     (Cli              *cli,
                                    const CliCommand *command,
                                    const char       *name,
                                    CliFormat        *format);
/* @value on a line, or {"@key":@value} */
void          cli_print_integer    (CliFormat         format,
                                    const char       *key,
                                    gint64            value);
gboolean      cli_output_check     (CliOutput        *output,
                                    GError          **error);
void          cli_output_row       (const CliOutput  *output,
                                    HBaseRow         *row,
                                    GString          *buffer);

/* --- progress on stderr (cli-output.c) ------------------------------------------------ */
typedef struct {
  const char *unit;
  guint64 total;
  gint64 started;
  gint64 shown;
  gboolean enabled;
  gboolean drawn;
} CliProgress;

void          cli_progress_start   (CliProgress      *progress,
                                    const char       *unit,
                                    guint64           total,
                                    gboolean          force);
void          cli_progress_update  (CliProgress      *progress,
                                    guint64           done);
void          cli_progress_finish  (CliProgress      *progress);

/* --- numbers and confirmation (cli-options.c) ------------------------------------ */
gboolean      cli_parse_int64      (const char       *text,
                                    const char       *what,
                                    gint64           *value,
                                    GError          **error);
gboolean      cli_confirm          (const char       *question,
                                    gboolean          yes,
                                    GError          **error);

G_END_DECLS

#endif /* HBASE_GLIB_CLI_H */
