# SPDX-License-Identifier: Apache-2.0
# binary-map-keys.awk: fix how thrift 0.17's c_glib generator hashes the
# keys of a map whose keys are binary (map<binary, ...>: the attributes of
# gets, puts, scans and column families and tables).
#
# Such a key is a GByteArray, yet the generated struct makes its hash
# table with g_str_hash/g_str_equal, which read the GByteArray struct
# itself as a C string (its data pointer's bytes up to the first zero).
# Two keys then compare equal whenever both pointers end in a zero byte
# (about one time in sixteen), and reading a map silently merged entries:
# a table description read and sent back to the gateway came back with
# one family setting's value under another's name (HBase then failed to
# open the region).  This hashes and compares the keys' bytes.  Fails if
# it changes nothing, so a generator that changes its output is noticed.
{
  fixed += gsub(/g_hash_table_new_full \(g_str_hash, g_str_equal, thrift_string_free,/,
                "g_hash_table_new_full (hbase_thrift_binary_hash, hbase_thrift_binary_equal, thrift_string_free,")
  print
  if (!declared && $0 == "#include <thrift/c_glib/thrift.h>") {
    print "#include <string.h>"
    print ""
    print "/* The keys of binary-keyed maps are GByteArrays: hashed and compared by"
    print " * their bytes (added by thrift/binary-map-keys.awk). */"
    print "static guint"
    print "hbase_thrift_binary_hash (gconstpointer key)"
    print "{"
    print "  const GByteArray *bytes = key;"
    print "  guint hash = 5381;"
    print ""
    print "  for (guint i = 0; i < bytes->len; i++)"
    print "    hash = hash * 33 + bytes->data[i];"
    print "  return hash;"
    print "}"
    print ""
    print "static gboolean"
    print "hbase_thrift_binary_equal (gconstpointer a, gconstpointer b)"
    print "{"
    print "  const GByteArray *x = a, *y = b;"
    print ""
    print "  return x->len == y->len && (x->len == 0 || memcmp (x->data, y->data, x->len) == 0);"
    print "}"
    declared = 1
  }
}
END {
  if (!declared || fixed == 0) {
    print "binary-map-keys.awk: no binary-keyed map made with g_str_hash (or no '#include <thrift/c_glib/thrift.h>' line) found" > "/dev/stderr"
    exit 1
  }
}
