#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the shape every C file of the project keeps (docs/architecture.md):
an SPDX licence line first, then an opening comment that says what the
file is for, and at most about 900 lines unless that opening comment has
a `Long because:` line saying why the file is better whole.  Also that the
release version of configure.ac has its section in NEWS and is the version
of debian/changelog, so that a version bump comes with its notes.  Prints
TAP: one test per rule, naming the files that break it."""
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


def release_version():
    """The version configure.ac's m4_define lines make, e.g. "0.2.0"."""
    with open(os.path.join(top, "configure.ac"), encoding="utf-8") as configure:
        text = configure.read()
    parts = [re.search(r"m4_define\(\[hbase_glib_%s_version\], \[(\d+)\]\)" % part, text)
             for part in ("major", "minor", "micro")]
    if not all(parts):
        return None
    return ".".join(part.group(1) for part in parts)


def version_problems():
    """What is missing for the release version: its NEWS section, the
    "## Unreleased" section above it, the debian/changelog entry."""
    version = release_version()
    if version is None:
        return ["configure.ac: no hbase_glib_{major,minor,micro}_version m4_define"]
    problems = []
    try:
        with open(os.path.join(top, "NEWS"), encoding="utf-8") as news:
            headings = [line.strip() for line in news if line.startswith("## ")]
    except OSError:
        return ["NEWS: missing (it needs a '## %s' section)" % version]
    if "## " + version not in headings:
        problems.append("NEWS: no '## %s' section for the version of configure.ac" % version)
    if not headings or headings[0] != "## Unreleased":
        problems.append("NEWS: the first section is not '## Unreleased'")
    changelog = os.path.join(top, "debian", "changelog")
    if os.path.exists(changelog):
        with open(changelog, encoding="utf-8") as entries:
            first = entries.readline()
        match = re.match(r"\S+ \(([^)-]+)", first)
        if not match or match.group(1) != version:
            problems.append("debian/changelog: the first entry is not version %s" % version)
    return problems


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
        (version_problems(), "NEWS and debian/changelog have the release version of configure.ac"),
    ]
    print("1..%d" % len(checks))
    for number, (offenders, name) in enumerate(checks, 1):
        print("%s %d - %s" % ("not ok" if offenders else "ok", number, name))
        for offender in offenders:
            print("# " + offender)
    return 1 if any(offenders for offenders, _ in checks) else 0


if __name__ == "__main__":
    sys.exit(main())
