#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Composite row keys through the HBase-1.0 typelib: a key schema built
from HBaseKeyField structs, keys encoded from and decoded to GLib.Variant
tuples, their byte order following the values, and HBaseKeyScanner
merging the buckets of a salted schema, over everything and over a key
range, and a paged key query."""
from hbase_gi_test import GLib, HBase, TableTestCase, gbytes, main, to_bytes


def key_field(name, field_type, width=0, descending=False):
    field = HBase.KeyField.new(name, field_type, width)
    field.descending = descending
    return field


def order_schema(n_buckets=0):
    """customer (uint, 4 bytes), day (decimal, 8 digits), id (bytes)."""
    fields = [key_field("customer", HBase.KeyFieldType.UINT, 4),
              key_field("day", HBase.KeyFieldType.DECIMAL, 8),
              key_field("id", HBase.KeyFieldType.BYTES)]
    salt = None
    if n_buckets:
        salt = HBase.SaltOptions.new()
        salt.n_buckets = n_buckets
        salt.hash = HBase.SaltHash.MURMUR3
    return HBase.KeySchema.new(fields, salt)


def key(customer, day, order_id):
    return GLib.Variant("(ttay)", (customer, day, order_id))


def decode(schema, row):
    """(customer, day, id) of a row key ("ay" unpacks to a list of ints)."""
    customer, day, order_id = schema.decode(row).unpack()
    return customer, day, bytes(order_id)


class KeySchemaTest(TableTestCase):
    def test_fields(self):
        schema = order_schema()
        self.assertEqual(schema.get_n_fields(), 3)
        self.assertEqual(schema.get_field(1).name, "day")
        self.assertEqual(schema.get_field(1).type, HBase.KeyFieldType.DECIMAL)
        self.assertEqual(schema.get_field(1).width, 8)
        self.assertEqual(schema.find_field("id"), 2)
        self.assertEqual(schema.find_field("nothing"), -1)
        self.assertEqual(schema.get_n_buckets(), 0)

    def test_encode_layout(self):
        encoded = to_bytes(order_schema().encode_variant(key(7, 20240131, b"a\x00b")))
        self.assertEqual(encoded, b"\x00\x00\x00\x07" + b"20240131" + b"a\x00\xffb\x00\x01")

    def test_decode_round_trip(self):
        schema = order_schema()
        encoded = schema.encode_variant(key(42, 20231231, b"\xffz"))
        self.assertEqual(decode(schema, encoded), (42, 20231231, b"\xffz"))

    def test_byte_order_is_value_order(self):
        schema = order_schema()
        values = [(2, 20240101, b""), (1, 20240102, b"b"), (1, 20240102, b"a\x00"),
                  (1, 20240101, b"z"), (300, 1, b"")]
        encoded = [to_bytes(schema.encode_variant(key(*v))) for v in values]
        self.assertEqual([values[encoded.index(e)] for e in sorted(encoded)], sorted(values))

    def test_bad_value_is_refused(self):
        with self.assertRaises(GLib.Error) as raised:
            order_schema().encode_variant(key(1 << 40, 20240101, b"x"))   # wider than 4 bytes
        self.assertTrue(raised.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT),
                        raised.exception.message)

    def test_bad_key_is_refused(self):
        with self.assertRaises(GLib.Error) as raised:
            order_schema().decode(gbytes(b"\x00\x01"))
        self.assertTrue(raised.exception.matches(HBase.error_quark(), HBase.Error.BAD_DATA),
                        raised.exception.message)


class KeyScannerTest(TableTestCase):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.schema = order_schema(n_buckets=4)
        cls.orders = [(customer, day, b"o%d" % (customer * 10 + day % 10))
                      for customer in (1, 2, 3) for day in (20240101, 20240102, 20240103)]
        mutations = []
        for order in cls.orders:
            mutation = HBase.Mutation.new_put(cls.schema.encode_variant(key(*order)))
            mutation.put("f", "total", gbytes("%d" % order[0]))
            mutations.append(mutation)
        cls.table.apply_multiple(mutations, None)

    def scan(self, options):
        scanner = HBase.KeyScanner.new(self.table, self.schema, options)
        self.assertEqual(scanner.get_n_buckets(), 4)
        found = []
        while True:
            ok, row = scanner.next(None)
            self.assertTrue(ok)
            if row is None:
                return found
            found.append(decode(self.schema, row.get_key()))

    def test_salted_keys_spread_over_buckets(self):
        buckets = {to_bytes(self.schema.encode_variant(key(*order)))[0] for order in self.orders}
        self.assertGreater(len(buckets), 1)
        self.assertTrue(all(b < 4 for b in buckets))

    def test_everything_in_key_order(self):
        self.assertEqual(self.scan(None), sorted(self.orders))

    def test_range_of_one_customer(self):
        key_range = HBase.KeyRange.new([HBase.KeyValue.new_uint(2)], None, False, None, False)
        options = HBase.KeyScanOptions.new()
        options.set_range(key_range)
        self.assertEqual(self.scan(options), [o for o in sorted(self.orders) if o[0] == 2])

    def test_range_of_days(self):
        key_range = HBase.KeyRange.new([HBase.KeyValue.new_uint(3)],
                                       HBase.KeyValue.new_uint(20240102), True, None, False)
        options = HBase.KeyScanOptions.new()
        options.set_range(key_range)
        options.limit = 1
        self.assertEqual(self.scan(options), [(3, 20240102, b"o32")])

    def test_key_query_pages(self):
        """hbase_key_query_run: one customer's orders two at a time, each page
        resuming from the previous page's token, until no token is left."""
        query = HBase.KeyQuery.new()
        query.set_range(HBase.KeyRange.new([HBase.KeyValue.new_uint(2)], None, False, None, False))
        query.limit = 2
        pages = []
        while True:
            rows, token = HBase.key_query_run(self.table, self.schema, query, None)
            pages.append([decode(self.schema, row.get_key()) for row in rows])
            if token is None:
                break
            query.set_page_token(token)
        self.assertEqual([len(page) for page in pages], [2, 1])
        self.assertEqual(sorted(order for page in pages for order in page),
                         [o for o in sorted(self.orders) if o[0] == 2])


if __name__ == "__main__":
    main()
