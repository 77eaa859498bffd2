#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The tour of examples/tour.c through the HBase-1.0 typelib, with the
string forms of keys, columns, values and members: a table (dropped first
if it exists) with an index on d:color, 1,000 rows through a write buffer,
a get, asynchronous gets on a GLib main loop, a prefix scan, a set, a
sorted set and an index query; then the string forms' errors."""
import socket
import unittest

from hbase_gi_test import (GLib, HBase, delete_table, family_options, main, new_client,
                           redis_address, stack_required, unique_name)


def redis_reachable():
    try:
        with socket.create_connection(redis_address(), timeout=2):
            return True
    except OSError:
        return False


class TourTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not redis_reachable():
            why = "redis-server unreachable at %s:%d" % redis_address()
            if stack_required():
                raise AssertionError(why)
            raise unittest.SkipTest(why)
        cls.client = new_client()
        cls.table_name = unique_name("hbase_glib_py_tour")
        cls.meta_table = unique_name("hbase_glib_py_tour_meta")
        cls.key_prefix = unique_name("hbtour_py")

    def create_table(self):
        """Drops the table if it exists, then creates it (families d, s, z)."""
        _, exists = self.client.table_exists(self.table_name, None)
        if exists:
            self.client.delete_table(self.table_name, None)
        families = [family_options(name) for name in ("d", "s", "z")]
        self.client.create_table(self.table_name, families, None, None)
        if not exists:      # one cleanup per table, however often it was made
            self.addCleanup(delete_table, self.client, self.table_name)

    def open_index(self):
        spec = HBase.IndexSpec.new()
        spec.add("color", "d", "color", HBase.IndexValueType.STRING, HBase.IndexFlags.EXACT)
        spec.set_key_prefix(self.key_prefix)
        host, port = redis_address()
        options = HBase.IndexOptions.new()
        options.set_redis_host(host)
        options.redis_port = port
        options.set_meta_table(self.meta_table)
        HBase.Index.create_meta_table(self.client, options, None)
        self.addCleanup(delete_table, self.client, self.meta_table)
        HBase.Index.define(self.client, self.table_name, spec, options, None)
        index = HBase.Index.open(self.client, self.table_name, options, None)
        self.addCleanup(index.drop, None)
        index.rebuild(None, None)
        return index

    def test_tour(self):
        self.create_table()
        self.create_table()     # a second time: the table exists and is dropped first
        index = self.open_index()
        table = index.get_table()

        buffer = HBase.WriteBuffer.new(table, None)
        for i in range(1000):
            buffer.put_strings("row-%04d" % i, ["d:color", "d:n"],
                               ["red" if i % 3 == 0 else "blue", str(i)], None)
        buffer.close(None)
        self.assertEqual(buffer.take_failures(), [])

        row = table.get_string("row-0042", None, None)
        self.assertEqual(row.get_key_string(), "row-0042")
        self.assertEqual(row.get_string("d:color"), "red")
        self.assertEqual(row.get_string("d:n"), "42")
        self.assertIsNone(row.get_string("d:missing"))
        self.assertTrue(table.get_string("row-5000", None, None).is_empty())

        loop = GLib.MainLoop()
        keys = ["row-0001", "row-0500", "row-0999"]
        found = {}

        def got_row(source, result, key):
            try:
                found[key] = source.get_string_finish(result).get_string("d:color")
            except GLib.Error as error:
                found[key] = error
            if len(found) == len(keys):
                loop.quit()

        for key in keys:
            table.get_string_async(key, None, None, got_row, key)
        loop.run()
        self.assertEqual(found, {"row-0001": "blue", "row-0500": "blue", "row-0999": "red"})

        scanner = table.scan_prefix("row-099")
        scanned = []
        while True:
            ok, next_row = scanner.next(None)
            self.assertTrue(ok)
            if next_row is None:
                break
            scanned.append(next_row.get_key_string())
        self.assertEqual(scanned, ["row-%04d" % i for i in range(990, 1000)])

        tags = HBase.Set.new_string(table, "tags", None)
        ok, n_added = tags.add_strings(["new", "sale", "new"], None)
        self.assertEqual(n_added, 2)
        ok, added = tags.add_string("sale", None)
        self.assertFalse(added)
        ok, is_member = tags.contains_string("sale", None)
        self.assertTrue(is_member)
        ok, removed = tags.remove_string("new", None)
        self.assertTrue(removed)
        ok, is_member = tags.contains_string("new", None)
        self.assertFalse(is_member)

        scores = HBase.ZSet.new_string(table, "scores", None)
        ok, added = scores.add_string("alice", 42.0, None)
        self.assertTrue(added)
        ok, added = scores.add_string("alice", 43.5, None)   # an update, not an add
        self.assertFalse(added)
        ok, found_alice, score = scores.score_string("alice", None)
        self.assertTrue(found_alice)
        self.assertEqual(score, 43.5)
        ok, removed = scores.remove_string("alice", None)
        self.assertTrue(removed)
        ok, found_alice, _ = scores.score_string("alice", None)
        self.assertFalse(found_alice)

        ok, n_red = index.count(HBase.IndexQuery.equal_string("color", "red"), None)
        self.assertEqual(n_red, 334)
        ok, n_any = index.count(HBase.IndexQuery.in_strings("color", ["red", "blue"]), None)
        self.assertEqual(n_any, 1000)

    def run_async(self, start, finish, *args):
        """Starts an _async call of the string forms, runs a main loop
        until it completes; returns what its _finish returned."""
        loop = GLib.MainLoop()
        outcome = []

        def done(source, result):
            try:
                outcome.append(finish(result))
            except GLib.Error as error:
                outcome.append(error)
            loop.quit()

        start(*args, None, done)
        loop.run()
        if isinstance(outcome[0], GLib.Error):
            raise outcome[0]
        return outcome[0]

    def test_async_string_forms(self):
        self.create_table()
        table = HBase.Table.new(self.client, self.table_name)
        self.run_async(table.put_string_async, table.put_string_finish, "r1", "d:a", "1")
        self.run_async(table.put_strings_async, table.put_strings_finish, "r1",
                       ["d:b", "d:c"], ["2", "3"])
        row = self.run_async(table.get_string_async, table.get_string_finish, "r1", None)
        self.assertEqual([row.get_string(c) for c in ("d:a", "d:b", "d:c")], ["1", "2", "3"])
        with self.assertRaises(GLib.Error) as caught:
            self.run_async(table.put_strings_async, table.put_strings_finish, "r1", ["d:x"], [])
        self.assertTrue(caught.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT))

        tags = HBase.Set.new_string(table, "tags", None)
        ok, n_added = self.run_async(tags.add_strings_async, tags.add_strings_finish, ["a", "b", "a"])
        self.assertEqual(n_added, 2)
        ok, added = self.run_async(tags.add_string_async, tags.add_string_finish, "c")
        self.assertTrue(added)
        ok, removed = self.run_async(tags.remove_string_async, tags.remove_string_finish, "a")
        self.assertTrue(removed)
        ok, is_member = self.run_async(tags.contains_string_async, tags.contains_string_finish, "a")
        self.assertFalse(is_member)
        ok, is_member = self.run_async(tags.contains_string_async, tags.contains_string_finish, "b")
        self.assertTrue(is_member)

        scores = HBase.ZSet.new_string(table, "scores", None)
        ok, added = self.run_async(scores.add_string_async, scores.add_string_finish, "bob", 7.0)
        self.assertTrue(added)
        ok, found, score = self.run_async(scores.score_string_async, scores.score_string_finish, "bob")
        self.assertEqual((found, score), (True, 7.0))
        ok, removed = self.run_async(scores.remove_string_async, scores.remove_string_finish, "bob")
        self.assertTrue(removed)
        ok, found, _ = self.run_async(scores.score_string_async, scores.score_string_finish, "bob")
        self.assertFalse(found)

    def test_string_errors(self):
        self.create_table()
        table = HBase.Table.new(self.client, self.table_name)
        table.put_string("r1", "d:a", "1", None)
        table.put_strings("r1", ["d:b", "d:c"], ["2", ""], None)
        row = table.get_string("r1", None, None)
        self.assertEqual([row.get_string(c) for c in ("d:a", "d:b", "d:c")], ["1", "2", ""])
        with self.assertRaises(GLib.Error) as caught:
            table.put_strings("r1", ["d:x", "d:y"], ["1"], None)
        self.assertTrue(caught.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT))
        self.assertIn("2 columns but 1 values", caught.exception.message)
        with self.assertRaises(GLib.Error) as caught:
            table.put_string("", "d:a", "1", None)
        self.assertTrue(caught.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT))
        with self.assertRaises(GLib.Error) as caught:
            table.put_strings("r1", [], [], None)
        self.assertTrue(caught.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT))
        # nothing of the refused puts was written
        row = table.get_string("r1", None, None)
        self.assertEqual(row.get_n_cells(), 3)


if __name__ == "__main__":
    main()
