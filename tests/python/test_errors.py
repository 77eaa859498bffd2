#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Failures through the HBase-1.0 typelib arrive as GLib.Error in the
HBaseError domain with the code of HBase.Error: a missing table, a closed
port, bad input; and asynchronously, from the _finish call."""
import socket

from hbase_gi_test import Gio, GLib, HBase, TableTestCase, gbytes, main, unique_name


def closed_port():
    """A local port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ErrorDomainTest(TableTestCase):
    def assert_hbase_error(self, error, code):
        self.assertIsInstance(error, GLib.Error)
        self.assertEqual(error.domain, GLib.quark_to_string(HBase.error_quark()))
        self.assertEqual(error.domain, "HBaseError")
        self.assertTrue(error.matches(HBase.error_quark(), code),
                        "expected code %d, got %s/%d: %s"
                        % (code, error.domain, error.code, error.message))

    def test_error_enum(self):
        self.assertEqual(int(HBase.Error.CONNECTION), 1)
        self.assertEqual(int(HBase.Error.NOT_FOUND), 6)
        self.assertEqual(HBase.Error.NOT_FOUND.value_nick, "not-found")

    def test_get_from_missing_table(self):
        missing = HBase.Table.new(self.client, unique_name("hbase_glib_py_missing"))
        with self.assertRaises(GLib.Error) as raised:
            missing.get(gbytes("row"), None, None)
        self.assert_hbase_error(raised.exception, HBase.Error.NOT_FOUND)
        self.assertFalse(HBase.error_get_can_retry(raised.exception))

    def test_delete_missing_table(self):
        with self.assertRaises(GLib.Error) as raised:
            self.client.delete_table(unique_name("hbase_glib_py_missing"), None)
        self.assert_hbase_error(raised.exception, HBase.Error.NOT_FOUND)

    def test_bad_table_name(self):
        with self.assertRaises(GLib.Error) as raised:
            HBase.Table.new(self.client, "no spaces allowed")
        self.assert_hbase_error(raised.exception, HBase.Error.ILLEGAL_ARGUMENT)

    def test_closed_port_is_a_connection_error(self):
        config = HBase.Config.new()
        config.set_gateways("127.0.0.1:%d" % closed_port())
        config.set_max_attempts(1)
        client = HBase.Client.new(config)
        with self.assertRaises(GLib.Error) as raised:
            client.ping(None)
        self.assert_hbase_error(raised.exception, HBase.Error.CONNECTION)

    def test_async_get_from_missing_table(self):
        missing = HBase.Table.new(self.client, unique_name("hbase_glib_py_missing"))
        loop = GLib.MainLoop()
        results = []

        def done(source, result):
            results.append(result)
            loop.quit()

        missing.get_async(gbytes("row"), None, None, done)
        timeout = GLib.timeout_add_seconds(30, loop.quit)
        loop.run()
        self.assertEqual(len(results), 1, "get_async did not finish within 30 s")
        GLib.source_remove(timeout)
        with self.assertRaises(GLib.Error) as raised:
            missing.get_finish(results[0])
        self.assert_hbase_error(raised.exception, HBase.Error.NOT_FOUND)

    def test_missing_family_message_is_one_line(self):
        put = HBase.Mutation.new_put(gbytes("row"))
        put.put("nope", "q", gbytes("v"))
        with self.assertRaises(GLib.Error) as raised:
            self.table.apply(put, None)
        error = raised.exception
        self.assert_hbase_error(error, HBase.Error.NOT_FOUND)
        self.assertNotIn("\n", error.message)
        self.assertTrue(error.message.startswith("NoSuchColumnFamilyException: Column family nope"),
                        error.message)
        self.assertLess(len(error.message.encode("utf-8")), 404)

    def test_set_missing_family(self):
        members = HBase.Set.new(self.table, gbytes("set"), None)
        with self.assertRaises(GLib.Error) as raised:
            members.add([gbytes("m")], None)
        self.assert_hbase_error(raised.exception, HBase.Error.NOT_FOUND)
        self.assertEqual(raised.exception.message,
                         "table '%s' has no column family 's'" % self.table_name)

    def test_zset_missing_table(self):
        missing = unique_name("hbase_glib_py_missing")
        ranking = HBase.ZSet.new(HBase.Table.new(self.client, missing), gbytes("z"), None)
        with self.assertRaises(GLib.Error) as raised:
            ranking.add(HBase.ZAddFlags(0), [gbytes("m")], [1.0], None)
        self.assert_hbase_error(raised.exception, HBase.Error.NOT_FOUND)
        self.assertEqual(raised.exception.message, "table '%s' does not exist" % missing)

    def test_server_trace_stays_in_c(self):
        """A GLib.Error holds the domain, code and message; the server's
        text lives in the C error's private data, which PyGObject does not
        keep: the accessor is callable and answers None (see README)."""
        put = HBase.Mutation.new_put(gbytes("row"))
        put.put("nope", "q", gbytes("v"))
        with self.assertRaises(GLib.Error) as raised:
            self.table.apply(put, None)
        self.assertIsNone(HBase.error_get_server_trace(raised.exception))

    def test_cancelled_before_start(self):
        cancellable = Gio.Cancellable()
        cancellable.cancel()
        with self.assertRaises(GLib.Error) as raised:
            self.table.get(gbytes("row"), None, cancellable)
        self.assertTrue(raised.exception.matches(Gio.io_error_quark(), Gio.IOErrorEnum.CANCELLED),
                        raised.exception.message)


if __name__ == "__main__":
    main()
