#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that the committed .proto files are the jar's copies.

usage: check-protos.py JAR PROTO...

Each PROTO (e.g. proto/Client.proto) is compared byte for byte with the file
of the same name at the root of JAR (hbase-protocol-shaded), after removing
only the two lines we add at the top: the SPDX line and the line saying where
the file came from.

A PROTO whose second line says it was picked from a file of the jar (e.g.
proto/MasterAdmin.proto, a few messages of Master.proto, whose whole import
closure is far larger) is checked piece by piece against that file: every
top-level message and enum must be byte for byte the jar's block of the same
name, every rpc of a service must be one the jar's service of the same name
declares with the same request and response, and every other line (the
licence, syntax, package, options, imports, comments) must be a line the
jar's file has outside its blocks.

Exit status 0 when every file matches, 1 with one message per difference
otherwise.
"""
import difflib
import os
import re
import sys
import zipfile

SPDX = "// SPDX-License-Identifier: Apache-2.0\n"
ORIGIN = "// Copied from %s at the root of org.apache.hbase:hbase-protocol-shaded:2.6.1-hadoop3 (jar); otherwise unchanged.\n"


PICKED = "// Picked from %s at the root of org.apache.hbase:hbase-protocol-shaded:2.6.1-hadoop3 (jar): these messages and rpcs, each unchanged.\n"
PICKED_RE = re.compile(r"^// Picked from (\S+\.proto) at the root of ")
BLOCK = re.compile(r"^(message|enum|service)\s+(\w+)\s*\{")
RPC = re.compile(r"\brpc\s+(\w+)\s*\(\s*(\w+)\s*\)\s*returns\s*\(\s*(\w+)\s*\)")


def split_blocks(lines):
    """Top-level blocks (name -> (kind, lines)) and the lines outside them."""
    blocks, outside, i = {}, [], 0
    while i < len(lines):
        match = BLOCK.match(lines[i])
        if not match:
            outside.append(lines[i])
            i += 1
            continue
        j = i
        if not lines[i].rstrip().endswith("}"):
            j += 1
            while j < len(lines) and lines[j].rstrip() != "}":
                j += 1
        if match.group(2) in blocks:
            raise ValueError("block %s twice" % match.group(2))
        blocks[match.group(2)] = (match.group(1), lines[i:j + 1])
        i = j + 1
    return blocks, outside


def check_picked(path, lines, source, theirs):
    """Messages of lines[2:] picked from the jar's file source (its lines
    theirs); returns the differences."""
    problems = []
    try:
        ours_blocks, ours_outside = split_blocks(lines[2:])
        their_blocks, their_outside = split_blocks(theirs)
    except ValueError as e:
        return ["%s: %s" % (path, e)]
    allowed = set(their_outside)
    for line in ours_outside:
        if line not in allowed:
            problems.append("%s: line not in %s outside its blocks: %s" % (path, source, line.rstrip()))
    for name, (kind, block) in ours_blocks.items():
        if name not in their_blocks or their_blocks[name][0] != kind:
            problems.append("%s: %s %s is not in %s" % (path, kind, name, source))
        elif kind != "service":
            if block != their_blocks[name][1]:
                problems.append("%s: %s %s differs from %s's:" % (path, kind, name, source))
                problems.extend(l.rstrip("\n") for l in difflib.unified_diff(
                    their_blocks[name][1], block, "jar/" + source, path, n=0))
        else:
            declared = set(RPC.findall("".join(their_blocks[name][1])))
            rpcs = RPC.findall("".join(block))
            if not rpcs:
                problems.append("%s: service %s declares no rpc" % (path, name))
            for rpc in rpcs:
                if rpc not in declared:
                    problems.append("%s: rpc %s(%s) returns(%s) is not in %s's service %s"
                                    % ((path,) + rpc + (source, name)))
    return problems


def ours_without_header(path):
    with open(path, encoding="utf-8") as f:
        lines = f.readlines()
    name = os.path.basename(path)
    if lines[:2] != [SPDX, ORIGIN % name]:
        raise ValueError("%s: the first two lines are not the SPDX line and the origin line" % path)
    return lines[2:]


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    failed = False
    with zipfile.ZipFile(argv[1]) as jar:
        names = set(jar.namelist())
        for path in argv[2:]:
            name = os.path.basename(path)
            with open(path, encoding="utf-8") as f:
                lines = f.readlines()
            picked = PICKED_RE.match(lines[1]) if len(lines) > 1 else None
            if picked:
                source = picked.group(1)
                if lines[:2] != [SPDX, PICKED % source] or source not in names:
                    print("%s: the first two lines are not the SPDX line and a picked-from line "
                          "naming a file of the jar" % path)
                    failed = True
                    continue
                theirs = jar.read(source).decode("utf-8").splitlines(keepends=True)
                problems = check_picked(path, lines, source, theirs)
                for problem in problems:
                    print(problem)
                failed = failed or bool(problems)
                continue
            try:
                ours = ours_without_header(path)
            except ValueError as e:
                print(e)
                failed = True
                continue
            if name not in names:
                print("%s: no %s in %s" % (path, name, argv[1]))
                failed = True
                continue
            theirs = jar.read(name).decode("utf-8").splitlines(keepends=True)
            if ours != theirs:
                failed = True
                print("%s differs from %s in the jar:" % (path, name))
                for line in difflib.unified_diff(theirs, ours, "jar/" + name, path, n=0):
                    sys.stdout.write(line if line.endswith("\n") else line + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
