/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-password.c: the Redis password file of the index's
 * options (its first line), read apart from the connections so that it
 * can be fuzzed on its own. */
#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "hbase-index-private.h"

/* The first line of @path, without its line end: the password.  A file
 * that group or others may read is reported (g_message: a test run with
 * fatal warnings must not abort on a deployment's file modes). */
char *
_hbase_index_read_password_file (const char *path, GError **error)
{
  g_autofree char *display = g_filename_display_name (path);
  char *contents = NULL;
  char *password = NULL;
  gsize len = 0, line;
  GError *local = NULL;
  GStatBuf st;

  if (!g_file_get_contents (path, &contents, &len, &local))
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                   "cannot read the Redis password file: %s", local->message);
      g_error_free (local);
      return NULL;
    }
  /* the first line ends at its \n, or its \r\n */
  {
    const char *newline = memchr (contents, '\n', len);

    line = newline != NULL ? (gsize) (newline - contents) : len;
    if (newline != NULL && line > 0 && contents[line - 1] == '\r')
      line--;
  }
  if (memchr (contents, '\0', line) != NULL)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                 "the Redis password file %s holds a NUL byte", display);
  else if (line == 0)
    g_set_error (error, HBASE_ERROR, HBASE_ERROR_ILLEGAL_ARGUMENT,
                 "the Redis password file %s is empty (its first line is the password)", display);
  else
    password = g_strndup (contents, line);
  explicit_bzero (contents, len);
  g_free (contents);
  if (password != NULL && g_stat (path, &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH)) != 0)
    g_message ("the Redis password file %s is readable by %s (mode %03o): "
               "make it readable by its owner only (chmod 600)", display,
               (st.st_mode & S_IROTH) != 0 ? "others" : "its group", (unsigned) (st.st_mode & 0777));
  return password;
}
