#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every public object type made by its Python default constructor
(HBase.Client(), HBase.Table(), ...: g_object_new() alone) either works or
fails each call with HBase.Error.ILLEGAL_ARGUMENT naming the constructor to
use; none crashes the interpreter.  The client's defaults name
localhost:9090; only its ping needs the stack, and is skipped without it."""
import math
import unittest

from hbase_gi_test import GLib, HBase, gbytes, main, stack_required


class BareObjectTest(unittest.TestCase):
    def assert_refused(self, call, constructor, *args):
        with self.assertRaises(GLib.Error) as raised:
            call(*args)
        error = raised.exception
        self.assertTrue(error.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT),
                        "%s/%d: %s" % (error.domain, error.code, error.message))
        self.assertIn(constructor, error.message)

    def test_client_uses_the_default_config(self):
        client = HBase.Client()
        config = client.props.config
        self.assertEqual(config.get_gateway_host(0), "localhost")
        self.assertEqual(config.get_gateway_port(0), 9090)
        self.assertEqual(client.get_config().get_protocol(), HBase.Protocol.BINARY)
        try:
            self.assertTrue(client.ping(None))
        except GLib.Error as error:
            self.assertNotIn("0 pooled connections", error.message)
            if stack_required():
                raise

    def test_client_config_property(self):
        config = HBase.Config.new()
        config.set_gateways("127.0.0.1:9092")
        config.set_transport(HBase.Transport.FRAMED)
        client = HBase.Client(config=config)
        self.assertEqual(client.get_config().get_gateway_port(0), 9092)
        self.assertEqual(client.props.config.get_transport(), HBase.Transport.FRAMED)

    def test_table(self):
        table = HBase.Table()
        self.assertIsNone(table.get_name())
        self.assertIsNone(table.get_client())
        row = gbytes("r")
        put = HBase.Mutation.new_put(row)
        put.put("f", "q", row)
        self.assert_refused(table.get, "hbase_table_new", row, None, None)
        self.assert_refused(table.get_multiple, "hbase_table_new", [row], None, None)
        self.assert_refused(table.exists, "hbase_table_new", row, None, None)
        self.assert_refused(table.apply, "hbase_table_new", put, None)
        self.assert_refused(table.apply_multiple, "hbase_table_new", [put], None)
        self.assert_refused(table.mutate_row, "hbase_table_new", [put], None)
        self.assert_refused(table.get_counter, "hbase_table_new", row, "f", "q", None)
        self.assert_refused(table.set_counter, "hbase_table_new", row, "f", "q", 1, None)
        self.assert_refused(table.increment_counter, "hbase_table_new", row, "f", "q", 1, None)
        self.assert_refused(table.scan, "hbase_table_new", None)
        self.assert_refused(HBase.WriteBuffer.new, "hbase_table_new", table, None)
        self.assert_refused(HBase.Set.new, "hbase_table_new", table, row, None)
        self.assert_refused(HBase.ZSet.new, "hbase_table_new", table, row, None)

    def test_table_properties(self):
        client = HBase.Client()
        table = HBase.Table(client=client, name="ns:users")
        self.assertEqual(table.get_name(), "ns:users")
        self.assertEqual(table.props.client, client)
        bad = HBase.Table(client=client, name="no spaces")
        self.assert_refused(bad.get, "HBaseTable", gbytes("r"), None, None)

    def test_scanners(self):
        self.assert_refused(HBase.Scanner().next, "hbase_table_scan", None)
        key_scanner = HBase.KeyScanner()
        self.assert_refused(key_scanner.next, "hbase_key_scanner_new", None)
        self.assertEqual(key_scanner.get_n_buckets(), 0)

    def test_connection(self):
        connection = HBase.Connection()
        connection.set_timeout(10)
        self.assertIsNone(connection.get_host())
        self.assertEqual(connection.get_port(), 0)

    def test_write_buffer(self):
        buffer = HBase.WriteBuffer()
        put = HBase.Mutation.new_put(gbytes("r"))
        put.put("f", "q", gbytes("v"))
        self.assert_refused(buffer.add, "hbase_write_buffer_new", put, None)
        self.assertIsNone(buffer.get_table())
        self.assertEqual(buffer.get_pending_count(), 0)
        self.assertEqual(len(buffer.take_failures()), 0)

    def test_set(self):
        bare = HBase.Set()
        members = [gbytes("a"), gbytes("b")]
        self.assertIsNone(bare.get_key())
        self.assert_refused(bare.add, "hbase_set_new", members, None)
        self.assert_refused(bare.add_one, "hbase_set_new", members[0], None)
        self.assert_refused(bare.remove, "hbase_set_new", members, None)
        self.assert_refused(bare.remove_one, "hbase_set_new", members[0], None)
        self.assert_refused(bare.clear, "hbase_set_new", None)
        self.assert_refused(bare.contains, "hbase_set_new", members[0], None)
        self.assert_refused(bare.contains_many, "hbase_set_new", members, None)
        self.assert_refused(bare.card, "hbase_set_new", None)
        self.assert_refused(bare.scan, "hbase_set_new", None, 10, None)
        self.assert_refused(bare.random_members, "hbase_set_new", 1, None)
        self.assert_refused(bare.members().next, "hbase_set_new", None)
        self.assert_refused(HBase.Set.union, "hbase_set_new", [bare])
        self.assert_refused(HBase.Set.intersect, "hbase_set_new", [bare])
        self.assert_refused(HBase.Set.diff, "hbase_set_new", [bare])

    def test_zset(self):
        bare = HBase.ZSet()
        members = [gbytes("a"), gbytes("b")]
        self.assertIsNone(bare.get_key())
        self.assert_refused(bare.add, "hbase_zset_new", HBase.ZAddFlags.NONE, members,
                            [1.0, 2.0], None)
        self.assert_refused(bare.add_incr, "hbase_zset_new", HBase.ZAddFlags.NONE, members[0],
                            1.0, None)
        self.assert_refused(bare.incr_by, "hbase_zset_new", members[0], 1.0, None)
        self.assert_refused(bare.remove, "hbase_zset_new", members, None)
        self.assert_refused(bare.pop, "hbase_zset_new", False, 1, None)
        self.assert_refused(bare.clear, "hbase_zset_new", None)
        self.assert_refused(bare.score, "hbase_zset_new", members[0], None)
        self.assert_refused(bare.scores, "hbase_zset_new", members, None)
        self.assert_refused(bare.card, "hbase_zset_new", None)
        everything = HBase.ScoreRange.new(-math.inf, False, math.inf, False)
        self.assert_refused(bare.count, "hbase_zset_new", everything, None)
        self.assert_refused(bare.rank, "hbase_zset_new", members[0], False, None)
        self.assert_refused(bare.range_by_rank(0, -1, False).next, "hbase_zset_new", None)
        self.assert_refused(bare.range_by_score(everything, False, 0, -1).next,
                            "hbase_zset_new", None)

    def test_zset_add_checks_the_scores(self):
        bare = HBase.ZSet()
        # one score short: refused before anything else, whatever the set
        self.assert_refused(bare.add, "scores", HBase.ZAddFlags.NONE,
                            [gbytes("a"), gbytes("b")], [1.0], None)


if __name__ == "__main__":
    main()
