#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare two Thrift IDL files for differences that matter on the wire.

usage: check-idl.py OURS.thrift THEIRS.thrift   (THEIRS may be a .jar: the
       Thrift2 IDL is then read from org/apache/hadoop/hbase/thrift2/)

Both files are parsed by the real Thrift compiler (`thrift --gen json`), so
the comparison sees what code generators see.  Compared: every service method
(name, return type, oneway, argument ids and types, exception ids and types),
every struct, union and exception (field ids, types, requiredness, defaults)
and every enum (names and values).  Ignored: comments, namespaces, argument
and field names (not sent on the wire; a renamed field is reported as a note).
Exit status 0 when equivalent, 1 with one line per difference otherwise.
"""
import json
import os
import subprocess
import sys
import tempfile
import zipfile

JAR_IDL = "org/apache/hadoop/hbase/thrift2/hbase.thrift"


def load(path, workdir):
    if path.endswith(".jar"):
        with zipfile.ZipFile(path) as jar:
            data = jar.read(JAR_IDL)
        path = os.path.join(workdir, "jar-hbase.thrift")
        with open(path, "wb") as f:
            f.write(data)
    out = tempfile.mkdtemp(dir=workdir)
    run = subprocess.run(["thrift", "--gen", "json", "-out", out, path],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if run.returncode != 0:
        raise SystemExit("thrift could not parse %s:\n%s" % (path, run.stdout))
    (name,) = os.listdir(out)
    with open(os.path.join(out, name)) as f:
        return json.load(f)


def typ(t):
    """A type as a comparable string; i8 and byte are one type."""
    if isinstance(t, str):
        return {"byte": "i8"}.get(t, t)
    tid = t.get("typeId")
    if tid in ("struct", "union", "exception", "enum"):
        return "%s %s" % (tid, t["class"])
    if tid == "list" or tid == "set":
        return "%s<%s>" % (tid, typ(t["elemType"] if "elemType" in t else t["elemTypeId"]))
    if tid == "map":
        return "map<%s,%s>" % (typ(t.get("keyType", t.get("keyTypeId"))),
                               typ(t.get("valueType", t.get("valueTypeId"))))
    return typ(tid)


def field_type(f):
    return typ(f["type"]) if "type" in f else typ(f["typeId"])


def fields(items, what, diffs, notes, ours, theirs):
    a = {f["key"]: f for f in ours}
    b = {f["key"]: f for f in theirs}
    for key in sorted(set(a) | set(b)):
        if key not in a:
            diffs.append("%s: field %d (%s) missing in ours" % (what, key, b[key]["name"]))
            continue
        if key not in b:
            diffs.append("%s: field %d (%s) not in the gateway's IDL" % (what, key, a[key]["name"]))
            continue
        fa, fb = a[key], b[key]
        if field_type(fa) != field_type(fb):
            diffs.append("%s: field %d type %s, gateway has %s" % (what, key, field_type(fa), field_type(fb)))
        if items == "struct" and fa.get("required") != fb.get("required"):
            diffs.append("%s: field %d is %s, gateway has %s" % (what, key, fa.get("required"), fb.get("required")))
        if fa.get("default") != fb.get("default"):
            diffs.append("%s: field %d default %r, gateway has %r" % (what, key, fa.get("default"), fb.get("default")))
        if fa["name"] != fb["name"]:
            notes.append("%s: field %d named %s, gateway has %s" % (what, key, fa["name"], fb["name"]))


def compare(ours, theirs):
    diffs, notes = [], []

    ea = {e["name"]: e for e in ours["enums"]}
    eb = {e["name"]: e for e in theirs["enums"]}
    for name in sorted(set(ea) | set(eb)):
        if name not in ea or name not in eb:
            diffs.append("enum %s only in %s" % (name, "the gateway's IDL" if name in eb else "ours"))
            continue
        va = {m["name"]: m["value"] for m in ea[name]["members"]}
        vb = {m["name"]: m["value"] for m in eb[name]["members"]}
        if va != vb:
            diffs.append("enum %s: %s, gateway has %s" % (name, va, vb))

    sa = {s["name"]: s for s in ours["structs"]}
    sb = {s["name"]: s for s in theirs["structs"]}
    for name in sorted(set(sa) | set(sb)):
        if name not in sa or name not in sb:
            diffs.append("struct %s only in %s" % (name, "the gateway's IDL" if name in sb else "ours"))
            continue
        for flag in ("isException", "isUnion"):
            if sa[name][flag] != sb[name][flag]:
                diffs.append("struct %s: %s differs" % (name, flag))
        fields("struct", "struct " + name, diffs, notes, sa[name]["fields"], sb[name]["fields"])

    sva = {s["name"]: s for s in ours["services"]}
    svb = {s["name"]: s for s in theirs["services"]}
    for sname in sorted(set(sva) | set(svb)):
        if sname not in sva or sname not in svb:
            diffs.append("service %s only in %s" % (sname, "the gateway's IDL" if sname in svb else "ours"))
            continue
        ma = {m["name"]: m for m in sva[sname]["functions"]}
        mb = {m["name"]: m for m in svb[sname]["functions"]}
        for m in sorted(set(ma) | set(mb)):
            if m not in ma:
                diffs.append("method %s missing in ours" % m)
                continue
            if m not in mb:
                diffs.append("method %s is not in the gateway's IDL" % m)
                continue
            a, b = ma[m], mb[m]
            ra = typ(a.get("returnType", a["returnTypeId"]))
            rb = typ(b.get("returnType", b["returnTypeId"]))
            if ra != rb:
                diffs.append("method %s returns %s, gateway has %s" % (m, ra, rb))
            if a["oneway"] != b["oneway"]:
                diffs.append("method %s: oneway differs" % m)
            fields("args", "method %s argument" % m, diffs, notes, a["arguments"], b["arguments"])
            fields("args", "method %s exception" % m, diffs, notes, a["exceptions"], b["exceptions"])
    return diffs, notes


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with tempfile.TemporaryDirectory() as work:
        ours, theirs = load(argv[1], work), load(argv[2], work)
    diffs, notes = compare(ours, theirs)
    for n in notes:
        print("note: " + n)
    for d in diffs:
        print("DIFFERENT: " + d)
    methods = sum(len(s["functions"]) for s in theirs["services"])
    if diffs:
        print("%d wire-level differences between %s and %s" % (len(diffs), argv[1], argv[2]))
        return 1
    print("equivalent on the wire: %d methods, %d structs, %d enums" %
          (methods, len(theirs["structs"]), len(theirs["enums"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
