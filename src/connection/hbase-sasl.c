/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-sasl.c: SASL GSSAPI over Thrift's SASL transport, client side
 * (see hbase-sasl.h).
 *
 * The exchange with an HBase Thrift2 gateway (libthrift's
 * TSaslServerTransport over Java's GssKrb5Server):
 *   client: START "GSSAPI", OK <first context token>     (one send)
 *   server: OK <AP-REP>          client: OK <empty>       (context done)
 *   server: OK wrap([layers][max buffer, 3 bytes])
 *   client: COMPLETE wrap([chosen layer][max buffer])    (no authzid)
 *   server: COMPLETE <empty>
 * after which every message is a frame.  The server's refusals come as
 * BAD or ERROR with a reason text, and it then closes the socket. */
#include "config.h"

#include <string.h>

#include <gssapi/gssapi.h>
#include <hbase-glib/hbase-error.h>

#include "hbase-gss.h"
#include "hbase-sasl.h"
#include "../core/hbase-error-private.h"

enum {
  SASL_START = 1,
  SASL_OK = 2,
  SASL_BAD = 3,
  SASL_ERROR = 4,
  SASL_COMPLETE = 5,
};

/* RFC 4752 §3.3: the security layer bits happen to be our QOP bits */
#define LAYER_NONE 1u
#define LAYER_INTEGRITY 2u
#define LAYER_PRIVACY 4u
G_STATIC_ASSERT (LAYER_NONE == HBASE_KERBEROS_QOP_AUTHENTICATION);
G_STATIC_ASSERT (LAYER_INTEGRITY == HBASE_KERBEROS_QOP_INTEGRITY);
G_STATIC_ASSERT (LAYER_PRIVACY == HBASE_KERBEROS_QOP_PRIVACY);

/* A negotiation message larger than this is not a SASL GSSAPI one (Kerberos
 * tokens are a few KiB; a PAC-heavy ticket stays far below). */
#define MAX_NEGOTIATION_MESSAGE (1024 * 1024)

struct _HBaseSasl {
  gss_ctx_id_t context;
  guint layer;              /* LAYER_* chosen */
  gsize send_max;           /* the gateway's max buffer: largest token to send */
  gsize send_max_plain;     /* largest plain chunk whose token fits send_max */
};

static const char *const layer_names[] = { "authentication", "integrity", "privacy" };

char *
_hbase_sasl_describe_qop (guint qop)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (layer_names); i++)
    if (qop & (1u << i))
      g_string_append_printf (text, "%s%s", text->len > 0 ? " or " : "", layer_names[i]);
  if (text->len == 0)
    g_string_append (text, "none");
  return g_string_free (text, FALSE);
}

/* What the supplementary bits of a gss_unwrap() that did not fail say
 * about the token's place in the sequence.  GSSAPI counts a replayed,
 * missing or reordered token as no error (GSS_ERROR() is 0): the caller
 * must refuse it itself, as Java's GssKrb5Base.checkMessageProp() does,
 * or a frame recorded on the wire could be played again, dropped or
 * swapped with another without the client noticing. */
static const char *
sequence_problem (OM_uint32 major)
{
  if (major & GSS_S_DUPLICATE_TOKEN)
    return "a frame came twice (replayed)";
  if (major & GSS_S_OLD_TOKEN)
    return "a frame came that is too old to check (replayed or held back)";
  if (major & GSS_S_UNSEQ_TOKEN)
    return "a frame came after a later one (reordered)";
  if (major & GSS_S_GAP_TOKEN)
    return "a frame came with an earlier one missing (dropped or reordered)";
  return "a frame came with an unexpected status";
}

