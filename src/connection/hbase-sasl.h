/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-sasl.h (private): the client side of SASL GSSAPI (RFC 4752, the
 * Kerberos V5 mechanism) as Thrift's SASL transport carries it, for the
 * socket path to a kerberized gateway (hbase.thrift.security.qop).
 *
 * The negotiation is written on MIT GSSAPI directly (no Cyrus SASL, see
 * notes/security.md §6): the transport hands in its own send/receive
 * functions, which keep its deadline and cancellation; afterwards the
 * session wraps and unwraps the frames of the negotiated protection level.
 *
 * Every message of the negotiation is | status u8 | length u32 BE | payload |
 * (START 1, OK 2, BAD 3, ERROR 4, COMPLETE 5); after it, every message is
 * a frame | length u32 BE | payload |, the payload being plain Thrift
 * (QOP authentication) or one GSSAPI wrap token (integrity, privacy). */
#ifndef HBASE_SASL_H
#define HBASE_SASL_H

#include <gio/gio.h>

#include "hbase-config-private.h"

G_BEGIN_DECLS

typedef struct _HBaseSasl HBaseSasl;

/* Sends all @length bytes of @data, or fails (with @error set). */
typedef gboolean (*HBaseSaslSendFunc) (gpointer      io,
                                       const guint8 *data,
                                       gsize         length,
                                       GError      **error);
/* Receives exactly @length bytes into @data, or fails. */
typedef gboolean (*HBaseSaslRecvFunc) (gpointer      io,
                                       guint8       *data,
                                       gsize         length,
                                       GError      **error);

/* Authenticates to the gateway @host (for its service principal) as the
 * client @settings name, over @send/@recv: the whole Thrift SASL
 * negotiation.  @description names the gateway in messages
 * ("localhost:19092 (binary/buffered)").  @max_receive is the largest
 * wrapped frame the caller accepts (told to the gateway, at most 2^24-1).
 * Failures of Kerberos, of the QOP choice and the gateway's refusals are
 * HBASE_ERROR_AUTHENTICATION (permanent); a gateway's security-layer offer
 * out of sequence is HBASE_ERROR_PROTOCOL; whatever @send/@recv set
 * (timeouts, closed sockets, cancellation) is passed on as it is.  The
 * KDC is waited for until @deadline (monotonic µs, 0: none) or the
 * cancellation of @cancellable (HBASE_ERROR_TIMEOUT, G_IO_ERROR_CANCELLED),
 * as @send/@recv wait for the gateway. */
HBaseSasl *_hbase_sasl_negotiate (const HBaseKerberosSettings *settings,
                                  const char                  *host,
                                  const char                  *description,
                                  gsize                        max_receive,
                                  gint64                       deadline,
                                  GCancellable                *cancellable,
                                  HBaseSaslSendFunc            send,
                                  HBaseSaslRecvFunc            recv,
                                  gpointer                     io,
                                  GError                     **error);
void       _hbase_sasl_free      (HBaseSasl *sasl);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (HBaseSasl, _hbase_sasl_free)

/* The negotiated level: exactly one of the HBASE_KERBEROS_QOP_* bits. */
HBaseKerberosQop _hbase_sasl_get_qop (const HBaseSasl *sasl);

/* TRUE when frames are wrapped (integrity or privacy). */
gboolean _hbase_sasl_wraps (const HBaseSasl *sasl);

/* Wraps @length bytes of @data into one or more frames (each at most the
 * gateway's announced buffer size), appended to @out with their 4-byte
 * length prefixes. */
gboolean _hbase_sasl_wrap_frames (HBaseSasl    *sasl,
                                  const guint8 *data,
                                  gsize         length,
                                  GByteArray   *out,
                                  GError      **error);

/* Unwraps the frame payload @data (@length bytes) in place: on success
 * the plain bytes are at @data and *@plain_length says how many (never
 * more than @length).  A token that does not verify, or that is not the
 * next one of the gateway's (replayed, after a gap, reordered), is
 * HBASE_ERROR_PROTOCOL: the connection must be closed. */
gboolean _hbase_sasl_unwrap_in_place (HBaseSasl *sasl,
                                      guint8    *data,
                                      gsize      length,
                                      gsize     *plain_length,
                                      GError   **error);

/* "authentication", "integrity", "privacy", or a list of them joined by
 * " or " for a bitmask (for messages). */
char *_hbase_sasl_describe_qop (guint qop);

G_END_DECLS

#endif /* HBASE_SASL_H */
