/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-error-thrift.h: the outcome of a generated Thrift2 call as an
 * HBASE_ERROR.  Part of <hbase-glib/hbase-glib-thrift.h>. */
#ifndef HBASE_ERROR_THRIFT_H
#define HBASE_ERROR_THRIFT_H

#if !defined(__HBASE_GLIB_INSIDE__) && !defined(HBASE_GLIB_COMPILATION)
#error "Only <hbase-glib/hbase-glib-thrift.h> can be included directly."
#endif

#include <hbase-glib/hbase-error.h>
#include <hbase-glib/thrift/hbase_thrift_hbase_types.h>

G_BEGIN_DECLS

void hbase_error_take_call_error (GError                      **error,
                                  GError                       *call_error,
                                  HbaseThriftTIOError          *io_error,
                                  HbaseThriftTIllegalArgument  *illegal_argument);

G_END_DECLS

#endif /* HBASE_ERROR_THRIFT_H */
