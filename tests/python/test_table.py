#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Reads and writes of one table through the HBase-1.0 typelib: puts and
gets of text and of arbitrary bytes, missing rows, counters, and a get
whose answer arrives on a GLib.MainLoop."""
from hbase_gi_test import Gio, GLib, HBase, TableTestCase, gbytes, main, to_bytes

BINARY = bytes(range(256))   # every byte value, NUL and invalid UTF-8 included


class PutGetTest(TableTestCase):
    FAMILIES = ("f", "g")

    def test_text_value(self):
        self.put("text-row", {"f:name": "Ada Lovelace", "g:city": "Zürich"})
        row = self.table.get(gbytes("text-row"), None, None)
        self.assertFalse(row.is_empty())
        self.assertEqual(to_bytes(row.get_key()), b"text-row")
        self.assertEqual(row.get_n_cells(), 2)
        self.assertEqual(to_bytes(row.lookup("f", "name")), b"Ada Lovelace")
        self.assertEqual(to_bytes(row.lookup("g", "city")).decode("utf-8"), "Zürich")
        self.assertIsNone(row.lookup("f", "missing"))

    def test_binary_key_and_value(self):
        key = b"\x00bin\xff\x80key"
        mutation = HBase.Mutation.new_put(GLib.Bytes.new(key))
        mutation.put_bytes(gbytes("f"), GLib.Bytes.new(b"q\x00\xfe"), GLib.Bytes.new(BINARY), 1234)
        self.assertTrue(self.table.apply(mutation, None))
        row = self.table.get(GLib.Bytes.new(key), None, None)
        self.assertEqual(to_bytes(row.get_key()), key)
        cell = row.lookup_cell_bytes(gbytes("f"), GLib.Bytes.new(b"q\x00\xfe"))
        self.assertIsNotNone(cell)
        self.assertEqual(to_bytes(cell.get_value()), BINARY)
        self.assertEqual(to_bytes(cell.get_family()), b"f")
        self.assertEqual(to_bytes(cell.get_qualifier()), b"q\x00\xfe")
        self.assertEqual(cell.get_timestamp(), 1234)

    def test_cells_in_order(self):
        self.put("ordered", {"f:b": "2", "f:a": "1", "g:a": "3"})
        row = self.table.get(gbytes("ordered"), None, None)
        cells = [(to_bytes(c.get_family()), to_bytes(c.get_qualifier()), to_bytes(c.get_value()))
                 for c in (row.get_cell(i) for i in range(row.get_n_cells()))]
        self.assertEqual(cells, [(b"f", b"a", b"1"), (b"f", b"b", b"2"), (b"g", b"a", b"3")])

    def test_missing_row_is_empty(self):
        row = self.table.get(gbytes("no-such-row"), None, None)
        self.assertTrue(row.is_empty())
        self.assertEqual(row.get_n_cells(), 0)

    def test_read_options_columns(self):
        self.put("columns", {"f:a": "1", "f:b": "2", "g:c": "3"})
        options = HBase.ReadOptions.new()
        options.set_columns(["f:b", "g"])
        row = self.table.get(gbytes("columns"), options, None)
        self.assertIsNone(row.lookup("f", "a"))
        self.assertEqual(to_bytes(row.lookup("f", "b")), b"2")
        self.assertEqual(to_bytes(row.lookup("g", "c")), b"3")

    def test_delete_row(self):
        self.put("doomed", {"f:a": "1"})
        self.assertTrue(self.table.apply(HBase.Mutation.new_delete(gbytes("doomed")), None))
        self.assertTrue(self.table.get(gbytes("doomed"), None, None).is_empty())

    def test_counter(self):
        ok, value = self.table.increment_counter(gbytes("counter"), "f", "hits", 5, None)
        self.assertTrue(ok)
        self.assertEqual(value, 5)
        ok, value = self.table.increment_counter(gbytes("counter"), "f", "hits", -7, None)
        self.assertEqual(value, -2)
        ok, value = self.table.get_counter(gbytes("counter"), "f", "hits", None)
        self.assertEqual(value, -2)
        stored = self.table.get(gbytes("counter"), None, None).lookup("f", "hits")
        self.assertEqual(to_bytes(stored), (-2).to_bytes(8, "big", signed=True))


class AsyncGetTest(TableTestCase):
    def run_loop(self, start):
        """Runs a main loop until the callback start() was given is called;
        returns what it was called with."""
        loop = GLib.MainLoop()
        answer = []

        def done(source, result):
            answer.append((source, result))
            loop.quit()

        start(done)
        timeout = GLib.timeout_add_seconds(30, loop.quit)
        loop.run()
        self.assertTrue(answer, "the asynchronous call did not finish within 30 s")
        GLib.source_remove(timeout)
        return answer[0]

    def test_get_async(self):
        self.put("async-row", {"f:greeting": "hello"})
        source, result = self.run_loop(
            lambda done: self.table.get_async(gbytes("async-row"), None, None, done))
        self.assertIs(source, self.table)
        row = self.table.get_finish(result)
        self.assertEqual(to_bytes(row.get_key()), b"async-row")
        self.assertEqual(to_bytes(row.lookup("f", "greeting")), b"hello")

    def test_get_async_cancelled(self):
        cancellable = Gio.Cancellable()
        cancellable.cancel()
        _, result = self.run_loop(
            lambda done: self.table.get_async(gbytes("async-row"), None, cancellable, done))
        with self.assertRaises(GLib.Error) as raised:
            self.table.get_finish(result)
        self.assertTrue(raised.exception.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED),
                        raised.exception.message)


class RowsInBatchTest(TableTestCase):
    """Several rows in one call (runs last: a returned array whose elements
    are freed twice would corrupt the heap for the cases after it)."""

    def test_get_multiple(self):
        for key in ("m1", "m2", "m3"):
            self.put(key, {"f:v": key.upper()})
        rows = self.table.get_multiple([gbytes("m3"), gbytes("nothing"), gbytes("m1")], None, None)
        self.assertEqual(len(rows), 3)
        self.assertEqual(to_bytes(rows[0].lookup("f", "v")), b"M3")
        self.assertTrue(rows[1].is_empty())
        self.assertEqual(to_bytes(rows[2].get_key()), b"m1")
        self.assertEqual(to_bytes(rows[2].lookup("f", "v")), b"M1")

    def test_apply_multiple(self):
        mutations = []
        for i in range(4):
            mutation = HBase.Mutation.new_put(gbytes("batch-%d" % i))
            mutation.put("f", "i", gbytes(str(i)))
            mutations.append(mutation)
        self.assertTrue(self.table.apply_multiple(mutations, None))
        for i in range(4):
            row = self.table.get(gbytes("batch-%d" % i), None, None)
            self.assertEqual(to_bytes(row.lookup("f", "i")), str(i).encode())


if __name__ == "__main__":
    main()
