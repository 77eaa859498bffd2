/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the generated layer as the build ships it: objects free
 * everything they own, the g_autoptr() cleanups exist, and maps with
 * binary keys keep every key. */
#include "config.h"

#include <string.h>

#include <hbase-glib/hbase-glib-thrift.h>
#include <thrift/c_glib/protocol/thrift_binary_protocol.h>
#include <thrift/c_glib/transport/thrift_memory_buffer.h>

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

/* The n-th key: of varied lengths, so the arrays' data land at varied
 * addresses. */
static char *
key_text (guint n)
{
  return g_strdup_printf ("key-%03u-%.*s", n, (int) (n % 37), "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
}

static GByteArray *
key_bytes (const char *text)
{
  GByteArray *bytes = g_byte_array_new ();

  g_byte_array_append (bytes, (const guint8 *) text, (guint) strlen (text));
  return bytes;
}

/* A family's attributes (map<binary, binary>): distinct keys stay
 * distinct, equal bytes are one key, and a write and a read give the
 * same map (the generator hashed the GByteArray structs as C strings, so
 * about one key in sixteen merged with another). */
static void
test_binary_map_keys (void)
{
  g_autoptr(HbaseThriftTColumnFamilyDescriptor) family = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_FAMILY_DESCRIPTOR,
                                                                      NULL);
  g_autoptr(HbaseThriftTColumnFamilyDescriptor) read_back = g_object_new (HBASE_THRIFT_TYPE_T_COLUMN_FAMILY_DESCRIPTOR,
                                                                         NULL);
  /* kept for the whole run: libthrift 0.17's memory buffer does not chain
   * up its finalize, so releasing it leaks GObject's own data */
  static GObject *buffer, *protocol;
  g_autofree char *seventh = key_text (7);
  g_autoptr(GByteArray) probe = key_bytes (seventh);
  g_autoptr(GError) error = NULL;
  const guint n = 1024;

  if (buffer == NULL)
    {
      buffer = g_object_new (THRIFT_TYPE_MEMORY_BUFFER, "buf_size", 1 << 20, NULL);
      protocol = g_object_new (THRIFT_TYPE_BINARY_PROTOCOL, "transport", buffer, NULL);
    }
  g_clear_pointer (&family->name, g_byte_array_unref);
  family->name = key_bytes ("f");
  family->__isset_attributes = TRUE;
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *key = key_text (i);
      g_autofree char *value = g_strdup_printf ("value-%03u", i);

      g_hash_table_insert (family->attributes, key_bytes (key), key_bytes (value));
    }
  g_hash_table_insert (family->attributes, key_bytes (seventh), key_bytes ("again"));
  g_assert_cmpuint (g_hash_table_size (family->attributes), ==, n);
  g_assert_cmpmem (((GByteArray *) g_hash_table_lookup (family->attributes, probe))->data, 5, "again", 5);

  g_assert_cmpint (thrift_struct_write (THRIFT_STRUCT (family), THRIFT_PROTOCOL (protocol), &error), >, 0);
  g_assert_no_error (error);
  g_assert_cmpint (thrift_struct_read (THRIFT_STRUCT (read_back), THRIFT_PROTOCOL (protocol), &error), >, 0);
  g_assert_no_error (error);
  g_assert_cmpuint (g_hash_table_size (read_back->attributes), ==, n);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *key = key_text (i);
      g_autofree char *value = g_strdup_printf (i == 7 ? "again" : "value-%03u", i);
      g_autoptr(GByteArray) lookup = key_bytes (key);
      GByteArray *found = g_hash_table_lookup (read_back->attributes, lookup);

      g_assert_nonnull (found);
      g_assert_cmpmem (found->data, found->len, value, strlen (value));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/thrift/generated/finalize-chains-up", test_finalize_chains_up);
  g_test_add_func ("/thrift/generated/properties-set-fields", test_properties_set_fields);
  g_test_add_func ("/thrift/generated/binary-map-keys", test_binary_map_keys);
  return g_test_run ();
}
