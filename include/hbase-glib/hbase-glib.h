/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-glib.h: the one header applications include.
 *
 * hbase-glib is a GLib client for HBase through the Thrift2 gateway.  The
 * typed generated layer (HbaseThrift*) is in <hbase-glib/hbase-glib-thrift.h>,
 * the Redis secondary index in <hbase-glib/hbase-glib-index.h> (a library
 * of its own).
 */
#ifndef HBASE_GLIB_H
#define HBASE_GLIB_H

#define __HBASE_GLIB_INSIDE__

#include <hbase-glib/hbase-version.h>
#include <hbase-glib/hbase-error.h>
#include <hbase-glib/hbase-connection.h>
#include <hbase-glib/hbase-config.h>
#include <hbase-glib/hbase-client.h>
#include <hbase-glib/hbase-row.h>
#include <hbase-glib/hbase-mutation.h>
#include <hbase-glib/hbase-condition.h>
#include <hbase-glib/hbase-column.h>
#include <hbase-glib/hbase-table.h>
#include <hbase-glib/hbase-scanner.h>
#include <hbase-glib/hbase-write-buffer.h>
#include <hbase-glib/hbase-admin.h>
#include <hbase-glib/hbase-key-schema.h>
#include <hbase-glib/hbase-filter.h>
#include <hbase-glib/hbase-key-scanner.h>
#include <hbase-glib/hbase-set.h>
#include <hbase-glib/hbase-zset.h>
#include <hbase-glib/hbase-enum-types.h>

#undef __HBASE_GLIB_INSIDE__

#endif /* HBASE_GLIB_H */
