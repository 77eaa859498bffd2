#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Check that the committed .proto files are the jar's copies.

usage: check-protos.py JAR PROTO...

Each PROTO (e.g. proto/Client.proto) is compared byte for byte with the file
of the same name at the root of JAR (hbase-protocol-shaded), after removing
only the two lines we add at the top: the SPDX line and the line saying where
the file came from.  Exit status 0 when every file matches, 1 with one
message per difference otherwise.
"""
import difflib
import os
import sys
import zipfile

SPDX = "// SPDX-License-Identifier: Apache-2.0\n"
ORIGIN = "// Copied from %s at the root of org.apache.hbase:hbase-protocol-shaded:2.6.1-hadoop3 (jar); otherwise unchanged.\n"


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