static void
set_auth_error (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* HBASE_ERROR_AUTHENTICATION, permanent: neither another gateway of the
 * same deployment nor a later attempt would answer otherwise */
static void
set_auth_error (GError **error, const char *format, ...)
{
  va_list args;
  GError *local;

  va_start (args, format);
  local = g_error_new_valist (HBASE_ERROR, HBASE_ERROR_AUTHENTICATION, format, args);
  va_end (args);
  _hbase_error_set_permanent (local);
  g_propagate_error (error, local);
}

static gboolean
send_message (HBaseSaslSendFunc send, gpointer io, guint8 status, const void *payload,
              gsize length, const void *payload2, gsize length2, guint8 status2, GError **error)
{
  /* one or two messages in one send: START and the first token go out
   * together, as one TCP segment */
  g_autoptr(GByteArray) out = g_byte_array_sized_new ((guint) (10 + length + length2));
  guint32 size = GUINT32_TO_BE ((guint32) length);

  g_byte_array_append (out, &status, 1);
  g_byte_array_append (out, (const guint8 *) &size, 4);
  if (length > 0)
    g_byte_array_append (out, payload, (guint) length);
  if (status2 != 0)
    {
      size = GUINT32_TO_BE ((guint32) length2);
      g_byte_array_append (out, &status2, 1);
      g_byte_array_append (out, (const guint8 *) &size, 4);
      if (length2 > 0)
        g_byte_array_append (out, payload2, (guint) length2);
    }
  return send (io, out->data, out->len, error);
}

/* Reads one negotiation message; BAD and ERROR become the gateway's
 * refusal with its reason. */
static GBytes *
recv_message (HBaseSaslRecvFunc recv, gpointer io, const char *description, const char *target,
              guint8 *status, GError **error)
{
  guint8 header[5];
  guint32 size;
  guint8 *payload;

  if (!recv (io, header, 5, error))
    return NULL;
  memcpy (&size, header + 1, 4);
  size = GUINT32_FROM_BE (size);
  *status = header[0];
  if (*status < SASL_START || *status > SASL_COMPLETE || size > MAX_NEGOTIATION_MESSAGE)
    {
      /* a plain Thrift reply starts 0x80 0x01 (binary) or 0x82 (compact) */
      set_auth_error (error, "the gateway %s answered the Kerberos (SASL) handshake with bytes "
                      "that are no SASL message (status %u, length %u): it does not seem to "
                      "speak SASL", description, header[0], size);
      return NULL;
    }
  payload = g_malloc (MAX (size, 1));
  if (size > 0 && !recv (io, payload, size, error))
    {
      g_free (payload);
      return NULL;
    }
  if (*status == SASL_BAD || *status == SASL_ERROR)
    {
      /* the reason is the server's free text, up to 1 MiB of any bytes:
       * only a short printable part of it goes into the message */
      g_autofree char *reason = _hbase_error_printable ((const char *) payload, size);

      g_free (payload);
      set_auth_error (error, "the gateway %s refused the Kerberos authentication as %s: %s%s",
                      description, target, reason != NULL ? reason : "(no reason given)",
                      reason != NULL && strstr (reason, "GSS initiate failed") != NULL
                        ? " (the gateway could not accept the client's ticket: is the service "
                          "principal the gateway's own, e.g. hbase/<the host it resolves>?)"
                        : "");
      return NULL;
    }
  return g_bytes_new_take (payload, size);
}

/* Chooses the layer from the gateway's offer and answers it. */
static gboolean
negotiate_layer (HBaseSasl *self, const HBaseKerberosSettings *settings, GBytes *challenge,
                 OM_uint32 flags, gsize max_receive, const char *description,
                 const char *target, GByteArray *answer, GError **error)
{
  gss_buffer_desc in = { 0 }, plain = GSS_C_EMPTY_BUFFER, wrapped = GSS_C_EMPTY_BUFFER;
  OM_uint32 major, minor, ignored;
  guint8 offer, reply[4];
  guint granted = LAYER_NONE, common;
  gsize size;
  g_autofree char *what = NULL;

  in.value = (void *) g_bytes_get_data (challenge, &size);
  in.length = size;
  major = gss_unwrap (&minor, self->context, &in, &plain, NULL, NULL);
  if (!GSS_ERROR (major) && major != GSS_S_COMPLETE)
    {
      gss_release_buffer (&ignored, &plain);
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "the gateway %s offered its security layers out of sequence: %s "
                   "(GSSAPI status 0x%x); the connection is closed", description,
                   sequence_problem (major), major);
      return FALSE;
    }
  if (GSS_ERROR (major) || plain.length != 4)
    {
      what = g_strdup_printf ("cannot read the security layers offered by the gateway %s%s",
                              description, GSS_ERROR (major) ? "" : " (not 4 bytes)");
      gss_release_buffer (&ignored, &plain);
      _hbase_gss_set_error (error, GSS_ERROR (major) ? major : GSS_S_DEFECTIVE_TOKEN, minor,
                            what, target);
      return FALSE;
    }
  offer = ((const guint8 *) plain.value)[0];
  self->send_max = ((gsize) ((const guint8 *) plain.value)[1] << 16) |
                   ((gsize) ((const guint8 *) plain.value)[2] << 8) |
                   (gsize) ((const guint8 *) plain.value)[3];
  gss_release_buffer (&ignored, &plain);

  /* a layer needs its service from the context, not only the offer */
  if (flags & GSS_C_INTEG_FLAG)
    granted |= LAYER_INTEGRITY;
  if ((flags & GSS_C_CONF_FLAG) && (flags & GSS_C_INTEG_FLAG))
    granted |= LAYER_PRIVACY;
  common = offer & (guint) settings->qop & granted;
  if (common == 0)
    {
      g_autofree char *offered = _hbase_sasl_describe_qop (offer);
      g_autofree char *accepted = _hbase_sasl_describe_qop ((guint) settings->qop & granted);

      set_auth_error (error, "no protection level (QOP) both the client and the gateway %s "
                      "accept: the gateway offers %s, the client accepts %s (kerberos-qop)",
                      description, offered, accepted);
      return FALSE;
    }
  self->layer = (common & LAYER_PRIVACY) ? LAYER_PRIVACY
              : (common & LAYER_INTEGRITY) ? LAYER_INTEGRITY : LAYER_NONE;

  if (self->layer != LAYER_NONE)
    {
      OM_uint32 limit = 0;

      if (self->send_max == 0)
        {
          set_auth_error (error, "the gateway %s offers %s with a buffer of 0 bytes",
                          description, layer_names[self->layer == LAYER_PRIVACY ? 2 : 1]);
          return FALSE;
        }
      major = gss_wrap_size_limit (&minor, self->context, self->layer == LAYER_PRIVACY,
                                   GSS_C_QOP_DEFAULT, (OM_uint32) self->send_max, &limit);
      if (GSS_ERROR (major) || limit == 0)
        {
          what = g_strdup_printf ("cannot size the frames for the gateway %s", description);
          _hbase_gss_set_error (error, GSS_ERROR (major) ? major : GSS_S_FAILURE, minor,
                                what, target);
          return FALSE;
        }
      self->send_max_plain = limit;
    }

  /* RFC 4752: the max buffer must be 0 when no layer is chosen */
  max_receive = self->layer == LAYER_NONE ? 0 : MIN (max_receive, (gsize) 0xFFFFFF);
  reply[0] = (guint8) self->layer;
  reply[1] = (guint8) (max_receive >> 16);
  reply[2] = (guint8) (max_receive >> 8);
  reply[3] = (guint8) max_receive;
  in.value = reply;
  in.length = 4;
  major = gss_wrap (&minor, self->context, 0, GSS_C_QOP_DEFAULT, &in, NULL, &wrapped);
  if (GSS_ERROR (major))
    {
      what = g_strdup_printf ("cannot answer the security layers of the gateway %s", description);
      _hbase_gss_set_error (error, major, minor, what, target);
      return FALSE;
    }
  g_byte_array_append (answer, wrapped.value, (guint) wrapped.length);
  gss_release_buffer (&ignored, &wrapped);
  return TRUE;
}

