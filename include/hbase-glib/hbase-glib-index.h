/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-glib-index.h: the one header programs using the Redis secondary
 * index include (library libhbase-glib-index-1.0, pkg-config
 * hbase-glib-index-1.0).  It includes <hbase-glib/hbase-glib.h>. */
#ifndef HBASE_GLIB_INDEX_H
#define HBASE_GLIB_INDEX_H

#include <hbase-glib/hbase-glib.h>

#define __HBASE_GLIB_INDEX_INSIDE__

#include <hbase-glib/hbase-index.h>
#include <hbase-glib/hbase-index-query.h>
#include <hbase-glib/hbase-index-enum-types.h>

#undef __HBASE_GLIB_INDEX_INSIDE__

#endif /* HBASE_GLIB_INDEX_H */
