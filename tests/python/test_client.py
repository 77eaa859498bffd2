#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The client through the HBase-1.0 typelib: a config built field by field,
a client of it that reaches the gateway, tables created and deleted."""
import os
import unittest

from hbase_gi_test import (GLib, HBase, delete_table, family_options, gateway_address, gbytes, main,
                           new_client, stack_required, to_bytes, unique_name)


class ConfigTest(unittest.TestCase):
    def test_gateway_host_and_port(self):
        config = HBase.Config.new()
        config.set_gateways("127.0.0.1:9090")
        self.assertEqual(config.get_n_gateways(), 1)
        self.assertEqual(config.get_gateway_host(0), "127.0.0.1")
        self.assertEqual(config.get_gateway_port(0), 9090)

    def test_protocol_and_transport(self):
        config = HBase.Config.new()
        config.set_protocol(HBase.Protocol.COMPACT)
        config.set_transport(HBase.Transport.FRAMED)
        self.assertEqual(config.get_protocol(), HBase.Protocol.COMPACT)
        self.assertEqual(config.get_transport(), HBase.Transport.FRAMED)

    def test_copy_is_independent(self):
        config = HBase.Config.new()
        config.set_gateways("10.0.0.1:9000")
        copy = config.copy()
        config.set_gateways("10.0.0.2:9001")
        self.assertEqual(copy.get_gateway_host(0), "10.0.0.1")
        self.assertEqual(copy.get_gateway_port(0), 9000)

    def test_http_gateways_and_tls(self):
        config = HBase.Config.new()
        config.set_gateways("127.0.0.1:9090 https://localhost:9098/thrift")
        self.assertIsNone(config.get_gateway_url(0))
        self.assertEqual(config.get_gateway_url(1), "https://localhost:9098/thrift")
        self.assertEqual(config.get_gateway_port(1), 9098)
        self.assertIsNone(config.get_tls_ca_file())
        config.set_tls_ca_file("/etc/ssl/ca.pem")
        config.set_tls_verify_hostname(False)
        config.set_tls_client_certificate("c.pem", None, None)
        copy = config.copy()
        self.assertEqual(copy.get_tls_ca_file(), "/etc/ssl/ca.pem")
        self.assertFalse(copy.get_tls_verify_hostname())
        self.assertEqual(copy.get_tls_client_cert(), "c.pem")
        self.assertIsNone(copy.get_tls_client_key())
        config.set_tls_ca_file(None)
        self.assertIsNone(config.get_tls_ca_file())
        with self.assertRaises(GLib.Error) as raised:
            config.set_tls_client_certificate(None, "k.pem", "secret")
        self.assertTrue(raised.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT))
        self.assertNotIn("secret", raised.exception.message)

    def test_kerberos_settings(self):
        config = HBase.Config.new()
        self.assertFalse(config.get_kerberos())
        self.assertEqual(config.get_kerberos_qop(), HBase.KerberosQop.AUTHENTICATION
                         | HBase.KerberosQop.INTEGRITY | HBase.KerberosQop.PRIVACY)
        config.set_kerberos(True)
        config.set_kerberos_qop(HBase.KerberosQop.INTEGRITY | HBase.KerberosQop.PRIVACY)
        config.set_kerberos_keytab("etl@EXAMPLE.ORG", "/etc/etl.keytab")
        config.set_kerberos_service_principal("hbase/_HOST@EXAMPLE.ORG")
        config.set_proxy_user("alice")
        copy = config.copy()
        self.assertTrue(copy.get_kerberos())
        self.assertEqual(copy.get_kerberos_qop(), HBase.KerberosQop.INTEGRITY | HBase.KerberosQop.PRIVACY)
        self.assertEqual(copy.get_kerberos_principal(), "etl@EXAMPLE.ORG")
        self.assertEqual(copy.get_kerberos_keytab(), "/etc/etl.keytab")
        self.assertEqual(copy.get_kerberos_service_principal(), "hbase/_HOST@EXAMPLE.ORG")
        self.assertEqual(copy.get_kerberos_http_principal(), "HTTP/_HOST")
        self.assertEqual(copy.get_proxy_user(), "alice")
        ok, qop = HBase.kerberos_qop_from_string("auth-conf")
        self.assertTrue(ok)
        self.assertEqual(qop, HBase.KerberosQop.PRIVACY)
        with self.assertRaises(GLib.Error) as raised:
            config.set_kerberos_keytab(None, "/etc/etl.keytab")
        self.assertTrue(raised.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT))
        with self.assertRaises(GLib.Error) as raised:
            config.set_proxy_user("alice\r\ndoAs: root")
        self.assertTrue(raised.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT))
        self.assertEqual(config.get_proxy_user(), "alice")

    def test_bad_gateway_raises_illegal_argument(self):
        config = HBase.Config.new()
        with self.assertRaises(GLib.Error) as raised:
            config.set_gateways("127.0.0.1:notaport")
        self.assertTrue(raised.exception.matches(HBase.error_quark(), HBase.Error.ILLEGAL_ARGUMENT),
                        raised.exception.message)


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = new_client()

    def test_config_is_kept(self):
        host, port = gateway_address()
        config = self.client.get_config()
        self.assertEqual(config.get_gateway_host(0), host)
        self.assertEqual(config.get_gateway_port(0), port)

    def test_ping(self):
        self.assertTrue(self.client.ping(None))

    def test_list_namespaces(self):
        namespaces = self.client.list_namespaces(None)
        self.assertIn("default", namespaces)
        self.assertIn("hbase", namespaces)

    def test_create_and_delete_table(self):
        name = unique_name("hbase_glib_py_client")
        self.assertTrue(self.client.create_table(name, [family_options("f"), family_options("g")],
                                                 None, None))
        try:
            ok, exists = self.client.table_exists(name, None)
            self.assertTrue(ok)
            self.assertTrue(exists)
            self.assertIn(name, self.client.list_tables(None, None))
            ok, enabled = self.client.is_table_enabled(name, None)
            self.assertTrue(enabled)
        finally:
            self.client.delete_table(name, None)
        ok, exists = self.client.table_exists(name, None)
        self.assertTrue(ok)
        self.assertFalse(exists)
        self.assertNotIn(name, self.client.list_tables(None, None))


class KerberosClientTest(unittest.TestCase):
    """A client of the kerberized stack's privacy gateway (SASL GSSAPI),
    logged in from a keytab, through the typelib."""

    @classmethod
    def setUpClass(cls):
        state = os.environ.get("HBASE_GLIB_STATE_DIR") or os.path.join(
            os.environ.get("top_srcdir", "."), ".stack")
        cls.secure = os.path.join(state, "secure")
        if not os.path.exists(os.path.join(cls.secure, "krb5.conf")):
            why = "the kerberized stack is not running (scripts/stack.sh start-secure)"
            if stack_required():
                raise AssertionError(why)
            raise unittest.SkipTest(why)
        # read by GSSAPI on its first use, in this process
        os.environ["KRB5_CONFIG"] = os.path.join(cls.secure, "krb5.conf")
        cls.port = int(os.environ.get("HBASE_GLIB_SECURE_PRIV_PORT", "19092"))

    def config(self, qop):
        config = HBase.Config.new()
        config.set_gateways("localhost:%d" % self.port)
        config.set_kerberos(True)
        config.set_kerberos_qop(qop)
        config.set_kerberos_keytab("client", os.path.join(self.secure, "keytabs", "client.keytab"))
        config.set_operation_timeout(60000)
        return config

    def test_privacy_roundtrip(self):
        client = HBase.Client.new(self.config(HBase.KerberosQop.PRIVACY))
        name = unique_name("hbase_glib_py_krb")
        self.assertTrue(client.create_table(name, [family_options("f")], None, None))
        try:
            table = HBase.Table.new(client, name)
            mutation = HBase.Mutation.new_put(gbytes("row"))
            mutation.put("f", "q", gbytes("sealed"))
            self.assertTrue(table.apply(mutation, None))
            row = table.get(gbytes("row"), None, None)
            self.assertEqual(to_bytes(row.lookup("f", "q")), b"sealed")
        finally:
            delete_table(client, name)

    def test_qop_mismatch_raises_authentication(self):
        client = HBase.Client.new(self.config(HBase.KerberosQop.AUTHENTICATION))
        with self.assertRaises(GLib.Error) as raised:
            client.ping(None)
        self.assertTrue(raised.exception.matches(HBase.error_quark(), HBase.Error.AUTHENTICATION),
                        raised.exception.message)
        self.assertIn("privacy", raised.exception.message)


if __name__ == "__main__":
    main()
