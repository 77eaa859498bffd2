/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the generated layer as the build ships it: objects free
 * everything they own, and the g_autoptr() cleanups exist. */
#include "config.h"

#include <hbase-glib/hbase-glib-thrift.h>

static void
mark_destroyed (gpointer data)
{
  *(gboolean *) data = TRUE;
}

/* GObject's own finalize must run for generated objects: it is what frees
 * qdata (thrift/chain-up-finalize.awk adds the missing chain-up). */
static void
check_finalize_chains_up (GType type)
{
  gboolean destroyed = FALSE;
  GObject *object = g_object_new (type, NULL);

  g_object_set_data_full (object, "probe", &destroyed, mark_destroyed);
  g_object_unref (object);
  g_assert_true (destroyed);
}

static void
test_finalize_chains_up (void)
{
  GType types[] = {
    HBASE_THRIFT_TYPE_T_GET, HBASE_THRIFT_TYPE_T_PUT, HBASE_THRIFT_TYPE_T_SCAN,
    HBASE_THRIFT_TYPE_T_RESULT, HBASE_THRIFT_TYPE_T_COLUMN_VALUE, HBASE_THRIFT_TYPE_T_DELETE,
    HBASE_THRIFT_TYPE_T_TABLE_DESCRIPTOR, HBASE_THRIFT_TYPE_T_I_O_ERROR,
    HBASE_THRIFT_TYPE_T_ILLEGAL_ARGUMENT,
  };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    check_finalize_chains_up (types[i]);
}

static void
test_properties_set_fields (void)
{
  g_autoptr(GByteArray) row = g_byte_array_new ();
  g_autoptr(HbaseThriftTGet) get = NULL;

  g_byte_array_append (row, (const guint8 *) "r\0w", 3);
  get = g_object_new (HBASE_THRIFT_TYPE_T_GET, "row", row, "maxVersions", 3, NULL);
  g_assert_true (get->row == row);   /* the boxed property takes a reference */
  g_assert_cmpuint (get->row->len, ==, 3);
  g_assert_cmpint (get->maxVersions, ==, 3);
  g_assert_true (get->__isset_maxVersions);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/thrift/generated/finalize-chains-up", test_finalize_chains_up);
  g_test_add_func ("/thrift/generated/properties-set-fields", test_properties_set_fields);
  return g_test_run ();
}
