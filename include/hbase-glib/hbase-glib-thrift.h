/* hbase-glib-thrift.h: the generated Thrift2 layer, for power users.
 *
 * Includes <hbase-glib/hbase-glib.h> and the c_glib code the Thrift 0.17
 * compiler generates from thrift/hbase.thrift: every THBaseService call
 * (hbase_thrift_t_h_base_service_if_*) and struct (HbaseThriftTGet, ...).
 * Every generated type works with g_autoptr().
 * Compile with `pkg-config --cflags --libs hbase-glib-thrift-1.0`.
 */
#ifndef HBASE_GLIB_THRIFT_H
#define HBASE_GLIB_THRIFT_H

#include <hbase-glib/hbase-glib.h>
#include <hbase-glib/thrift/hbase_thrift_hbase_types.h>
#include <hbase-glib/thrift/hbase_thrift_t_h_base_service.h>
#include <hbase-glib/thrift/hbase_thrift_autocleanups.h>

G_BEGIN_DECLS

HbaseThriftTHBaseServiceIf *hbase_connection_get_service (HBaseConnection *connection);

void hbase_error_take_call_error (GError                      **error,
                                  GError                       *call_error,
                                  HbaseThriftTIOError          *io_error,
                                  HbaseThriftTIllegalArgument  *illegal_argument);

G_END_DECLS

#endif /* HBASE_GLIB_THRIFT_H */
