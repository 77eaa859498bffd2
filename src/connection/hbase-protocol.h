/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-protocol.h (private): the Thrift protocols hbase-glib reads replies
 * with: libthrift_c_glib's binary and compact protocols, with every length
 * a reply announces checked before anything is allocated for it.
 *
 * Thrift c_glib 0.17 trusts the lengths it reads: the binary protocol
 * allocates whatever a string or binary length says (up to 2 GiB), the
 * compact protocol's string length overflows its `len + 1` allocation
 * (0x7fffffff becomes a request for ~16 EiB and GLib aborts), container
 * sizes are multiplied in int and can wrap, a non-versioned binary message
 * leaves the method name unset (the generated code then strncmp()s NULL),
 * and skipping unknown fields recurses without bound.  These subclasses
 * replace the reads that take a length or nest:
 *  - strings and binaries: negative or above the message limit is an error,
 *    and the transport must hold (or receive) the bytes before they are
 *    copied out, so memory follows what the server really sent;
 *  - message names: at most HBASE_PROTOCOL_MAX_NAME bytes; only strict
 *    (versioned) binary messages; message types CALL/REPLY/EXCEPTION/ONEWAY;
 *  - lists, sets and maps: the size times the smallest encoding of an
 *    element, in 64 bits, must fit in what can still follow;
 *  - structs and containers nest at most HBASE_PROTOCOL_MAX_DEPTH deep.
 * Every failure is a THRIFT_PROTOCOL_ERROR and marks the connection's
 * transport failed, so the connection is never reused out of step. */
#ifndef HBASE_PROTOCOL_H
#define HBASE_PROTOCOL_H

#include <thrift/c_glib/protocol/thrift_protocol.h>

#include <hbase-glib/hbase-connection.h>

#include "hbase-transport.h"

G_BEGIN_DECLS

/* Deepest nesting of structs, lists, sets and maps (Thrift's own default
 * recursion limit); the HBase IDL needs 4. */
#define HBASE_PROTOCOL_MAX_DEPTH 64

/* Longest method name in a message header ("getScannerResults" is 17). */
#define HBASE_PROTOCOL_MAX_NAME 256

/* A binary or compact protocol over @transport that refuses any string,
 * binary or container larger than @max_message bytes (and anything larger
 * than what @transport says can still follow). */
ThriftProtocol *_hbase_protocol_new (HBaseProtocol    protocol,
                                     ThriftTransport *transport,
                                     gsize            max_message);

/* The direct path of hbase-wire.h: the transport when @protocol is the
 * binary protocol above over hbase-glib's socket transport, else NULL. */
HBaseSocketTransport *_hbase_protocol_get_direct_transport (ThriftProtocol *protocol);

/* The checks the protocol's own reads make, for readers that decode the
 * binary protocol themselves: one nesting level more (refused past
 * HBASE_PROTOCOL_MAX_DEPTH) or less; a list of @size elements of @element
 * must fit in what can still follow.  Failures mark the transport failed. */
gboolean _hbase_protocol_enter       (ThriftProtocol  *protocol,
                                      GError         **error);
void     _hbase_protocol_leave       (ThriftProtocol  *protocol);
gboolean _hbase_protocol_check_list  (ThriftProtocol  *protocol,
                                      ThriftType       element,
                                      gint32           size,
                                      GError         **error);

/* The binary message header, read directly (the protocol must have a
 * direct transport): what the protocol's read_message_begin checks, the
 * method name into @name, which holds HBASE_PROTOCOL_MAX_NAME + 1 bytes. */
gboolean _hbase_protocol_read_message_begin_direct (ThriftProtocol     *protocol,
                                                    char               *name,
                                                    ThriftMessageType  *type,
                                                    gint32             *seqid,
                                                    GError            **error);

G_END_DECLS

#endif /* HBASE_PROTOCOL_H */
