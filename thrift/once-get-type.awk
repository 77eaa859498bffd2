# SPDX-License-Identifier: Apache-2.0
# once-get-type.awk: make the get_type() functions thrift 0.17's c_glib
# generator writes thread-safe.
#
# Each generated struct, exception and service-interface type registers
# itself with
#
#   static GType type = 0;
#   if (type == 0)
#   {
#     static const GTypeInfo type_info = { ... };
#     type = g_type_register_static (PARENT, "Name", &type_info, 0);
#   }
#   return type;
#
# which is a data race: two threads making their first use of a type at the
# same time both register it, GObject warns "cannot register existing type"
# and the loser goes on with type 0 (critical warnings, then a crash: 2 of 3
# runs of `bench-table --workloads getN --warmup 0` before this fix).  This
# rewrites every such function to the g_once_init_enter()/leave() idiom
# G_DEFINE_TYPE uses, which also protects applications that call the
# generated layer directly:
#
#   static gsize type_once = 0;
#   if (g_once_init_enter (&type_once))
#   {
#     static const GTypeInfo type_info = { ... };
#     GType type = g_type_register_static (PARENT, "Name", &type_info, 0);
#     g_once_init_leave (&type_once, type);
#   }
#   return (GType) type_once;
#
# Every step must match exactly once per function; anything else (a
# generator whose output changed) fails the build instead of leaving a
# racy function behind.

function fail(message) {
  print "once-get-type.awk: " FILENAME ":" FNR ": " message > "/dev/stderr"
  failed = 1
  exit 1
}

# state: 0 outside, 1 saw the static, 2 inside the if, 3 registered
# (waiting for the if's closing brace), 4 waiting for the return
/^[a-z0-9_]+_get_type \(void\)$/ {
  if (state != 0)
    fail("get_type function inside another one")
  in_function = 1
  print
  next
}
in_function && state == 0 && /^  static GType type = 0;$/ {
  print "  static gsize type_once = 0;   /* thrift/once-get-type.awk */"
  state = 1
  next
}
state == 1 && /^  if \(type == 0\) *$/ {
  print "  if (g_once_init_enter (&type_once))"
  state = 2
  next
}
state == 2 && /^    type = g_type_register_static \(/ {
  sub(/^    type = /, "    GType type = ")
  print
  state = 3
  next
}
state == 3 && /^  }$/ {
  print "    g_once_init_leave (&type_once, type);"
  print
  state = 4
  next
}
state == 4 && /^  return type;$/ {
  print "  return (GType) type_once;"
  state = 0
  in_function = 0
  fixed++
  next
}
state != 0 && /^}$/ {
  fail("get_type function ends before it was rewritten (state " state ")")
}
in_function && state == 0 && /^}$/ {
  # a get_type of another shape (none in 0.17's output): must not be racy
  in_function = 0
}
/static GType/ {
  fail("a static GType the rewrite does not know: " $0)
}
{ print }
END {
  if (failed)
    exit 1
  if (state != 0)
    fail("file ends inside a get_type function")
  if (fixed == 0) {
    print "once-get-type.awk: " FILENAME ": no generated get_type function found" > "/dev/stderr"
    exit 1
  }
}
