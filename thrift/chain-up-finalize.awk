# SPDX-License-Identifier: Apache-2.0
# chain-up-finalize.awk: fix the finalizers thrift 0.17's c_glib generator
# writes for structs and exceptions.
#
# Each generated X_finalize() frees the struct's fields but never chains up
# to the parent class, so GObject's own finalize does not run: qdata, and
# with it GObject's notify queue, is leaked for every object built with
# properties (g_object_new (TYPE, "row", row, NULL)).  This adds the chain-up
# to the static parent of X's own type (safe for subclasses too).  Fails if
# it finds no finalizer to fix, so a generator that changes its output is
# noticed.
/^[a-z0-9_]+_finalize \(GObject \*object\)$/ {
  prefix = $1
  sub(/_finalize$/, "", prefix)
  inside = 1
}
inside && /^}$/ {
  print "  /* added by thrift/chain-up-finalize.awk */"
  print "  G_OBJECT_CLASS (g_type_class_peek_parent (g_type_class_peek (" prefix "_get_type ())))->finalize (object);"
  inside = 0
  fixed++
}
{ print }
END {
  if (fixed == 0) {
    print "chain-up-finalize.awk: no generated finalizer found" > "/dev/stderr"
    exit 1
  }
}
