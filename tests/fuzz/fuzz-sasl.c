/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-sasl.c: the client side of SASL GSSAPI (src/connection/hbase-sasl.c)
 * reading any bytes a gateway may send during the negotiation, then
 * unwrapping any frames after it.
 *
 * No KDC: this program defines the GSSAPI functions the library calls
 * (gss_init_sec_context, gss_wrap, gss_unwrap...), which take the place
 * of MIT's for the whole program.  Their "mechanism" is transparent: a
 * context token is any bytes; a wrap token is | status u8 | conf u8 |
 * plain bytes |, where status says what gss_unwrap() reports for it
 * (0: complete, 1-4: a replayed, old, reordered or gap token, 5: a bad
 * signature, 6: a defective token, 7: plain bytes longer than the token).
 *
 * Input: byte 0 is the accepted QOP (modulo 7, plus 1); byte 1 the flags
 * the context grants (bit 0 mutual, 1 replay, 2 sequence, 3 integrity,
 * 4 confidentiality; bit 5: the context fails instead); byte 2 (modulo 3)
 * how many more context tokens it needs after the first; byte 3 bit 0
 * makes gss_wrap() fail in the negotiation, bit 1 after it.  The rest is what the gateway sends, read by the
 * negotiation; whatever it leaves is read as frames | length u32 BE |
 * payload |, each unwrapped as the socket transport does.
 *
 * Checked: the negotiation and every unwrap fail with an HBASE_ERROR or
 * succeed; an unwrapped frame is no longer than its token and is the
 * token's plain bytes; a token reported out of sequence, or not sealed
 * at privacy, is refused (HBASE_ERROR_PROTOCOL); the gateway's refusal
 * text reaches the message printable and short; wrapping makes frames
 * no larger than the gateway's buffer. */
#include "config.h"

#include <string.h>

#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>

#include "../../src/connection/hbase-sasl.h"
#include "fuzz-support.h"

/* --- the stand-in GSSAPI ------------------------------------------------------------- */

static struct {
  OM_uint32 flags;          /* granted */
  gboolean context_fails;
  guint rounds;             /* context tokens still needed after the first */
  gboolean wrap_fails;
  OM_uint32 send_max;       /* the largest token, as gss_wrap_size_limit() was told */
} mech;

static char dummy_object;

static void
set_buffer (gss_buffer_t buffer, const void *data, gsize length)
{
  buffer->value = g_malloc (MAX (length, 1));
  if (length > 0)
    memcpy (buffer->value, data, length);
  buffer->length = length;
}

OM_uint32
gss_acquire_cred_from (OM_uint32 *minor, gss_name_t name, OM_uint32 time_req,
                       gss_OID_set mechs, gss_cred_usage_t usage,
                       gss_const_key_value_set_t store, gss_cred_id_t *cred,
                       gss_OID_set *actual, OM_uint32 *time_rec)
{
  (void) name, (void) time_req, (void) mechs, (void) usage, (void) store;
  *minor = 0;
  *cred = (gss_cred_id_t) &dummy_object;
  if (actual != NULL)
    *actual = GSS_C_NO_OID_SET;
  if (time_rec != NULL)
    *time_rec = 3600;
  return GSS_S_COMPLETE;
}

OM_uint32
gss_release_cred (OM_uint32 *minor, gss_cred_id_t *cred)
{
  *minor = 0;
  *cred = GSS_C_NO_CREDENTIAL;
  return GSS_S_COMPLETE;
}

OM_uint32
gss_import_name (OM_uint32 *minor, gss_buffer_t text, gss_OID type, gss_name_t *name)
{
  (void) text, (void) type;
  *minor = 0;
  *name = (gss_name_t) &dummy_object;
  return GSS_S_COMPLETE;
}

OM_uint32
gss_release_name (OM_uint32 *minor, gss_name_t *name)
{
  *minor = 0;
  *name = GSS_C_NO_NAME;
  return GSS_S_COMPLETE;
}

OM_uint32
gss_release_buffer (OM_uint32 *minor, gss_buffer_t buffer)
{
  *minor = 0;
  if (buffer != GSS_C_NO_BUFFER)
    {
      g_free (buffer->value);
      buffer->value = NULL;
      buffer->length = 0;
    }
  return GSS_S_COMPLETE;
}

