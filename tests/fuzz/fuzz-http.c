/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-http.c: what the HTTP channel (src/connection/hbase-http.c) makes
 * of a gateway's response: its libcurl header callback (status line,
 * WWW-Authenticate, Content-Length against the reply limit, the size of
 * the header block), its body callback and the parser of error pages.
 *
 * Input: byte 0 is the reply limit (0: the default max-message-size,
 * else that many times 64 bytes); bytes 1-2 (big-endian) the length of the
 * header block that follows, handed over a line at a time as libcurl does;
 * the rest is the body.
 *
 * Checked: what is kept for error messages is bounded and printable ASCII
 * (status line, authentication scheme, the error page's message), and a
 * body beyond the limit is refused. */
#include "config.h"

#include <string.h>

#include "../../src/connection/hbase-http.h"
#include "fuzz-support.h"

static void
check_printable (const char *what, const char *text, gsize max)
{
  gsize len = strlen (text);

  fuzz_assert (len <= max, "%s of %" G_GSIZE_FORMAT " characters", what, len);
  for (gsize i = 0; i < len; i++)
    fuzz_assert (g_ascii_isprint (text[i]), "%s has byte 0x%02x", what, (guint8) text[i]);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  guint8 limit_byte;
  gsize max_reply, header_want, header_len, body_len;
  const guint8 *headers, *body;
  g_autofree char *status_line = NULL, *scheme = NULL, *message = NULL;
  gboolean ok;

  fuzz_init ();
  limit_byte = fuzz_take_u8 (&in);
  max_reply = limit_byte == 0 ? HBASE_CONFIG_DEFAULT_MAX_MESSAGE_SIZE : (gsize) limit_byte * 64;
  header_want = (gsize) fuzz_take_u8 (&in) << 8;
  header_want |= fuzz_take_u8 (&in);
  headers = fuzz_take_bytes (&in, header_want, &header_len);
  body = fuzz_take_bytes (&in, in.size, &body_len);
  ok = _hbase_http_parse_response ((const char *) headers, header_len, body, body_len, max_reply,
                                   &status_line, &scheme, &message);
  check_printable ("the status line", status_line, 95);
  check_printable ("the WWW-Authenticate scheme", scheme, 31);
  for (gsize i = 0; scheme[i] != '\0'; i++)
    fuzz_assert (g_ascii_isalnum (scheme[i]), "the scheme has '%c'", scheme[i]);
  if (message != NULL)
    {
      check_printable ("the error page's message", message, 300);
      fuzz_assert (message[0] != '\0', "an empty message");
    }
  if (body_len > max_reply)
    fuzz_assert (!ok, "a body of %" G_GSIZE_FORMAT " bytes accepted, limit %" G_GSIZE_FORMAT,
                 body_len, max_reply);
  return 0;
}
