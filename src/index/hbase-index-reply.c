/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-index-reply.c: checked access to Redis replies (see
 * hbase-index-reply-private.h), and the limits put on hiredis's reader. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "hbase-index-private.h"
#include "hbase-index-reply-private.h"

/* --- the reader's limits --------------------------------------------------------------------- */

static redisReplyObjectFunctions default_functions;
static redisReplyObjectFunctions limited_functions;

static void *
limited_create_array (const redisReadTask *task, int elements)
{
  /* hiredis reads the count as a long long and passes it as an int: a
   * negative count is one that overflowed */
  if (elements < 0 || (guint) elements > HBASE_INDEX_REPLY_MAX_ELEMENTS)
    return NULL;   /* the reader's error: out of memory */
  return default_functions.createArray (task, elements);
}

void
_hbase_index_reader_limit (redisReader *reader)
{
  static gsize once;

  if (g_once_init_enter (&once))
    {
      default_functions = *reader->fn;
      limited_functions = default_functions;
      limited_functions.createArray = limited_create_array;
      g_once_init_leave (&once, 1);
    }
  if (reader->fn == NULL || reader->fn->createArray != limited_create_array)
    reader->fn = &limited_functions;
}

/* --- words ------------------------------------------------------------------------------------- */

#define TEXT_MAX 300

/* @data (@len bytes) printable: control bytes and invalid UTF-8 as '?',
 * at most TEXT_MAX bytes kept. */
char *
_hbase_index_sanitise (const char *data, gsize len)
{
  GString *out = g_string_sized_new (MIN (len, TEXT_MAX) + 4);
  const char *p = data, *end = data + len;

  while (p < end && out->len < TEXT_MAX)
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_c (out, '?');
          p++;
          continue;
        }
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
        g_string_append_c (out, '?');
      else
        g_string_append_unichar (out, c);
      p = g_utf8_next_char (p);
    }
  if (p < end)
    g_string_append (out, "...");
  return g_string_free (out, FALSE);
}

char *
_hbase_index_reply_text (const redisReply *reply)
{
  if (reply == NULL || reply->str == NULL)
    return g_strdup ("");
  return _hbase_index_sanitise (reply->str, reply->len);
}

static const char *
type_name (int type)
{
  switch (type)
    {
    case REDIS_REPLY_STRING:
      return "a bulk string";
    case REDIS_REPLY_ARRAY:
      return "an array";
    case REDIS_REPLY_INTEGER:
      return "an integer";
    case REDIS_REPLY_NIL:
      return "nil";
    case REDIS_REPLY_STATUS:
      return "a status reply";
    case REDIS_REPLY_ERROR:
      return "an error reply";
    default:
      return "a reply of an unknown type";
    }
}

char *
_hbase_index_reply_describe (const redisReply *reply)
{
  if (reply == NULL)
    return g_strdup ("no reply");
  if (reply->type == REDIS_REPLY_ARRAY)
    return g_strdup_printf ("an array of %zu element%s", reply->elements,
                            reply->elements == 1 ? "" : "s");
  if (reply->type == REDIS_REPLY_STATUS)
    {
      g_autofree char *text = _hbase_index_reply_text (reply);

      return g_strdup_printf ("the status reply \"%s\"", text);
    }
  if (reply->type == REDIS_REPLY_ERROR)
    {
      g_autofree char *text = _hbase_index_reply_text (reply);

      return g_strdup_printf ("the error reply \"%s\"", text);
    }
  return g_strdup (type_name (reply->type));
}

/* "a bulk string or nil" for a mask of types. */
static char *
types_text (guint types)
{
  static const int order[] = { REDIS_REPLY_STRING, REDIS_REPLY_INTEGER, REDIS_REPLY_STATUS,
                               REDIS_REPLY_ARRAY, REDIS_REPLY_NIL };
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    if (types & (1u << order[i]))
      {
        if (out->len > 0)
          g_string_append (out, " or ");
        g_string_append (out, type_name (order[i]));
      }
  return g_string_free (out, FALSE);
}

static void
set_unexpected (GError **error, const char *command, const char *expected, const char *got)
{
  g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS,
               "unexpected reply of Redis to %s: expected %s, got %s",
               command != NULL ? command : "a command", expected, got);
}

static void
unexpected (const redisReply *reply, const char *command, const char *expected, GError **error)
{
  g_autofree char *got = _hbase_index_reply_describe (reply);

  set_unexpected (error, command, expected, got);
}

/* --- checks ------------------------------------------------------------------------------------ */