OM_uint32
gss_display_status (OM_uint32 *minor, OM_uint32 code, int type, gss_OID mech_type,
                    OM_uint32 *context, gss_buffer_t text)
{
  g_autofree char *message = g_strdup_printf ("%s status 0x%x",
                                              type == GSS_C_GSS_CODE ? "GSS" : "mech", code);

  (void) mech_type;
  *minor = 0;
  *context = 0;
  set_buffer (text, message, strlen (message));
  return GSS_S_COMPLETE;
}

OM_uint32
gss_init_sec_context (OM_uint32 *minor, gss_cred_id_t cred, gss_ctx_id_t *context,
                      gss_name_t target, gss_OID mech_type, OM_uint32 req_flags,
                      OM_uint32 time_req, gss_channel_bindings_t bindings, gss_buffer_t input,
                      gss_OID *actual_mech, gss_buffer_t output, OM_uint32 *ret_flags,
                      OM_uint32 *time_rec)
{
  (void) cred, (void) target, (void) mech_type, (void) time_req, (void) bindings;
  (void) actual_mech, (void) time_rec;
  *minor = 0;
  output->value = NULL;
  output->length = 0;
  if (mech.context_fails)
    return GSS_S_FAILURE;
  if (*context == GSS_C_NO_CONTEXT)
    {
      fuzz_assert (input == GSS_C_NO_BUFFER || input->length == 0,
                   "the first context call has an input token");
      *context = (gss_ctx_id_t) &dummy_object;
      set_buffer (output, "first token", 11);
    }
  else
    {
      fuzz_assert (input != GSS_C_NO_BUFFER, "a later context call without the gateway's token");
      if (mech.rounds == 0)
        {
          /* the empty answer of RFC 4752 after the AP-REP */
          if (ret_flags != NULL)
            *ret_flags = mech.flags & req_flags;
          return GSS_S_COMPLETE;
        }
      mech.rounds--;
      set_buffer (output, "next token", 10);
    }
  if (ret_flags != NULL)
    *ret_flags = 0;
  return GSS_S_CONTINUE_NEEDED;
}

OM_uint32
gss_delete_sec_context (OM_uint32 *minor, gss_ctx_id_t *context, gss_buffer_t output)
{
  (void) output;
  *minor = 0;
  *context = GSS_C_NO_CONTEXT;
  return GSS_S_COMPLETE;
}

/* the token header: | status | conf | */
#define TOKEN_HEADER 2

OM_uint32
gss_wrap (OM_uint32 *minor, gss_ctx_id_t context, int conf_req, gss_qop_t qop,
          gss_buffer_t input, int *conf_state, gss_buffer_t output)
{
  (void) context, (void) qop;
  *minor = 0;
  output->value = NULL;
  output->length = 0;
  if (mech.wrap_fails)
    return GSS_S_FAILURE;
  output->length = input->length + TOKEN_HEADER;
  output->value = g_malloc (output->length);
  ((guint8 *) output->value)[0] = 0;
  ((guint8 *) output->value)[1] = conf_req != 0;
  if (input->length > 0)
    memcpy ((guint8 *) output->value + TOKEN_HEADER, input->value, input->length);
  if (conf_state != NULL)
    *conf_state = conf_req != 0;
  return GSS_S_COMPLETE;
}

OM_uint32
gss_wrap_size_limit (OM_uint32 *minor, gss_ctx_id_t context, int conf_req, gss_qop_t qop,
                     OM_uint32 req_output_size, OM_uint32 *max_input_size)
{
  (void) context, (void) conf_req, (void) qop;
  *minor = 0;
  mech.send_max = req_output_size;
  *max_input_size = req_output_size > TOKEN_HEADER ? req_output_size - TOKEN_HEADER : 0;
  return GSS_S_COMPLETE;
}

static const OM_uint32 unwrap_status[] = {
  GSS_S_COMPLETE, GSS_S_DUPLICATE_TOKEN, GSS_S_OLD_TOKEN, GSS_S_UNSEQ_TOKEN, GSS_S_GAP_TOKEN,
  GSS_S_BAD_SIG, GSS_S_DEFECTIVE_TOKEN, GSS_S_COMPLETE,
};

