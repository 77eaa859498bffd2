# SPDX-License-Identifier: Apache-2.0
"""What the Python tests of the GObject Introspection bindings share.

The tests load the typelib HBase-1.0 through PyGObject (GI_TYPELIB_PATH and
LD_LIBRARY_PATH point at the build tree when make check runs them), talk
to the real local stack and print TAP, one test line per unittest case,
for automake's tap driver.

The stack: the first binary/buffered gateway of HBASE_GLIB_TEST_GATEWAYS
(default 127.0.0.1:9090) and the Redis of HBASE_GLIB_TEST_REDIS (default
127.0.0.1:6379).  When it is unreachable a test class is skipped, unless
CI or HBASE_GLIB_TEST_REQUIRE_STACK is set, where it fails: the same rule
as the C integration tests."""
import os
import sys
import traceback
import unittest

try:
    import gi
    gi.require_version("GLib", "2.0")
    gi.require_version("Gio", "2.0")
    gi.require_version("HBase", "1.0")
    from gi.repository import Gio, GLib, HBase  # noqa: F401  (re-exported)
except (ImportError, ValueError) as error:
    # Nothing can run without the bindings: one failing TAP line says why.
    print("1..1")
    print("not ok 1 - the HBase-1.0 typelib loads through PyGObject")
    print("# %s: %s (python %s, GI_TYPELIB_PATH=%s)"
          % (type(error).__name__, error, sys.executable, os.environ.get("GI_TYPELIB_PATH")))
    sys.exit(1)

_YES = ("1", "true", "yes", "on")


def stack_required():
    """True where an unreachable stack is a failure, not a skip."""
    return (os.environ.get("CI", "").lower() in _YES or
            os.environ.get("HBASE_GLIB_TEST_REQUIRE_STACK", "").lower() in _YES)


def gateway_address():
    """(host, port) of the first binary/buffered gateway of the stack."""
    spec = os.environ.get("HBASE_GLIB_TEST_GATEWAYS", "")
    for entry in spec.replace(",", " ").split():
        parts = entry.split(":")
        if len(parts) == 4 and parts[2] == "binary" and parts[3] == "buffered":
            return parts[0], int(parts[1])
    return "127.0.0.1", 9090


def redis_address():
    """(host, port) of the stack's Redis."""
    spec = os.environ.get("HBASE_GLIB_TEST_REDIS") or "127.0.0.1:6379"
    host, _, port = spec.rpartition(":")
    return host, int(port)


_counter = 0


def unique_name(prefix):
    """A table name no other test run uses at the same time."""
    global _counter
    _counter += 1
    return "%s_%d_%d" % (prefix, os.getpid(), _counter)


def to_bytes(value):
    """The bytes of a GLib.Bytes (None stays None)."""
    return None if value is None else bytes(value.get_data() or b"")


def gbytes(data):
    """A GLib.Bytes of a str (UTF-8) or bytes."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return GLib.Bytes.new(data)


def new_client():
    """A client of the stack's gateway, or skips (fails when the stack is
    required) when the gateway does not answer."""
    host, port = gateway_address()
    config = HBase.Config.new()
    config.set_gateways("%s:%d" % (host, port))
    config.set_protocol(HBase.Protocol.BINARY)
    config.set_transport(HBase.Transport.BUFFERED)
    config.set_max_attempts(3)
    client = HBase.Client.new(config)
    try:
        client.ping(None)
    except GLib.Error as error:
        why = ("local stack unreachable (%s); start it with scripts/stack.sh start"
               % error.message)
        if stack_required():
            raise AssertionError(why) from None
        raise unittest.SkipTest(why) from None
    return client


def family_options(name, max_versions=0):
    """The options of one column family to create."""
    options = HBase.FamilyOptions.new()
    options.set_name(name)
    options.max_versions = max_versions
    return options


def delete_table(client, name):
    """Deletes a table a test created; fails unless it is gone."""
    client.delete_table(name, None)
    _, exists = client.table_exists(name, None)
    assert not exists, "table %s still exists after delete_table" % name


class TableTestCase(unittest.TestCase):
    """Cases sharing one client and one table of their own (families
    FAMILIES), created before the first case and deleted after the last
    (even when the rest of a subclass's setUpClass fails)."""

    TABLE_PREFIX = "hbase_glib_py"
    FAMILIES = ("f",)

    @classmethod
    def setUpClass(cls):
        cls.client = new_client()
        cls.table_name = unique_name(cls.TABLE_PREFIX)
        families = [family_options(name, max_versions=3) for name in cls.FAMILIES]
        cls.client.create_table(cls.table_name, families, None, None)
        cls.addClassCleanup(delete_table, cls.client, cls.table_name)
        cls.table = HBase.Table.new(cls.client, cls.table_name)

    def put(self, row, columns):
        """Writes columns ({"family:qualifier": value}) into row."""
        mutation = HBase.Mutation.new_put(gbytes(row))
        for column, value in columns.items():
            family, _, qualifier = column.partition(":")
            mutation.put(family, qualifier, gbytes(value))
        self.table.apply(mutation, None)


class TapResult(unittest.TestResult):
    """Prints one TAP line per case as it ends; the plan comes last."""

    def __init__(self):
        super().__init__()
        self.count = 0

    @staticmethod
    def _name(test):
        if isinstance(test, unittest.TestCase):
            return test.id().split(".", 1)[-1]     # Class.test_method
        return str(test)   # a class or module fixture: "setUpClass (module.Class)"

    def _line(self, ok, test, directive=""):
        self.count += 1
        print("%s %d - %s%s" % ("ok" if ok else "not ok", self.count, self._name(test), directive))
        sys.stdout.flush()

    def _diagnose(self, err):
        for line in "".join(traceback.format_exception(*err)).splitlines():
            print("# " + line)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(False, test)
        self._diagnose(err)

    def addError(self, test, err):
        super().addError(test, err)
        self._line(False, test)
        self._diagnose(err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(True, test, " # SKIP " + reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._line(True, test, " # TODO expected failure")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._line(False, test, " # TODO unexpected success")


def main():
    """Runs the test cases of the calling module; prints TAP; exits 0 when
    every case passed (or was skipped)."""
    module = sys.modules["__main__"]
    suite = unittest.defaultTestLoader.loadTestsFromModule(module)
    result = TapResult()
    suite.run(result)
    if result.count == 0:
        print("1..0 # SKIP no test case ran")
    else:
        print("1..%d" % result.count)
    sys.exit(0 if result.wasSuccessful() else 1)
