/* SPDX-License-Identifier: Apache-2.0 */
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

#define __HBASE_GLIB_INSIDE__

#include <hbase-glib/hbase-error-thrift.h>
#include <hbase-glib/hbase-client-thrift.h>

#undef __HBASE_GLIB_INSIDE__

#endif /* HBASE_GLIB_THRIFT_H */
