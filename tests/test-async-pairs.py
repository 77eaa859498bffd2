#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks that every public function taking a GCancellable (a call that
may block on the network) has an _async/_finish pair, so that code on a
main loop never has to block it.  Reads the public headers of
include/hbase-glib/ (not the generated layer's) and prints TAP: one test
per blocking function.

Run from the source tree, or with $top_srcdir set."""
import os
import re
import sys

# The generated Thrift layer keeps the generator's synchronous API.
GENERATED = ("hbase-glib-thrift.h", "hbase-client-thrift.h", "hbase-error-thrift.h")


def declarations(text):
    """(name, parameters) of each function declared in a header's text."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"^\s*#.*?(?<!\\)$", " ", text, flags=re.M | re.S)
    for statement in text.split(";"):
        statement = " ".join(statement.split())
        # typedefs, and the deprecated names kept for one release (their
        # replacements have the pairs)
        if "typedef" in statement or "G_GNUC_DEPRECATED" in statement:
            continue
        match = re.search(r"\b(hbase_\w+)\s*\((.*)\)[^()]*$", statement)
        if match:
            yield match.group(1), match.group(2)


def main():
    top = os.environ.get("top_srcdir", os.path.join(os.path.dirname(__file__), ".."))
    include = os.path.join(top, "include", "hbase-glib")
    functions = {}
    for name in sorted(os.listdir(include)):
        if not name.endswith(".h") or name in GENERATED:
            continue
        with open(os.path.join(include, name), encoding="utf-8") as header:
            for function, parameters in declarations(header.read()):
                functions[function] = (name, parameters)
    blocking = sorted(f for f, (_, p) in functions.items()
                      if "GCancellable" in p and not f.endswith(("_async", "_finish")))
    if not blocking:
        print("1..0 # no public function takes a GCancellable: the headers were not read")
        return 1
    print("1..%d" % len(blocking))
    failed = 0
    for n, function in enumerate(blocking, 1):
        # a GArray form for bindings (hbase_zset_add_array) shares the pair
        # of the call it stands for, whose async forms take GArrays already
        base = function[:-len("_array")] if function.endswith("_array") else function
        missing = [f for f in (base + "_async", base + "_finish") if f not in functions]
        header = functions[function][0]
        if missing:
            failed += 1
            print("not ok %d - %s (%s): no %s" % (n, function, header, " or ".join(missing)))
        else:
            print("ok %d - %s has _async and _finish" % (n, function))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
