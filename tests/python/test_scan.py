#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Scans through the HBase-1.0 typelib: the rows of a prefix, in order or
reversed, limited, and filtered on the server by a typed filter."""
from hbase_gi_test import HBase, TableTestCase, gbytes, main, to_bytes


class ScanTest(TableTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        mutations = []
        for prefix in ("apple", "apricot", "banana"):
            for i in range(3):
                mutation = HBase.Mutation.new_put(gbytes("%s-%d" % (prefix, i)))
                mutation.put("f", "colour", gbytes("red" if i % 2 == 0 else "green"))
                mutation.put("f", "n", gbytes(str(i)))
                mutations.append(mutation)
        cls.table.apply_multiple(mutations, None)

    def keys(self, options):
        scanner = self.table.scan(options)
        keys = []
        while True:
            ok, row = scanner.next(None)
            self.assertTrue(ok)
            if row is None:
                return keys
            keys.append(to_bytes(row.get_key()).decode())

    def test_everything(self):
        self.assertEqual(len(self.keys(None)), 9)

    def test_prefix(self):
        options = HBase.ScanOptions.new()
        options.set_prefix(gbytes("ap"))
        self.assertEqual(self.keys(options), ["apple-0", "apple-1", "apple-2",
                                              "apricot-0", "apricot-1", "apricot-2"])

    def test_prefix_reversed_and_limited(self):
        options = HBase.ScanOptions.new()
        options.set_prefix(gbytes("apple"))
        options.reversed = True
        options.limit = 2
        self.assertEqual(self.keys(options), ["apple-2", "apple-1"])

    def test_start_and_stop_row(self):
        options = HBase.ScanOptions.new()
        options.set_start_row(gbytes("apple-2"))
        options.set_stop_row(gbytes("apricot-1"))
        self.assertEqual(self.keys(options), ["apple-2", "apricot-0"])

    def test_prefix_and_value_filter(self):
        value_is_red = HBase.Filter.single_column_value("f", gbytes("colour"),
                                                        HBase.CompareOp.EQUAL,
                                                        HBase.Comparator.BINARY,
                                                        gbytes("red"), True, True)
        read = HBase.ReadOptions.new()
        read.set_filter_bytes(value_is_red.to_bytes())
        options = HBase.ScanOptions.new()
        options.set_prefix(gbytes("ap"))
        options.set_read(read)
        self.assertEqual(self.keys(options), ["apple-0", "apple-2", "apricot-0", "apricot-2"])

    def test_typed_filter(self):
        value_is_red = HBase.Filter.single_column_value("f", gbytes("colour"),
                                                        HBase.CompareOp.EQUAL,
                                                        HBase.Comparator.BINARY,
                                                        gbytes("red"), True, True)
        read = HBase.ReadOptions.new()
        read.set_typed_filter(value_is_red)
        self.assertIsNotNone(read.typed_filter)
        options = HBase.ScanOptions.new()
        options.set_prefix(gbytes("ap"))
        options.set_read(read)
        self.assertEqual(self.keys(options), ["apple-0", "apple-2", "apricot-0", "apricot-2"])

    def test_row_filter_as_text(self):
        ends_with_one = HBase.Filter.row(HBase.CompareOp.EQUAL, HBase.Comparator.REGEX,
                                         gbytes("-1$"))
        self.assertIn("RowFilter", ends_with_one.to_string())
        read = HBase.ReadOptions.new()
        read.set_filter(ends_with_one.to_string())
        options = HBase.ScanOptions.new()
        options.set_read(read)
        self.assertEqual(self.keys(options), ["apple-1", "apricot-1", "banana-1"])

    def test_prefix_stop_row(self):
        self.assertEqual(to_bytes(HBase.prefix_stop_row(gbytes("ap"))), b"aq")
        self.assertEqual(to_bytes(HBase.prefix_stop_row(gbytes(b"a\xff"))), b"b")


if __name__ == "__main__":
    main()