HBaseSasl *
_hbase_sasl_negotiate (const HBaseKerberosSettings *settings, const char *host,
                       const char *description, gsize max_receive, gint64 deadline,
                       GCancellable *cancellable, HBaseSaslSendFunc send,
                       HBaseSaslRecvFunc recv, gpointer io, GError **error)
{
  g_autoptr(HBaseSasl) self = g_new0 (HBaseSasl, 1);
  gss_cred_id_t credentials = GSS_C_NO_CREDENTIAL;
  gss_name_t name = GSS_C_NO_NAME;
  g_autofree char *target = NULL;
  g_autofree char *what = g_strdup_printf ("cannot authenticate to the gateway %s", description);
  gss_buffer_desc in = GSS_C_EMPTY_BUFFER, out = GSS_C_EMPTY_BUFFER;
  OM_uint32 major, minor, ignored, flags = 0;
  /* replay and sequence detection: gss_unwrap() then reports a frame
   * played twice, dropped or reordered (refused below) */
  const OM_uint32 wanted = GSS_C_MUTUAL_FLAG | GSS_C_REPLAY_FLAG | GSS_C_SEQUENCE_FLAG |
                           GSS_C_INTEG_FLAG | GSS_C_CONF_FLAG;
  gboolean ok = FALSE, established = FALSE;
  g_autoptr(GBytes) challenge = NULL;
  guint8 status = 0;

  if (!_hbase_gss_acquire_credentials (settings, &credentials, error))
    {
      g_prefix_error (error, "cannot authenticate to the gateway %s: ", description);
      return NULL;
    }
  if (!_hbase_gss_import_service_name (settings->service_principal, "hbase", host,
                                       !settings->no_canonical_host, &name, &target, error))
    goto out;

  /* the context: client tokens until GSSAPI says it is established (the
   * gateway's AP-REP checked: mutual authentication) */
  for (;;)
    {
      static gss_OID_desc krb5 = { 9, (void *) "\x2a\x86\x48\x86\xf7\x12\x01\x02\x02" };

      if (challenge != NULL)
        {
          gsize size;

          in.value = (void *) g_bytes_get_data (challenge, &size);
          in.length = size;
        }
      if (challenge == NULL)
        {
          /* the step that may wait for the KDC: bounded by the deadline */
          if (!_hbase_gss_init_first (&credentials, &name, wanted, deadline, cancellable, what,
                                      &self->context, &out, &flags, &major, &minor, error))
            goto out;
        }
      else
        major = gss_init_sec_context (&minor, credentials, &self->context, name, &krb5, wanted,
                                      0, GSS_C_NO_CHANNEL_BINDINGS, &in, NULL, &out, &flags, NULL);
      if (GSS_ERROR (major))
        {
          gss_release_buffer (&ignored, &out);
          _hbase_gss_set_error (error, major, minor, what, target);
          goto out;
        }
      established = !(major & GSS_S_CONTINUE_NEEDED);
      if (challenge == NULL)
        ok = send_message (send, io, SASL_START, "GSSAPI", 6, out.value, out.length, SASL_OK,
                           error);
      else
        ok = send_message (send, io, SASL_OK, out.value, out.length, NULL, 0, 0, error);
      gss_release_buffer (&ignored, &out);
      if (!ok)
        goto out;
      ok = FALSE;
      g_clear_pointer (&challenge, g_bytes_unref);
      challenge = recv_message (recv, io, description, target, &status, error);
      if (challenge == NULL)
        goto out;
      if (status != SASL_OK)
        {
          set_auth_error (error, "the gateway %s ended the Kerberos (SASL) handshake early "
                          "(status %u before the security layer was agreed)", description, status);
          goto out;
        }
      if (established)
        break;
    }
  if (!(flags & GSS_C_MUTUAL_FLAG))
    {
      set_auth_error (error, "the gateway %s did not prove its identity (no mutual "
                      "authentication from GSSAPI)", description);
      goto out;
    }
  if ((flags & (GSS_C_REPLAY_FLAG | GSS_C_SEQUENCE_FLAG)) !=
      (GSS_C_REPLAY_FLAG | GSS_C_SEQUENCE_FLAG))
    {
      /* the Kerberos mechanism always grants them: another one might not */
      set_auth_error (error, "the Kerberos context with the gateway %s does not detect "
                      "replayed or reordered messages (GSSAPI flags 0x%x)", description, flags);
      goto out;
    }

  /* the security layer (RFC 4752 §3.1) */
  {
    g_autoptr(GByteArray) answer = g_byte_array_new ();

    if (!negotiate_layer (self, settings, challenge, flags, max_receive, description, target,
                          answer, error))
      goto out;
    if (!send_message (send, io, SASL_COMPLETE, answer->data, answer->len, NULL, 0, 0, error))
      goto out;
  }
  g_clear_pointer (&challenge, g_bytes_unref);
  challenge = recv_message (recv, io, description, target, &status, error);
  if (challenge == NULL)
    goto out;
  if (status != SASL_COMPLETE)
    {
      set_auth_error (error, "the gateway %s did not complete the Kerberos (SASL) handshake "
                      "(status %u after the security layer)", description, status);
      goto out;
    }
  {
    /* with kerberos-qop "any" the gateway chooses: say what it chose */
    g_autofree char *accepted = _hbase_sasl_describe_qop ((guint) settings->qop);

    g_info ("Kerberos (SASL) with the gateway %s as %s: protection level %s (accepted: %s)",
            description, target, layer_names[self->layer == LAYER_PRIVACY ? 2
                                              : self->layer == LAYER_INTEGRITY ? 1 : 0],
            accepted);
  }
  ok = TRUE;

out:
  _hbase_gss_release_credentials (&credentials);
  _hbase_gss_release_name (&name);
  return ok ? g_steal_pointer (&self) : NULL;
}

