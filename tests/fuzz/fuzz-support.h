/* SPDX-License-Identifier: Apache-2.0 */
/* fuzz-support.h: what the fuzz harnesses of tests/fuzz/ share: reading
 * the fuzzer's bytes as small typed values, protocols and transports over
 * those bytes as the library builds them, and checks that stop the
 * program (a finding) when an invariant is broken. */
#ifndef FUZZ_SUPPORT_H
#define FUZZ_SUPPORT_H

#include <stdint.h>

#include <glib-object.h>
#include <thrift/c_glib/protocol/thrift_protocol.h>

#include <hbase-glib/hbase-glib.h>

#include "../../src/connection/hbase-transport.h"

G_BEGIN_DECLS

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ThriftProtocol, g_object_unref)

/* every harness defines it */
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* --- the input, consumed from the front --------------------------------------------- */

typedef struct {
  const guint8 *data;
  gsize size;
} FuzzInput;

guint8       fuzz_take_u8     (FuzzInput *in);          /* 0 when empty */
guint32      fuzz_take_u32    (FuzzInput *in);          /* big-endian, 0-padded */
/* @n bytes or what is left; the pointer stays valid with the input */
const guint8 *fuzz_take_bytes (FuzzInput *in, gsize n, gsize *len);
/* A short byte string: a length byte (modulo @max + 1), then the bytes. */
GBytes      *fuzz_take_gbytes (FuzzInput *in, gsize max);
/* The same, NUL-terminated and without inner NULs (cut at the first). */
char        *fuzz_take_string (FuzzInput *in, gsize max);

/* --- checks --------------------------------------------------------------------------- */

/* Once per process: criticals and warnings become fatal (a g_return_if_fail
 * tripped by bad input is a bug), and the generated types are registered. */
void fuzz_init (void);

/* Aborts with @message when @condition is false: libFuzzer records the input. */
#define fuzz_assert(condition, ...) \
  G_STMT_START { if (G_UNLIKELY (!(condition))) fuzz_fail (__FILE__, __LINE__, __VA_ARGS__); } G_STMT_END
void fuzz_fail (const char *file, int line, const char *format, ...) G_GNUC_PRINTF (3, 4) G_GNUC_NORETURN;

/* A call's outcome is consistent: success without an error, or failure
 * with one (with a message, in UTF-8 unless fuzz_require_utf8_errors is
 * FALSE); frees the error. */
extern gboolean fuzz_require_utf8_errors;
void fuzz_check_outcome (const char *what, gboolean ok, GError **error);

/* Reads every byte of a row's key and cells (so that the sanitizers see any
 * bad pointer or length) and checks the row is well-formed. */
void fuzz_touch_row (HBaseRow *row);
/* TRUE if both rows have the same key and cells. */
gboolean fuzz_rows_equal (HBaseRow *a, HBaseRow *b);

/* --- transports and protocols over the input -------------------------------------- */

/* A memory transport holding @data. */
ThriftTransport *fuzz_memory_transport_new (const guint8 *data, gsize size);

/* hbase-glib's socket transport (buffered or framed) reading @data from
 * the other end of a socket pair, which is closed after it: the end of
 * the bytes is the peer closing the connection.  @size must be at most
 * FUZZ_SOCKET_MAX_INPUT.  NULL (and a message) if the system refuses. */
#define FUZZ_SOCKET_MAX_INPUT (128 * 1024)
ThriftTransport *fuzz_socket_transport_new (const guint8 *data, gsize size, gboolean framed);

/* The protocol the library reads replies with, over @transport. */
ThriftProtocol  *fuzz_protocol_new (gboolean compact, ThriftTransport *transport);

G_END_DECLS

#endif /* FUZZ_SUPPORT_H */
