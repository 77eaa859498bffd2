#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the shape every C file of the project keeps (docs/architecture.md):
an SPDX licence line first, then an opening comment that says what the
file is for, and at most about 900 lines unless that opening comment has
a `Long because:` line saying why the file is better whole.  Prints TAP:
one test per rule, naming the files that break it."""
import os
import re
import sys

top = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FOLDERS = ("src", "include", "tools", "tests", "examples", "bench")
MAX_LINES = 900


def c_files():
    for base in FOLDERS:
        for root, _, files in os.walk(os.path.join(top, base)):
            for name in sorted(files):
                if name.endswith((".c", ".h", ".h.in")):
                    yield os.path.relpath(os.path.join(root, name), top)


def opening_comment(lines):
    """The text of the first comment after the SPDX line, or None."""
    text = "".join(lines[1:60])
    match = re.match(r"\s*/\*(.*?)\*/", text, re.S)
    return match.group(1) if match else None


def main():
    no_spdx, no_comment, too_long = [], [], []
    for path in sorted(c_files()):
        with open(os.path.join(top, path), encoding="utf-8", errors="replace") as source:
            lines = source.readlines()
        if not lines or "SPDX-License-Identifier: Apache-2.0" not in lines[0]:
            no_spdx.append(path)
        comment = opening_comment(lines)
        if comment is None or len(comment.split()) < 4:
            no_comment.append(path)
        if len(lines) > MAX_LINES and (comment is None or "Long because:" not in comment):
            too_long.append("%s (%d lines)" % (path, len(lines)))
    checks = [
        (no_spdx, "every C file starts with its SPDX-License-Identifier line"),
        (no_comment, "every C file opens with a comment saying what it is for"),
        (too_long, "no C file over %d lines without a 'Long because:' line in its opening comment"
         % MAX_LINES),
    ]
    print("1..%d" % len(checks))
    for number, (offenders, name) in enumerate(checks, 1):
        print("%s %d - %s" % ("not ok" if offenders else "ok", number, name))
        for offender in offenders:
            print("# " + offender)
    return 1 if any(offenders for offenders, _ in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
