/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-native-replies.h (private): what the native client makes of the
 * replies of the registry (ClientMetaService) and of hbase:meta, as pure
 * functions of the decoded messages, so that tests and the fuzz harness
 * can feed them any reply without a server. */
#ifndef HBASE_NATIVE_REPLIES_H
#define HBASE_NATIVE_REPLIES_H

#include <glib.h>

#include "hbase-native-client.h"
#include "Registry.pb-c.h"

G_BEGIN_DECLS

/* hbase:meta's location from a GetMetaRegionLocations reply of the
 * bootstrap server @address (for messages): the first default replica
 * with a server; NULL with HBASE_ERROR_SERVER when there is none. */
HBaseNativeRegion *_hbase_native_meta_from_locations (const Hbase__Pb__GetMetaRegionLocationsResponse *locations,
                                                      const char *address,
                                                      GError    **error);

/* "host:port" of the active master from a GetActiveMaster reply of
 * @address; NULL with HBASE_ERROR_SERVER (PleaseHoldException: worth
 * asking again) when it names none. */
char              *_hbase_native_master_from_reply   (const Hbase__Pb__GetActiveMasterResponse *active,
                                                      const char *address,
                                                      GError    **error);

/* The region of @table holding @key, from @row, one row of hbase:meta
 * (info:regioninfo "PBUF" + RegionInfo, info:server "host:port").
 * HBASE_ERROR_PROTOCOL when the row is malformed, HBASE_ERROR_NOT_FOUND
 * when it is of another table, HBASE_ERROR_SERVER when the region is
 * offline, does not hold @key or has no server. */
HBaseNativeRegion *_hbase_native_region_from_meta_row (HBaseNativeRow *row,
                                                       const char     *table,
                                                       GBytes         *key,
                                                       GError        **error);

G_END_DECLS

#endif /* HBASE_NATIVE_REPLIES_H */
