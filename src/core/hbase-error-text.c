/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-error-text.c: the one-line summary of an exception's text as the
 * gateway sends it (the Java exception's message, often followed by its
 * stack trace, and for a missing column family the whole table
 * description). */
#include "config.h"

#include <string.h>

#include "hbase-error-private.h"

/* the longest summary, in bytes, before "…" */
#define SUMMARY_MAX_BYTES 400
/* a braced text at least this long is a description, replaced by "{…}" */
#define LONG_BRACES 32
#define ELLIPSIS "\xe2\x80\xa6"

static gboolean
is_ident_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$';
}

static gboolean
names_exception (const char *name, gsize len)
{
  return g_ascii_isupper (name[0]) &&
         ((len > 9 && memcmp (name + len - 9, "Exception", 9) == 0) ||
          (len > 5 && memcmp (name + len - 5, "Error", 5) == 0));
}

/* At @p, a qualified Java class name of an exception or error
 * (java.io.IOException, org.apache.hadoop.hbase.TableNotFoundException):
 * returns its length and points @short_name at the class's own name;
 * 0 elsewhere. */
static gsize
qualified_exception_at (const char *p, const char **short_name, gsize *short_len)
{
  const char *q = p;
  guint dots = 0;

  while (TRUE)
    {
      const char *segment = q;

      while (is_ident_char (*q))
        q++;
      if (q == segment)
        return 0;
      if (*q == '.' && is_ident_char (q[1]))
        {
          /* packages are lower case */
          if (!g_ascii_islower (*segment))
            return 0;
          dots++;
          q++;
          continue;
        }
      if (dots == 0 || !names_exception (segment, (gsize) (q - segment)))
        return 0;
      *short_name = segment;
      *short_len = (gsize) (q - segment);
      return (gsize) (q - p);
    }
}

/* At @p, a '{': the length of the braced text and of any ", {...}"
 * groups that follow it (HBase's table description is two or more);
 * the rest of the line when a brace is not closed. */
static gsize
braced_run_at (const char *p, gsize left)
{
  gsize i = 0;

  while (i < left && p[i] == '{')
    {
      guint depth = 0;

      for (; i < left; i++)
        {
          if (p[i] == '{')
            depth++;
          else if (p[i] == '}' && --depth == 0)
            break;
        }
      if (i >= left)
        return left;
      i++;   /* the closing brace */
      if (i + 2 < left && p[i] == ',' && p[i + 1] == ' ' && p[i + 2] == '{')
        i += 2;
      else
        break;
    }
  return i;
}

static gboolean
starts_with_exception (const char *text)
{
  gsize len = 0;

  while (is_ident_char (text[len]))
    len++;
  return len > 0 && (text[len] == '\0' || text[len] == ':' || text[len] == ' ') &&
         names_exception (text, len);
}

char *
_hbase_error_summarize (const char *server_text, const char *fallback_class)
{
  const char *text = server_text != NULL ? server_text : "";
  gsize len, i = 0;
  g_autoptr(GString) out = g_string_new (NULL);

  /* the first line, trimmed */
  while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n')
    text++;
  len = strcspn (text, "\r\n");
  while (len > 0 && (text[len - 1] == ' ' || text[len - 1] == '\t'))
    len--;

  while (i < len)
    {
      const char *short_name = NULL;
      gsize short_len = 0, span;

      if ((i == 0 || (!is_ident_char (text[i - 1]) && text[i - 1] != '.')) &&
          g_ascii_islower (text[i]) &&
          (span = qualified_exception_at (text + i, &short_name, &short_len)) > 0 &&
          i + span <= len)
        {
          g_string_append_len (out, short_name, (gssize) short_len);
          i += span;
        }
      else if (text[i] == '{' && (span = braced_run_at (text + i, len - i)) >= LONG_BRACES)
        {
          g_string_append (out, "{" ELLIPSIS "}");
          i += span;
        }
      else
        g_string_append_c (out, text[i++]);
    }

  if (out->len == 0)
    g_string_append (out, fallback_class != NULL ? fallback_class : "(no message)");
  else if (fallback_class != NULL && !starts_with_exception (out->str))
    g_string_prepend (g_string_prepend (out, ": "), fallback_class);

  if (out->len > SUMMARY_MAX_BYTES)
    {
      gsize cut = SUMMARY_MAX_BYTES;

      /* not inside a UTF-8 sequence */
      while (cut > 0 && ((guchar) out->str[cut] & 0xC0) == 0x80)
        cut--;
      g_string_truncate (out, cut);
      g_string_append (out, ELLIPSIS);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
_hbase_error_printable (const char *text, gsize length)
{
  GString *clean = g_string_new (NULL);

  for (gsize i = 0; i < length && clean->len < HBASE_ERROR_PRINTABLE_MAX; i++)
    g_string_append_c (clean, g_ascii_isprint (text[i]) ? text[i] : ' ');
  g_strstrip (clean->str);
  if (clean->str[0] == '\0')
    {
      g_string_free (clean, TRUE);
      return NULL;
    }
  return g_string_free (clean, FALSE);
}