void
_hbase_sasl_free (HBaseSasl *sasl)
{
  OM_uint32 minor;

  if (sasl == NULL)
    return;
  if (sasl->context != GSS_C_NO_CONTEXT)
    gss_delete_sec_context (&minor, &sasl->context, GSS_C_NO_BUFFER);
  g_free (sasl);
}

HBaseKerberosQop
_hbase_sasl_get_qop (const HBaseSasl *sasl)
{
  return (HBaseKerberosQop) sasl->layer;
}

gboolean
_hbase_sasl_wraps (const HBaseSasl *sasl)
{
  return sasl->layer != LAYER_NONE;
}

gboolean
_hbase_sasl_wrap_frames (HBaseSasl *sasl, const guint8 *data, gsize length, GByteArray *out,
                         GError **error)
{
  int conf = sasl->layer == LAYER_PRIVACY;

  /* each token within the gateway's buffer (RFC 4752; Java's server
   * accepts a message spread over several frames, it unwraps each) */
  do
    {
      gsize chunk = MIN (length, sasl->send_max_plain);
      gss_buffer_desc in = { chunk, (void *) data }, token = GSS_C_EMPTY_BUFFER;
      OM_uint32 major, minor, ignored;
      guint32 size;
      int conf_state = 0;

      major = gss_wrap (&minor, sasl->context, conf, GSS_C_QOP_DEFAULT, &in, &conf_state, &token);
      if (GSS_ERROR (major) || conf_state != conf)
        {
          gss_release_buffer (&ignored, &token);
          _hbase_gss_set_error (error, GSS_ERROR (major) ? major : GSS_S_FAILURE, minor,
                                "cannot sign or seal a request", NULL);
          return FALSE;
        }
      size = GUINT32_TO_BE ((guint32) token.length);
      g_byte_array_append (out, (const guint8 *) &size, 4);
      g_byte_array_append (out, token.value, (guint) token.length);
      gss_release_buffer (&ignored, &token);
      data += chunk;
      length -= chunk;
    }
  while (length > 0);
  return TRUE;
}

