/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-redis-password-file.c: the reader of the Redis password file
 * (_hbase_index_read_password_file(), src/index/hbase-index-redis.c) on
 * any file contents.
 *
 * Input: the file's bytes, written to a private temporary file.
 *
 * Checked: the file is read or refused with an error; a password read
 * is the file's first line exactly: not empty, without NUL, \n or the
 * \r of a \r\n line end, a prefix of the file. */
#include "config.h"

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "hbase-index-private.h"
#include "fuzz-support.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static char *path;
  g_autofree char *password = NULL;
  GError *error = NULL;
  gsize len;

  fuzz_init ();
  if (path == NULL)
    {
      int fd = g_file_open_tmp ("fuzz-redis-password-XXXXXX", &path, NULL);

      fuzz_assert (fd >= 0, "no temporary file");
      close (fd);
    }
  fuzz_assert (g_file_set_contents (path, (const char *) data, (gssize) size, NULL),
               "cannot write the temporary file");
  g_chmod (path, 0600);
  password = _hbase_index_read_password_file (path, &error);
  fuzz_require_utf8_errors = FALSE;   /* the file's name is in the message, as the system gave it */
  fuzz_check_outcome ("read_password_file", password != NULL, &error);
  if (password == NULL)
    return 0;
  len = strlen (password);
  fuzz_assert (len > 0 && len <= size, "an empty or overlong password");
  fuzz_assert (memcmp (password, data, len) == 0, "the password is not the file's beginning");
  fuzz_assert (strchr (password, '\n') == NULL, "a line end in the password");
  fuzz_assert (len == size || data[len] == '\n' || (data[len] == '\r' && len + 1 < size && data[len + 1] == '\n'),
               "the password is not the whole first line");
  return 0;
}
