# SPDX-License-Identifier: Apache-2.0
# free-byte-arrays.awk: fix how thrift 0.17's c_glib generator frees a
# binary field that a struct's reader meets a second time.
#
# Before reading a field the generated X_read() frees the value a previous
# occurrence of the same field left, with g_free() whatever its type; a
# binary field is a GByteArray, which GLib allocates with its slice
# allocator, so a reply that repeats a binary field (a broken or hostile
# gateway) made the client free memory malloc() never gave (a crash or
# heap corruption) and leak the bytes.  This frees such a field with
# g_byte_array_unref(): a g_free (this_object->F) is changed when the
# lines after it set this_object->F = g_byte_array_new ().  Fails if it
# changes nothing, so a generator that changes its output is noticed.
{ line[NR] = $0 }
END {
  for (i = 1; i <= NR; i++) {
    if (match(line[i], /g_free\(this_object->[A-Za-z0-9_]+\);/)) {
      field = substr(line[i], RSTART + 20, RLENGTH - 22)
      for (j = i + 1; j <= NR && j <= i + 20; j++)
        if (index(line[j], "this_object->" field " = g_byte_array_new();") > 0) {
          sub(/g_free\(this_object->/, "g_byte_array_unref(this_object->", line[i])
          fixed++
          break
        }
    }
    print line[i]
  }
  if (fixed == 0) {
    print "free-byte-arrays.awk: no binary field freed with g_free() found" > "/dev/stderr"
    exit 1
  }
}
