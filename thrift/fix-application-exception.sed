# SPDX-License-Identifier: Apache-2.0
# fix-application-exception.sed: make the generated service code create
# hbase-glib's subclass of ThriftApplicationException.
#
# libthrift_c_glib 0.17's ThriftApplicationException finalize never chains
# up to GObject's, so every exception the gateway answers with (a malformed
# filter, an unknown method) leaked GObject's notify queue, 48 bytes.  The
# subclass (src/core/hbase-thrift-fixes.c) finishes the finalization.
s/THRIFT_TYPE_APPLICATION_EXCEPTION/_hbase_application_exception_get_type ()/g
/^#include "hbase_thrift_t_h_base_service.h"$/a\
GType _hbase_application_exception_get_type (void);