gboolean
_hbase_index_reply_failed (const redisReply *reply, const char *command, GError **error)
{
  g_autofree char *text = NULL;
  g_autofree char *what = NULL;

  if (reply == NULL || reply->type != REDIS_REPLY_ERROR)
    return FALSE;
  text = _hbase_index_reply_text (reply);
  what = command != NULL ? g_strdup_printf ("Redis %s failed", command) : g_strdup ("Redis");
  if (g_str_has_prefix (text, "HBIDX_CHANGED"))
    {
      const char *said = g_strstrip (text + strlen ("HBIDX_CHANGED"));

      g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_CHANGED, "%s",
                   said[0] != '\0' ? said : "the index definitions changed since this client opened the index");
    }
  else if (g_str_has_prefix (text, "NOAUTH"))
    g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_AUTH_REQUIRED, "%s: %s", what, text);
  else
    g_set_error (error, HBASE_INDEX_ERROR, HBASE_INDEX_ERROR_REDIS, "%s: %s", what, text);
  return TRUE;
}

gboolean
_hbase_index_reply_ok (const redisReply *reply, const char *command, GError **error)
{
  if (reply == NULL)
    {
      unexpected (reply, command, "a reply", error);
      return FALSE;
    }
  if (_hbase_index_reply_failed (reply, command, error))
    return FALSE;
  for (size_t i = 0; reply->type == REDIS_REPLY_ARRAY && i < reply->elements; i++)
    if (reply->element[i] == NULL || reply->element[i]->type == REDIS_REPLY_ARRAY)
      {
        unexpected (reply, command, "a flat reply", error);
        return FALSE;
      }
  return TRUE;
}

gboolean
_hbase_index_reply_string (const redisReply *reply, const char *command, gboolean nil_ok,
                           gboolean status_too, const char **str, gsize *len, GError **error)
{
  if (reply != NULL && (reply->type == REDIS_REPLY_STRING ||
                        (status_too && reply->type == REDIS_REPLY_STATUS)) && reply->str != NULL)
    {
      if (str != NULL)
        *str = reply->str;
      if (len != NULL)
        *len = reply->len;
      return TRUE;
    }
  if (reply != NULL && nil_ok && reply->type == REDIS_REPLY_NIL)
    {
      if (str != NULL)
        *str = NULL;
      if (len != NULL)
        *len = 0;
      return TRUE;
    }
  if (!_hbase_index_reply_failed (reply, command, error))
    unexpected (reply, command,
                nil_ok ? (status_too ? "a bulk string, a status reply or nil" : "a bulk string or nil")
                       : (status_too ? "a bulk string or a status reply" : "a bulk string"),
                error);
  return FALSE;
}

gboolean
_hbase_index_reply_integer (const redisReply *reply, const char *command, long long *value,
                            GError **error)
{
  if (reply != NULL && reply->type == REDIS_REPLY_INTEGER)
    {
      if (value != NULL)
        *value = reply->integer;
      return TRUE;
    }
  if (!_hbase_index_reply_failed (reply, command, error))
    unexpected (reply, command, "an integer", error);
  return FALSE;
}

gboolean
_hbase_index_reply_status_ok (const redisReply *reply, const char *command, GError **error)
{
  if (reply != NULL && reply->type == REDIS_REPLY_STATUS && reply->str != NULL &&
      strcmp (reply->str, "OK") == 0)
    return TRUE;
  if (!_hbase_index_reply_failed (reply, command, error))
    unexpected (reply, command, "the status reply OK", error);
  return FALSE;
}

static char *
count_text (gsize min, gsize max)
{
  if (min == max)
    return g_strdup_printf ("%zu element%s", min, min == 1 ? "" : "s");
  if (max == G_MAXSIZE)
    return min == 0 ? g_strdup ("elements") : g_strdup_printf ("at least %zu elements", min);
  return g_strdup_printf ("%zu to %zu elements", min, max);
}

gboolean
_hbase_index_reply_array (const redisReply *reply, const char *command, gsize min, gsize max,
                          guint types, GError **error)
{
  g_autofree char *count = NULL;
  g_autofree char *kinds = NULL;
  g_autofree char *expected = NULL;

  if (reply != NULL && reply->type == REDIS_REPLY_ARRAY && reply->elements >= min &&
      reply->elements <= max && (reply->elements == 0 || reply->element != NULL))
    {
      size_t i;

      for (i = 0; i < reply->elements; i++)
        if (reply->element[i] == NULL || (types & (1u << reply->element[i]->type)) == 0 ||
            (reply->element[i]->type == REDIS_REPLY_STRING && reply->element[i]->str == NULL))
          break;
      if (i == reply->elements)
        return TRUE;
      {
        g_autofree char *got = _hbase_index_reply_describe (reply->element[i]);
        g_autofree char *what = NULL;

        count = count_text (min, max);
        kinds = types_text (types);
        expected = g_strdup_printf ("an array of %s (%s)", count, kinds);
        what = g_strdup_printf ("an array whose element %zu is %s", i + 1, got);
        set_unexpected (error, command, expected, what);
      }
      return FALSE;
    }
  if (_hbase_index_reply_failed (reply, command, error))
    return FALSE;
  count = count_text (min, max);
  kinds = types_text (types);
  expected = g_strdup_printf ("an array of %s (%s)", count, kinds);
  unexpected (reply, command, expected, error);
  return FALSE;
}

