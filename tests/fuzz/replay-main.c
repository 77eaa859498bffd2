/* SPDX-License-Identifier: Apache-2.0 */
/* replay-main.c: runs a fuzz harness without libFuzzer, on every file of
 * its corpus (FUZZ_CORPUS_ROOT/NAME for the program replay-NAME, or the
 * directories and files given as arguments), one TAP test per file.  `make check` replays every committed
 * corpus this way, so that each input that once found a bug stays a
 * regression test.  A file that crashes the harness crashes this program:
 * the TAP driver reports the missing results. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "fuzz-support.h"

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static void
collect (const char *path, GPtrArray *files)
{
  GDir *dir;
  const char *name;
  GPtrArray *names;

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_ptr_array_add (files, g_strdup (path));
      return;
    }
  if ((dir = g_dir_open (path, 0, NULL)) == NULL)
    return;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (name[0] != '.')
      g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_dir_close (dir);
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (files, g_strdup (g_ptr_array_index (names, i)));
  g_ptr_array_unref (names);
}

/* The committed corpus of the harness this program replays: the program
 * is named replay-NAME (lt-replay-NAME when libtool runs it), its corpus
 * is FUZZ_CORPUS_ROOT/NAME.  One build rule serves every harness. */
static char *
default_corpus (const char *argv0)
{
  g_autofree char *base = g_path_get_basename (argv0);
  const char *name = base;

  if (g_str_has_prefix (name, "lt-"))
    name += 3;
  if (g_str_has_prefix (name, "replay-"))
    name += 7;
  return g_build_filename (FUZZ_CORPUS_ROOT, name, NULL);
}

int
main (int argc, char **argv)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *corpus = default_corpus (argv[0]);
  guint failed = 0;

  if (argc > 1)
    for (int i = 1; i < argc; i++)
      collect (argv[i], files);
  else
    collect (corpus, files);

  printf ("1..%u\n", MAX (files->len, 1));
  if (files->len == 0)
    {
      printf ("not ok 1 - no input files in %s\n", argc > 1 ? argv[1] : corpus);
      return 1;
    }
  for (guint i = 0; i < files->len; i++)
    {
      const char *file = g_ptr_array_index (files, i);
      g_autofree char *base = g_path_get_basename (file);
      gchar *contents = NULL;
      gsize length = 0;
      GError *error = NULL;

      if (!g_file_get_contents (file, &contents, &length, &error))
        {
          printf ("not ok %u - %s: %s\n", i + 1, base, error->message);
          g_error_free (error);
          failed++;
          continue;
        }
      fflush (stdout);
      LLVMFuzzerTestOneInput ((const uint8_t *) contents, length);
      g_free (contents);
      printf ("ok %u - %s\n", i + 1, base);
    }
  g_ptr_array_unref (files);
  return failed > 0;
}
