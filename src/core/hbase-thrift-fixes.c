/* SPDX-License-Identifier: Apache-2.0 */
/* hbase-thrift-fixes.c: repairs for libthrift_c_glib 0.17 types the
 * generated code uses (see thrift/fix-application-exception.sed). */
#include "config.h"

#include <thrift/c_glib/thrift_application_exception.h>

GType _hbase_application_exception_get_type (void);

/* ThriftApplicationException whose finalization runs GObject's too. */
typedef ThriftApplicationException HBaseApplicationException;
typedef ThriftApplicationExceptionClass HBaseApplicationExceptionClass;

G_DEFINE_TYPE (HBaseApplicationException, _hbase_application_exception,
               THRIFT_TYPE_APPLICATION_EXCEPTION)

static void
_hbase_application_exception_finalize (GObject *object)
{
  /* libthrift's own finalize frees the message and stops there (configure
   * pins libthrift 0.17, where it does not chain up); GObject's finalize,
   * the one it skips, frees qdata and the notify queue. */
  G_OBJECT_CLASS (_hbase_application_exception_parent_class)->finalize (object);
  G_OBJECT_CLASS (g_type_class_peek (G_TYPE_OBJECT))->finalize (object);
}

static void
_hbase_application_exception_class_init (HBaseApplicationExceptionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = _hbase_application_exception_finalize;
}

static void
_hbase_application_exception_init (HBaseApplicationException *self)
{
}
