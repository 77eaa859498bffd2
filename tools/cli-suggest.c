/* SPDX-License-Identifier: Apache-2.0 */
/* cli-suggest.c: the command a mistyped command name was probably meant
 * to be, by edit distance. */
#include "config.h"

#include <string.h>

#include "cli.h"

/* The optimal string alignment distance (Levenshtein with transpositions
 * of neighbours) between @a and @b, stopping early at @limit + 1. */
static gsize
edit_distance (const char *a, const char *b, gsize limit)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree gsize *rows = NULL;
  gsize *before, *previous, *current;

  if ((la > lb ? la - lb : lb - la) > limit)
    return limit + 1;
  rows = g_new0 (gsize, 3 * (lb + 1));
  before = rows;
  previous = rows + (lb + 1);
  current = rows + 2 * (lb + 1);
  for (gsize j = 0; j <= lb; j++)
    previous[j] = j;
  for (gsize i = 1; i <= la; i++)
    {
      current[0] = i;
      for (gsize j = 1; j <= lb; j++)
        {
          gsize cost = a[i - 1] == b[j - 1] ? 0 : 1;
          gsize best = MIN (previous[j] + 1, current[j - 1] + 1);

          best = MIN (best, previous[j - 1] + cost);
          if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
            best = MIN (best, before[j - 2] + 1);
          current[j] = best;
        }
      {
        gsize *spare = before;

        before = previous;
        previous = current;
        current = spare;
      }
    }
  return previous[lb];
}

const char *
cli_suggest_command (const char *typed, const char *const *names)
{
  const char *best = NULL;
  gsize best_distance = G_MAXSIZE, typed_length = strlen (typed);

  if (typed_length == 0)
    return NULL;
  for (const char *const *n = names; *n != NULL; n++)
    {
      gsize distance = edit_distance (typed, *n, 2);

      /* "sca" for "scan": a prefix of two letters or more beats any typo,
       * unless it starts several commands */
      if (typed_length >= 2 && g_str_has_prefix (*n, typed))
        distance = 0;
      /* two edits in a two-letter word is another word */
      if (distance > 2 || (distance > 0 && distance >= typed_length))
        continue;
      if (distance < best_distance)
        {
          best = *n;
          best_distance = distance;
        }
      else if (distance == 0 && best_distance == 0)
        best = NULL; /* the prefix of several commands: no guess */
    }
  return best;
}
