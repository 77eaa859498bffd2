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
#
# The generated code reads an exception reply with its errors ignored
# (thrift_struct_read (..., NULL)) and then reports "application error:
# (null)" with whatever type the half-read struct holds; a malformed
# exception must fail the call with the protocol's own error instead.
s/^\( *\)thrift_struct_read (THRIFT_STRUCT (xception), protocol, NULL);$/\1if (thrift_struct_read (THRIFT_STRUCT (xception), protocol, error) < 0) { g_object_unref (xception); return FALSE; }/
