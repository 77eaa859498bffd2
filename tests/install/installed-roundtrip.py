#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Uses the installed typelib (gir1.2-hbase-1.0) from Python, as
scripts/package.sh runs it after installing the Debian packages: on an
existing TABLE with family "d", writes a row through HBase.Table and reads
it back.

    installed-roundtrip.py GATEWAYS TABLE

Prints what it checked; exit status 0 when the row read is the row
written."""
import sys

import gi

gi.require_version("HBase", "1.0")
from gi.repository import GLib, HBase  # noqa: E402


def main(gateways, name):
    config = HBase.Config.new()
    config.set_gateways(gateways)
    client = HBase.Client.new(config)
    table = HBase.Table.new(client, name)
    key = GLib.Bytes.new(b"row-py")
    value = GLib.Bytes.new(b"Coimbra \x00\xff")
    put = HBase.Mutation.new_put(key)
    put.put("d", "city", value)
    table.apply(put, None)
    row = table.get(key, None, None)
    read = row.lookup("d", "city")
    if read is None or read.get_data() != value.get_data():
        print("installed-roundtrip.py: get returned %r" % (read and read.get_data()), file=sys.stderr)
        return 1
    print("installed-roundtrip.py: HBase %s typelib: put and get row-py in %s"
          % (HBase.version_string(), name))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: installed-roundtrip.py GATEWAYS TABLE", file=sys.stderr)
        sys.exit(2)
    try:
        sys.exit(main(sys.argv[1], sys.argv[2]))
    except GLib.Error as error:
        print("installed-roundtrip.py: %s" % error.message, file=sys.stderr)
        sys.exit(1)
