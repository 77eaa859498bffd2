#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The write buffer through the HBase-1.0 typelib: mutations sent in
batches, and a mutation the server refuses (a put to a family the table
does not have) reported both to the failure callback and in the list of
failures, while the other mutations of its batch are written."""
from hbase_gi_test import GLib, HBase, TableTestCase, gbytes, main, to_bytes


def put(row, family, value):
    mutation = HBase.Mutation.new_put(gbytes(row))
    mutation.put(family, "q", gbytes(value))
    return mutation


class WriteBufferTest(TableTestCase):
    def test_batches_are_written_on_flush(self):
        buffer = HBase.WriteBuffer.new(self.table, None)
        for i in range(5):
            self.assertTrue(buffer.add(put("batch-%d" % i, "f", "v%d" % i), None))
        self.assertEqual(buffer.get_pending_count(), 5)
        self.assertGreater(buffer.get_pending_bytes(), 0)
        self.assertTrue(self.table.get(gbytes("batch-0"), None, None).is_empty())
        self.assertTrue(buffer.flush(None))
        self.assertEqual(buffer.get_pending_count(), 0)
        for i in range(5):
            row = self.table.get(gbytes("batch-%d" % i), None, None)
            self.assertEqual(to_bytes(row.lookup("f", "q")), b"v%d" % i)
        self.assertTrue(buffer.close(None))
        self.assertEqual(len(buffer.take_failures()), 0)

    def test_max_mutations_flushes(self):
        options = HBase.WriteBufferOptions.new()
        options.max_bytes = HBase.WRITE_BUFFER_DEFAULT_MAX_BYTES
        options.max_mutations = 2
        buffer = HBase.WriteBuffer.new(self.table, options)
        buffer.add(put("threshold-0", "f", "a"), None)
        buffer.add(put("threshold-1", "f", "b"), None)
        self.assertEqual(buffer.get_pending_count(), 0)
        self.assertFalse(self.table.get(gbytes("threshold-1"), None, None).is_empty())
        buffer.close(None)

    def add_good_bad_good(self, buffer, tag):
        buffer.add(put(tag + "-good-1", "f", "one"), None)
        buffer.add(put(tag + "-bad", "nosuchfamily", "lost"), None)
        buffer.add(put(tag + "-good-2", "f", "two"), None)

    def assert_others_written(self, tag):
        row = self.table.get(gbytes(tag + "-good-1"), None, None)
        self.assertEqual(to_bytes(row.lookup("f", "q")), b"one")
        row = self.table.get(gbytes(tag + "-good-2"), None, None)
        self.assertEqual(to_bytes(row.lookup("f", "q")), b"two")
        self.assertTrue(self.table.get(gbytes(tag + "-bad"), None, None).is_empty())

    def test_failure_to_callback(self):
        reported = []

        def on_failure(buffer, mutation, error):
            reported.append((to_bytes(mutation.get_row()), error.domain, error.message))

        options = HBase.WriteBufferOptions.new()
        options.max_bytes = HBase.WRITE_BUFFER_DEFAULT_MAX_BYTES
        buffer = HBase.WriteBuffer.new(self.table, options)
        buffer.set_on_failure(on_failure)
        self.add_good_bad_good(buffer, "callback")
        with self.assertRaises(GLib.Error) as raised:
            buffer.flush(None)
        self.assertEqual(raised.exception.domain, GLib.quark_to_string(HBase.error_quark()))
        self.assertIn("callback-bad", raised.exception.message)

        self.assertEqual(len(reported), 1, reported)
        row, domain, message = reported[0]
        self.assertEqual(row, b"callback-bad")
        self.assertEqual(domain, GLib.quark_to_string(HBase.error_quark()))
        self.assertIn("nosuchfamily", message)
        # with a callback, no failure is kept
        self.assertEqual(len(buffer.take_failures()), 0)
        self.assert_others_written("callback")
        self.assertTrue(buffer.close(None))

    def test_failure_kept(self):
        buffer = HBase.WriteBuffer.new(self.table, None)
        self.add_good_bad_good(buffer, "kept")
        with self.assertRaises(GLib.Error) as raised:
            buffer.flush(None)
        self.assertEqual(raised.exception.domain, GLib.quark_to_string(HBase.error_quark()))

        failures = buffer.take_failures()
        self.assertEqual(len(failures), 1)
        self.assertEqual(to_bytes(failures[0].get_row()), b"kept-bad")
        self.assertEqual(to_bytes(failures[0].get_mutation().get_row()), b"kept-bad")
        self.assertIn("nosuchfamily", failures[0].get_error().message)
        self.assertEqual(len(buffer.take_failures()), 0)
        self.assert_others_written("kept")
        self.assertTrue(buffer.close(None))


if __name__ == "__main__":
    main()