gboolean
_hbase_sasl_unwrap_in_place (HBaseSasl *sasl, guint8 *data, gsize length, gsize *plain_length,
                             GError **error)
{
  gss_buffer_desc in = { length, data }, plain = GSS_C_EMPTY_BUFFER;
  OM_uint32 major, minor, ignored;
  int conf_state = 0;

  major = gss_unwrap (&minor, sasl->context, &in, &plain, &conf_state, NULL);
  if (!GSS_ERROR (major) && major != GSS_S_COMPLETE)
    {
      /* it verifies, but it is not the frame that comes next: the stream
       * is out of step, and what follows cannot be trusted either */
      gss_release_buffer (&ignored, &plain);
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "a reply frame is out of sequence: %s (GSSAPI status 0x%x); the "
                   "connection is closed", sequence_problem (major), major);
      return FALSE;
    }
  if (GSS_ERROR (major) || plain.length > length ||
      (sasl->layer == LAYER_PRIVACY && !conf_state))
    {
      gss_release_buffer (&ignored, &plain);
      /* a frame that does not verify: corruption or tampering, not a
       * credentials problem; the connection is out of step either way */
      g_set_error (error, HBASE_ERROR, HBASE_ERROR_PROTOCOL,
                   "a reply frame does not verify as %s (GSSAPI major status 0x%x, minor %u)",
                   layer_names[sasl->layer == LAYER_PRIVACY ? 2 : 1], major, minor);
      return FALSE;
    }
  memcpy (data, plain.value, plain.length);
  *plain_length = plain.length;
  gss_release_buffer (&ignored, &plain);
  return TRUE;
}