gboolean
_hbase_index_reply_pairs (const redisReply *reply, const char *command, gsize max_pairs,
                          GError **error)
{
  if (!_hbase_index_reply_array (reply, command, 0,
                                 max_pairs > G_MAXSIZE / 2 ? G_MAXSIZE : max_pairs * 2,
                                 REPLY_STRING, error))
    return FALSE;
  if (reply->elements % 2 != 0)
    {
      unexpected (reply, command, "an even number of elements (pairs)", error);
      return FALSE;
    }
  return TRUE;
}

/* @text is a decimal number without sign, of at most 20 digits. */
static gboolean
parse_decimal (const char *text, gsize len, guint64 *value)
{
  guint64 v = 0;

  if (len == 0 || len > 20)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] < '0' || text[i] > '9' || v > (G_MAXUINT64 - 9) / 10)
        return FALSE;
      v = v * 10 + (guint64) (text[i] - '0');
    }
  *value = v;
  return TRUE;
}

gboolean
_hbase_index_reply_scan (const redisReply *reply, const char *command, gboolean pairs,
                         gsize max_elements, char **cursor, GError **error)
{
  const redisReply *at;
  guint64 number;

  if (!_hbase_index_reply_array (reply, command, 2, 2, REPLY_STRING | REPLY_ARRAY, error))
    return FALSE;
  at = reply->element[0];
  if (at->type != REDIS_REPLY_STRING || !parse_decimal (at->str, at->len, &number))
    {
      g_autofree char *got = _hbase_index_reply_describe (at);

      set_unexpected (error, command, "a cursor (a decimal number) as first element", got);
      return FALSE;
    }
  if (pairs ? !_hbase_index_reply_pairs (reply->element[1], command, max_elements / 2, error)
            : !_hbase_index_reply_array (reply->element[1], command, 0, max_elements, REPLY_STRING,
                                         error))
    return FALSE;
  *cursor = g_strndup (at->str, at->len);
  return TRUE;
}

gboolean
_hbase_index_reply_time (const redisReply *reply, gint64 *ms, GError **error)
{
  guint64 seconds, micros;

  if (!_hbase_index_reply_array (reply, "TIME", 2, 2, REPLY_STRING, error))
    return FALSE;
  if (!parse_decimal (reply->element[0]->str, reply->element[0]->len, &seconds) ||
      !parse_decimal (reply->element[1]->str, reply->element[1]->len, &micros) ||
      seconds > G_MAXINT64 / 1000 - 1 || micros >= 1000000)
    {
      g_autofree char *first = _hbase_index_sanitise (reply->element[0]->str, reply->element[0]->len);
      g_autofree char *second = _hbase_index_sanitise (reply->element[1]->str, reply->element[1]->len);
      g_autofree char *got = g_strdup_printf ("\"%s\" and \"%s\"", first, second);

      set_unexpected (error, "TIME", "seconds and microseconds (decimal numbers)", got);
      return FALSE;
    }
  *ms = (gint64) seconds * 1000 + (gint64) (micros / 1000);
  return TRUE;
}

gboolean
_hbase_index_reply_score (const redisReply *reply, const char *command, double *score,
                          GError **error)
{
  const char *str;
  gsize len;
  char *end = NULL;
  double value;

  if (!_hbase_index_reply_string (reply, command, FALSE, FALSE, &str, &len, error))
    return FALSE;
  errno = 0;
  value = len > 0 && len < 64 && memchr (str, '\0', len) == NULL ? g_ascii_strtod (str, &end) : 0;
  if (end == NULL || end != str + len || isnan (value))
    {
      g_autofree char *text = _hbase_index_sanitise (str, len);
      g_autofree char *got = g_strdup_printf ("\"%s\"", text);

      set_unexpected (error, command, "a score (a number)", got);
      return FALSE;
    }
  *score = value;
  return TRUE;
}

/* --- INFO ------------------------------------------------------------------------------------------ */

gboolean
_hbase_index_parse_info (redisReply *reply, char **run_id, char **noauth, GError **error)
{
  const char *line, *text, *end;
  gsize len;

  *run_id = NULL;
  *noauth = NULL;
  if (reply != NULL && reply->type == REDIS_REPLY_ERROR)
    {
      g_autofree char *said = _hbase_index_reply_text (reply);

      if (g_str_has_prefix (said, "NOAUTH"))
        *noauth = g_steal_pointer (&said);
      return TRUE;
    }
  if (!_hbase_index_reply_string (reply, "INFO", FALSE, FALSE, &text, &len, error))
    return FALSE;
  line = g_strstr_len (text, (gssize) len, "run_id:");
  if (line == NULL)
    return TRUE;
  line += strlen ("run_id:");
  end = line;
  /* a run_id is 40 hexadecimal digits: a longer one is cut */
  while (end < text + len && end - line < 64 && g_ascii_isalnum (*end))
    end++;
  *run_id = g_strndup (line, (gsize) (end - line));
  return TRUE;
}