OM_uint32
gss_unwrap (OM_uint32 *minor, gss_ctx_id_t context, gss_buffer_t input, gss_buffer_t output,
            int *conf_state, gss_qop_t *qop_state)
{
  const guint8 *token = input->value;
  guint status;

  (void) context, (void) qop_state;
  *minor = 0;
  output->value = NULL;
  output->length = 0;
  if (input->length < TOKEN_HEADER)
    return GSS_S_DEFECTIVE_TOKEN;
  status = token[0] % G_N_ELEMENTS (unwrap_status);
  if (conf_state != NULL)
    *conf_state = token[1] & 1;
  if (GSS_ERROR (unwrap_status[status]))
    return unwrap_status[status];
  if (status == 7)
    {
      /* a mechanism that gives more plain bytes than its token had */
      output->length = input->length + 16;
      output->value = g_malloc0 (output->length);
    }
  else
    set_buffer (output, token + TOKEN_HEADER, input->length - TOKEN_HEADER);
  return unwrap_status[status];
}

/* --- the gateway's bytes -------------------------------------------------------------- */

static gboolean
fuzz_send (gpointer io, const guint8 *data, gsize length, GError **error)
{
  (void) io, (void) error;
  fuzz_assert (length >= 5, "a negotiation message of %" G_GSIZE_FORMAT " bytes", length);
  fuzz_assert (data[0] >= 1 && data[0] <= 5, "a negotiation message with status %u", data[0]);
  return TRUE;
}

static gboolean
fuzz_recv (gpointer io, guint8 *data, gsize length, GError **error)
{
  FuzzInput *in = io;
  gsize got = 0;
  const guint8 *bytes;

  if (in->size < length)
    {
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_CONNECTION,
                   "the gateway closed the connection");
      return FALSE;
    }
  bytes = fuzz_take_bytes (in, length, &got);
  memcpy (data, bytes, got);
  return TRUE;
}

/* The library's message for a refusal is made of printable text only, and
 * short whatever the gateway sent. */
static void
check_message (const GError *error)
{
  fuzz_assert (strlen (error->message) < 1024, "an error message of %" G_GSIZE_FORMAT " bytes",
               strlen (error->message));
  for (const char *p = error->message; *p != '\0'; p++)
    fuzz_assert ((guchar) *p >= 0x20 && *p != 0x7f, "a control character 0x%02x in: %s",
                 (guchar) *p, error->message);
}

static void
unwrap_frames (HBaseSasl *sasl, FuzzInput *in)
{
  for (guint n = 0; n < 64 && in->size >= 4; n++)
    {
      guint32 size = fuzz_take_u32 (in);
      gsize length = 0;
      const guint8 *token = fuzz_take_bytes (in, MIN (size, 4096), &length);
      /* at least one byte allocated, only what was given copied */
      g_autofree guint8 *frame = g_malloc0 (MAX (length, 1));
      guint status = length >= TOKEN_HEADER ? token[0] % G_N_ELEMENTS (unwrap_status) : 5;
      gboolean expected = length >= TOKEN_HEADER && unwrap_status[status] == GSS_S_COMPLETE &&
                          status != 7 &&
                          (_hbase_sasl_get_qop (sasl) != HBASE_KERBEROS_QOP_PRIVACY ||
                           (token[1] & 1));
      GError *error = NULL;
      gsize plain = G_MAXSIZE;
      gboolean ok;

      if (length > 0)
        memcpy (frame, token, length);
      ok = _hbase_sasl_unwrap_in_place (sasl, frame, length, &plain, &error);

      fuzz_assert (ok == expected, "frame %u (status %u, %" G_GSIZE_FORMAT " bytes) %s", n,
                   status, length, ok ? "accepted" : "refused");
      if (ok)
        {
          fuzz_assert (plain == length - TOKEN_HEADER, "a frame unwrapped to %" G_GSIZE_FORMAT
                       " bytes out of %" G_GSIZE_FORMAT, plain, length);
          fuzz_assert (memcmp (frame, token + TOKEN_HEADER, plain) == 0,
                       "a frame unwrapped to other bytes");
        }
      else
        {
          fuzz_assert (error != NULL && error->domain == HBASE_ERROR &&
                       (error->code == HBASE_ERROR_PROTOCOL ||
                        error->code == HBASE_ERROR_AUTHENTICATION),
                       "a frame refused with %s", error != NULL ? error->message : "no error");
          if (unwrap_status[status] != GSS_S_COMPLETE && !GSS_ERROR (unwrap_status[status]))
            fuzz_assert (error->code == HBASE_ERROR_PROTOCOL &&
                         strstr (error->message, "out of sequence") != NULL,
                         "a frame out of sequence refused as: %s", error->message);
        }
      fuzz_check_outcome ("unwrapping a frame", ok, &error);
    }
}

