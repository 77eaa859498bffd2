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

/* The exception's fields, read here: libthrift's reader overwrites the
 * message of a reply that repeats field 1 without freeing the first one. */
static gint32
_hbase_application_exception_read (ThriftStruct *object, ThriftProtocol *protocol, GError **error)
{
  ThriftApplicationException *self = (ThriftApplicationException *) object;
  gchar *name = NULL;
  gint32 xfer = 0, ret;

  if ((ret = thrift_protocol_read_struct_begin (protocol, &name, error)) < 0)
    return -1;
  g_clear_pointer (&name, g_free);
  xfer += ret;
  for (;;)
    {
      ThriftType type;
      gint16 id;

      if ((ret = thrift_protocol_read_field_begin (protocol, &name, &type, &id, error)) < 0)
        return -1;
      g_clear_pointer (&name, g_free);
      xfer += ret;
      if (type == T_STOP)
        break;
      if (id == 1 && type == T_STRING)
        {
          g_clear_pointer (&self->message, g_free);
          ret = thrift_protocol_read_string (protocol, &self->message, error);
          self->__isset_message = ret >= 0;
        }
      else if (id == 2 && type == T_I32)
        {
          ret = thrift_protocol_read_i32 (protocol, &self->type, error);
          self->__isset_type = ret >= 0;
        }
      else
        ret = thrift_protocol_skip (protocol, type, error);
      if (ret < 0)
        return -1;
      xfer += ret;
      if ((ret = thrift_protocol_read_field_end (protocol, error)) < 0)
        return -1;
      xfer += ret;
    }
  if ((ret = thrift_protocol_read_struct_end (protocol, error)) < 0)
    return -1;
  return xfer + ret;
}

static void
_hbase_application_exception_class_init (HBaseApplicationExceptionClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = _hbase_application_exception_finalize;
  THRIFT_STRUCT_CLASS (klass)->read = _hbase_application_exception_read;
}

static void
_hbase_application_exception_init (HBaseApplicationException *self)
{
}
