#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the introspection data the build made (HBase-1.0.gir): the
scanner reported no warning with --warn-all, and every public symbol in
it is documented and says since which version it exists.  Prints TAP.

Reads $top_builddir/HBase-1.0.gir and the scanner's output next to it
(HBase-1.0.gir.log, written by src/gir.mk); HBASE_GIR and HBASE_GIR_LOG
name other files."""
import os
import sys
import xml.etree.ElementTree as ET

NS = {"c": "http://www.gtk.org/introspection/core/1.0",
      "glib": "http://www.gtk.org/introspection/glib/1.0",
      "cid": "http://www.gtk.org/introspection/c/1.0"}
CORE = "{%s}" % NS["c"]
# Elements that are public symbols of their own (members, fields and
# parameters are documented inside their parent's comment).
SYMBOLS = ("class", "record", "enumeration", "bitfield", "callback",
           "function", "method", "constructor", "constant", "alias",
           "interface", "union", "property", "glib:signal")


def tag_of(name):
    prefix, _, local = name.partition(":")
    return ("{%s}%s" % (NS[prefix], local)) if local else CORE + name


def symbols(namespace):
    """(kind, name) of every public symbol, outermost first."""
    def walk(element, owner):
        for child in element:
            kind = next((k for k in SYMBOLS if child.tag == tag_of(k)), None)
            if kind is None:
                continue
            if child.get("introspectable") == "0" or child.get("moved-to"):
                continue
            # a class struct of a GObject (HBaseClientClass) is no API of
            # its own; a union or record inside a record is a field
            if child.get("{%s}is-gtype-struct-for" % NS["glib"]):
                continue
            if owner and kind in ("union", "record"):
                continue
            name = child.get("{%s}identifier" % NS["cid"]) or child.get("name")
            yield kind, (owner + "." if owner and kind in ("property", "glib:signal") else "") + name, child
            yield from walk(child, name)
    yield from walk(namespace, "")


def main():
    builddir = os.environ.get("top_builddir", ".")
    gir = os.environ.get("HBASE_GIR") or os.path.join(builddir, "HBase-1.0.gir")
    log = os.environ.get("HBASE_GIR_LOG") or gir + ".log"
    if not os.path.exists(gir):
        print("1..0 # SKIP the build made no .gir (configure --disable-introspection)")
        return 0
    tests = []
    with open(log, encoding="utf-8", errors="replace") as scanner_output:
        warnings = sorted({line.rstrip() for line in scanner_output
                           if "Warning:" in line or "warning:" in line})
    tests.append(("g-ir-scanner --warn-all reported no warning", warnings))
    namespace = ET.parse(gir).getroot().find("c:namespace", NS)
    all_symbols = list(symbols(namespace))
    undocumented = ["%s %s" % (kind, name) for kind, name, element in all_symbols
                    if element.find("c:doc", NS) is None]
    unversioned = ["%s %s" % (kind, name) for kind, name, element in all_symbols
                   if element.get("version") is None
                   and kind not in ("property", "glib:signal", "alias")]
    tests.append(("every public symbol is documented (%d symbols)" % len(all_symbols), undocumented))
    # (g-ir-scanner writes no version for a typedef alias, whatever its
    # comment says: aliases are checked in the headers by reading them)
    tests.append(("every public symbol has a Since: version", unversioned))
    # the error enum stays paired with its quark (bindings map GError codes by it)
    domains = {element.get("name"): element.get("{%s}error-domain" % NS["glib"])
               for element in namespace.findall("c:enumeration", NS)}
    unpaired = ["enumeration Error: glib:error-domain is %r" % domains.get("Error")] \
        if domains.get("Error") != "HBaseError" else []
    tests.append(("HBase.Error is the error domain HBaseError", unpaired))
    print("1..%d" % len(tests))
    failed = 0
    for number, (name, problems) in enumerate(tests, 1):
        print("%s %d - %s" % ("not ok" if problems else "ok", number, name))
        for problem in problems[:50]:
            print("#   " + problem)
        if len(problems) > 50:
            print("#   ... and %d more" % (len(problems) - 50))
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
