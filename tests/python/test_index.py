#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Redis secondary index through the HBase-1.0 typelib: definitions
stored in HBase, writes through the index's table kept in Redis, queries
answered from it, a verification that finds the index consistent, and the
index errors as GLib.Error in their own domain, other handles refused to
write to the indexed table, the Redis credential
setters and their errors (a password Redis does not expect, a user without
a password, a password file that cannot be read)."""
import socket
import unittest

from hbase_gi_test import (GLib, HBase, TableTestCase, delete_table, gbytes, main,
                           redis_address, stack_required, to_bytes, unique_name)


def redis_reachable():
    try:
        with socket.create_connection(redis_address(), timeout=2):
            return True
    except OSError:
        return False


class IndexTest(TableTestCase):
    FAMILIES = ("f",)

    @classmethod
    def setUpClass(cls):
        if not redis_reachable():
            why = "redis-server unreachable at %s:%d" % redis_address()
            if stack_required():
                raise AssertionError(why)
            raise unittest.SkipTest(why)
        super().setUpClass()
        cls.meta_table = unique_name("hbase_glib_py_ix_meta")
        spec = HBase.IndexSpec.new()
        spec.add("city", "f", "city", HBase.IndexValueType.STRING,
                 HBase.IndexFlags.EXACT | HBase.IndexFlags.RANGE)
        spec.add("age", "f", "age", HBase.IndexValueType.INT64, HBase.IndexFlags.EXACT)
        spec.set_key_prefix(unique_name("hbidx_py"))
        host, port = redis_address()
        options = HBase.IndexOptions.new()
        options.set_redis_host(host)
        options.redis_port = port
        options.set_meta_table(cls.meta_table)
        cls.options = options
        # the definitions table is created explicitly, never by define
        with cls.assertRaises(cls, GLib.Error) as raised:
            HBase.Index.define(cls.client, cls.table_name, spec, options, None)
        assert "hbase_index_create_meta_table" in raised.exception.message
        HBase.Index.create_meta_table(cls.client, options, None)
        cls.addClassCleanup(delete_table, cls.client, cls.meta_table)
        HBase.Index.define(cls.client, cls.table_name, spec, options, None)

        cls.index = HBase.Index.open(cls.client, cls.table_name, options, None)
        cls.addClassCleanup(cls.index.drop, None)
        cls.index.rebuild(None, None)
        cls.indexed = cls.index.get_table()
        for row, city, age in (("p1", "Paris", 30), ("p2", "Lyon", 41), ("p3", "Paris", 41),
                               ("p4", "Oslo", 30)):
            mutation = HBase.Mutation.new_put(gbytes(row))
            mutation.put("f", "city", gbytes(city))
            mutation.put("f", "age", gbytes(str(age)))
            cls.indexed.apply(mutation, None)

    def find(self, query):
        page = self.index.find(query, None, None)
        self.assertIsNone(page.get_next_token())
        return [to_bytes(row.get_key()).decode() for row in page.get_rows()]

    def test_definitions_stored(self):
        spec = HBase.Index.get_definitions(self.client, self.table_name, self.options, None)
        self.assertEqual(spec.get_n_indexes(), 2)
        self.assertEqual(sorted(spec.get_name(i) for i in range(2)), ["age", "city"])

    def test_equal(self):
        self.assertEqual(self.find(HBase.IndexQuery.equal("city", gbytes("Paris"))), ["p1", "p3"])
        self.assertEqual(self.find(HBase.IndexQuery.equal_int64("age", 41)), ["p2", "p3"])
        self.assertEqual(self.find(HBase.IndexQuery.equal("city", gbytes("Rome"))), [])

    def test_and_or(self):
        paris = HBase.IndexQuery.equal("city", gbytes("Paris"))
        forty_one = HBase.IndexQuery.equal_int64("age", 41)
        oslo = HBase.IndexQuery.equal("city", gbytes("Oslo"))
        self.assertEqual(self.find(HBase.IndexQuery.all([paris, forty_one])), ["p3"])
        self.assertEqual(self.find(HBase.IndexQuery.any([oslo, forty_one])), ["p2", "p3", "p4"])

    def test_count(self):
        ok, count = self.index.count(HBase.IndexQuery.equal("city", gbytes("Paris")), None)
        self.assertEqual(count, 2)

    def test_rows_carry_columns(self):
        page = self.index.find(HBase.IndexQuery.equal("city", gbytes("Lyon")), None, None)
        rows = page.get_rows()
        self.assertEqual(len(rows), 1)
        self.assertEqual(to_bytes(rows[0].lookup("f", "age")), b"41")

    def test_update_moves_row(self):
        mutation = HBase.Mutation.new_put(gbytes("p4"))
        mutation.put("f", "city", gbytes("Bergen"))
        self.indexed.apply(mutation, None)
        self.assertEqual(self.find(HBase.IndexQuery.equal("city", gbytes("Oslo"))), [])
        self.assertEqual(self.find(HBase.IndexQuery.equal("city", gbytes("Bergen"))), ["p4"])

    def test_composition_keeps_operands(self):
        # compositions take their own references: an operand stays usable
        # on its own after the compositions are gone
        paris = HBase.IndexQuery.equal("city", gbytes("Paris"))
        both = HBase.IndexQuery.and_(paris, HBase.IndexQuery.equal_int64("age", 41))
        either = HBase.IndexQuery.or_(paris, HBase.IndexQuery.equal("city", gbytes("Oslo")))
        del both, either
        self.assertEqual(self.find(paris), ["p1", "p3"])
        nested = HBase.IndexQuery.and_(
            HBase.IndexQuery.or_(paris, HBase.IndexQuery.equal("city", gbytes("Lyon"))),
            HBase.IndexQuery.equal_int64("age", 41))
        self.assertEqual(self.find(nested), ["p2", "p3"])

    def test_async_pairs_on_a_main_loop(self):
        loop = GLib.MainLoop()
        got = {}

        def on_state(index, result):
            got["state"] = index.get_state_finish(result)
            index.verify_async(None, None, on_verify)

        def on_verify(index, result):
            got["report"] = index.verify_finish(result)
            loop.quit()

        self.index.get_state_async(None, on_state)
        GLib.timeout_add_seconds(60, loop.quit)
        loop.run()
        ok, state, _reason = got["state"]
        self.assertTrue(ok)
        self.assertEqual(state, HBase.IndexState.READY)
        self.assertTrue(got["report"].is_consistent(), got["report"].to_string())

    def test_verify_consistent(self):
        report = self.index.verify(None, None)
        self.assertTrue(report.is_consistent(), report.to_string())
        self.assertEqual(report.get_rows(), 4)
        self.assertEqual(report.get_missing(), 0)
        self.assertEqual(report.get_extra(), 0)

    def test_plain_handle_refused(self):
        # defining the index marked the table: a handle that does not
        # maintain the index refuses to write, and nothing is written
        mutation = HBase.Mutation.new_put(gbytes("p9"))
        mutation.put("f", "city", gbytes("Rome"))
        with self.assertRaises(GLib.Error) as raised:
            self.table.apply(mutation, None)
        self.assertTrue(raised.exception.matches(HBase.error_quark(), HBase.Error.INDEXED_TABLE),
                        raised.exception.message)
        self.assertIn(self.meta_table, raised.exception.message)
        self.assertTrue(self.table.get(gbytes("p9"), None, None).is_empty())
        # the opt-out is a construct-time property for bindings, too
        allowed = HBase.Table(client=self.client, name=self.table_name,
                              allow_unindexed_writes=True)
        self.assertTrue(allowed.get_allow_unindexed_writes())
        self.assertFalse(self.table.props.allow_unindexed_writes)

    def test_unknown_index_is_an_index_error(self):
        with self.assertRaises(GLib.Error) as raised:
            self.index.find(HBase.IndexQuery.equal("colour", gbytes("red")), None, None)
        self.assertTrue(raised.exception.matches(HBase.index_error_quark(),
                                                 HBase.IndexError.NO_INDEX),
                        raised.exception.message)

    def test_redis_credentials(self):
        canary = "hbglib-CANARY-py"
        # a password for the stack's Redis, which has none: an error of its own
        options = self.options.copy()
        options.set_redis_password(canary)
        index = HBase.Index.open(self.client, self.table_name, options, None)
        with self.assertRaises(GLib.Error) as raised:
            index.find(HBase.IndexQuery.equal("city", gbytes("Paris")), None, None)
        self.assertTrue(raised.exception.matches(HBase.index_error_quark(),
                                                 HBase.IndexError.AUTH_NOT_ENABLED),
                        raised.exception.message)
        self.assertNotIn(canary, raised.exception.message)
        # a user needs a password: said by open, before any server
        options = self.options.copy()
        options.set_redis_username("idx")
        self.assertEqual(options.redis_username, "idx")
        with self.assertRaises(GLib.Error) as raised:
            HBase.Index.open(self.client, self.table_name, options, None)
        self.assertTrue(raised.exception.matches(HBase.error_quark(),
                                                 HBase.Error.ILLEGAL_ARGUMENT),
                        raised.exception.message)
        options.set_redis_password_file("/nonexistent/redis-password")
        self.assertEqual(options.redis_password_file, "/nonexistent/redis-password")
        with self.assertRaises(GLib.Error) as raised:
            HBase.Index.open(self.client, self.table_name, options, None)
        self.assertIn("password file", raised.exception.message)


if __name__ == "__main__":
    main()
