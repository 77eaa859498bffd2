/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-write-buffer-private.h: what tests read of an HBaseWriteBuffer
 * beyond its public API. */
#ifndef HBASE_WRITE_BUFFER_PRIVATE_H
#define HBASE_WRITE_BUFFER_PRIVATE_H

#include <hbase-glib/hbase-write-buffer.h>

G_BEGIN_DECLS

/* The highest estimated size of the mutations @buffer held at once (those
 * waiting for a flush and those of batches taken and not yet written), as
 * compared with max_bytes. */
gsize _hbase_write_buffer_get_peak_held_bytes (HBaseWriteBuffer *buffer);

G_END_DECLS

#endif /* HBASE_WRITE_BUFFER_PRIVATE_H */