/* Wrapping respects the gateway's buffer: each frame's token fits. */
static void
wrap_some (HBaseSasl *sasl)
{
  static guint8 data[3000];
  g_autoptr(GByteArray) out = g_byte_array_new ();
  GError *error = NULL;
  gboolean ok = _hbase_sasl_wrap_frames (sasl, data, sizeof data, out, &error);

  fuzz_check_outcome ("wrapping a request", ok, &error);
  for (gsize pos = 0; ok && pos < out->len;)
    {
      guint32 size;

      fuzz_assert (out->len - pos >= 4, "a wrapped frame cut in its length");
      memcpy (&size, out->data + pos, 4);
      size = GUINT32_FROM_BE (size);
      fuzz_assert (size > TOKEN_HEADER && size <= out->len - pos - 4 && size <= mech.send_max,
                   "a wrapped frame of %u bytes (the gateway's buffer: %u)", size, mech.send_max);
      pos += 4 + size;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  FuzzInput in = { data, size };
  HBaseKerberosSettings settings = { .enabled = TRUE,
                                     .service_principal = (char *) "hbase/gateway.example" };
  guint8 flags;
  HBaseSasl *sasl;
  GError *error = NULL;

  fuzz_init ();
  settings.qop = (HBaseKerberosQop) (fuzz_take_u8 (&in) % 7 + 1);
  flags = fuzz_take_u8 (&in);
  mech.flags = ((flags & 1) ? GSS_C_MUTUAL_FLAG : 0) | ((flags & 2) ? GSS_C_REPLAY_FLAG : 0) |
               ((flags & 4) ? GSS_C_SEQUENCE_FLAG : 0) | ((flags & 8) ? GSS_C_INTEG_FLAG : 0) |
               ((flags & 16) ? GSS_C_CONF_FLAG : 0);
  mech.context_fails = (flags & 32) != 0;
  mech.rounds = fuzz_take_u8 (&in) % 3;
  flags = fuzz_take_u8 (&in);
  mech.wrap_fails = (flags & 1) != 0;
  mech.send_max = 0;

  sasl = _hbase_sasl_negotiate (&settings, "gateway.example", "gateway.example:9090",
                                1 << 20, 0, NULL, fuzz_send, fuzz_recv, &in, &error);
  if (sasl == NULL)
    {
      fuzz_assert (error != NULL, "the negotiation failed without an error");
      check_message (error);
      fuzz_check_outcome ("the negotiation", FALSE, &error);
      return 0;
    }
  fuzz_check_outcome ("the negotiation", TRUE, &error);
  fuzz_assert ((mech.flags & (GSS_C_MUTUAL_FLAG | GSS_C_REPLAY_FLAG | GSS_C_SEQUENCE_FLAG)) ==
               (GSS_C_MUTUAL_FLAG | GSS_C_REPLAY_FLAG | GSS_C_SEQUENCE_FLAG),
               "a context without mutual authentication or sequence detection accepted");
  fuzz_assert ((_hbase_sasl_get_qop (sasl) & settings.qop) != 0 &&
               (_hbase_sasl_get_qop (sasl) & (_hbase_sasl_get_qop (sasl) - 1)) == 0,
               "negotiated QOP %u, accepted %u", _hbase_sasl_get_qop (sasl), settings.qop);
  if (_hbase_sasl_wraps (sasl))
    {
      mech.wrap_fails = (flags & 2) != 0;
      wrap_some (sasl);
      unwrap_frames (sasl, &in);
    }
  _hbase_sasl_free (sasl);
  return 0;
}
