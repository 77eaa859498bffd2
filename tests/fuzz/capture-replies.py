#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Records real gateway replies as seed inputs of the fuzz harnesses.

Runs the hbase-glib command (real calls: get, getMultiple, scans,
exists, increment, checkAndMutate, puts, table and namespace listings,
errors such as a missing table) through a recording proxy in front of each
gateway of the local stack (9090 binary/buffered, 9091 compact/buffered,
9092 binary/framed, 9093 compact/framed), and writes every reply the
gateway sent, prefixed with the selector bytes each harness expects, to
tests/fuzz/corpus/{result-reader,thrift-replies,transport}/.

    tests/fuzz/capture-replies.py BUILD_DIR     (e.g. build)

The stack must be running (scripts/stack.sh start).  The table it writes,
fuzz_capture, is dropped at the end.  Re-running replaces the seeds named
captured-*; hand-written inputs and regression inputs stay.
"""
import os
import socket
import struct
import subprocess
import sys
import threading

GATEWAYS = [  # port, compact, framed
    (9090, False, False),
    (9091, True, False),
    (9092, False, True),
    (9093, True, True),
]
TABLE = "fuzz_capture"
# method name -> call index of fuzz-thrift-replies.c
THRIFT_CALLS = {
    "get": 0, "getMultiple": 1, "getScannerRows": 2, "increment": 3, "append": 4,
    "exists": 6, "checkAndMutate": 7, "tableExists": 10, "isTableEnabled": 11,
    "openScanner": 12, "getThriftServerType": 14, "put": 16, "putMultiple": 17,
    "deleteSingle": 18, "mutateRow": 19, "closeScanner": 20, "createTable": 21,
    "deleteTable": 22, "truncateTable": 23, "enableTable": 24, "disableTable": 25,
    "createNamespace": 26, "deleteNamespace": 27, "deleteMultiple": 28,
    "getTableNamesByPattern": 29, "getTableNamesByNamespace": 30, "listNamespaces": 31,
}
# method name -> reply kind of fuzz-result-reader.c (bits 1-2 of its selector)
ROW_REPLIES = {"get": 0, "getMultiple": 1, "getScannerRows": 2}
MAX_SEED = 16384


class Proxy:
    """Forwards one client at a time to a gateway; a reply is every byte
    the gateway sends between two requests of the client."""

    def __init__(self, port):
        self.target = port
        self.replies = []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(8)
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            client, _ = self.listener.accept()
            threading.Thread(target=self.relay, args=(client,), daemon=True).start()

    def relay(self, client):
        server = socket.create_connection(("127.0.0.1", self.target))
        reply = bytearray()
        lock = threading.Lock()

        def upstream():
            nonlocal reply
            while True:
                data = client.recv(65536)
                if not data:
                    break
                with lock:
                    if reply:
                        self.replies.append(bytes(reply))
                        reply = bytearray()
                server.sendall(data)
            server.shutdown(socket.SHUT_WR)

        thread = threading.Thread(target=upstream, daemon=True)
        thread.start()
        while True:
            data = server.recv(65536)
            if not data:
                break
            with lock:
                reply += data
            client.sendall(data)
        thread.join()
        with lock:
            if reply:
                self.replies.append(bytes(reply))
        client.close()
        server.close()


def method_name(reply, compact, framed):
    """The method a reply answers, from its message header."""
    data = reply[4:] if framed else reply
    try:
        if compact:
            pos = 2
            while data[pos] & 0x80:  # sequence id, varint
                pos += 1
            pos += 1
            length, shift = 0, 0
            while True:
                byte = data[pos]
                pos += 1
                length |= (byte & 0x7F) << shift
                shift += 7
                if not byte & 0x80:
                    break
            return data[pos:pos + length].decode()
        (length,) = struct.unpack(">i", data[4:8])
        return data[8:8 + length].decode()
    except (IndexError, UnicodeDecodeError, struct.error):
        return None


def run(cli, port, protocol, transport, *args, stdin=None):
    command = [cli, "--gateways", "127.0.0.1:%d" % port, "--protocol", protocol,
               "--transport", transport] + list(args)
    subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120, check=False)


def session(cli, port, compact, framed):
    protocol = "compact" if compact else "binary"
    transport = "framed" if framed else "buffered"

    def call(*args, stdin=None):
        run(cli, port, protocol, transport, *args, stdin=stdin)

    call("get", TABLE, "r1")                      # missing table: TIOError
    call("get", "no_such_table_fuzz", "r1")
    call("exists", TABLE)
    call("create", TABLE, "f", "s", "z")
    call("exists", TABLE)
    call("put", TABLE, "r1", "f:a=1", "f:b=\\x00\\xff", "f:c=" + "x" * 200)
    call("put", TABLE, "-", stdin=b"r2\tf:a\t2\nr3\tf:a\t3\nr3\tf:q\\x00\tbinary\\x01\n")
    call("get", TABLE, "r1")
    call("get", TABLE, "missing-row")
    call("get", TABLE, "r1", "r2", "r3", "missing-row")
    call("get", "--versions=3", TABLE, "r3")
    call("scan", TABLE)
    call("scan", "--caching=1", "--limit=2", TABLE)
    call("count", TABLE)
    call("incr", TABLE, "counter", "f:n", "5")
    call("counter", TABLE, "counter", "f:n")
    call("check-and-put", "--if=f:a=1", TABLE, "r1", "f:d=checked")
    call("check-and-put", "--if=f:a=2", TABLE, "r1", "f:d=not")
    call("delete", TABLE, "r2")
    call("sadd", TABLE, "set1", "a", "b", "c")
    call("smembers", TABLE, "set1")
    call("zadd", TABLE, "zset1", "1.5", "m1", "-2", "m2")
    call("zrange", TABLE, "zset1", "0", "-1")
    call("list")
    call("namespaces")
    call("ping")
    call("drop", "--yes", TABLE)
    call("drop", "--yes", TABLE)                  # missing table again


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    cli = os.path.join(build, "tools", "hbase-glib")
    corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    for name in ("result-reader", "thrift-replies", "transport"):
        os.makedirs(os.path.join(corpus, name), exist_ok=True)
        for old in os.listdir(os.path.join(corpus, name)):
            if old.startswith("captured-"):
                os.remove(os.path.join(corpus, name, old))

    written = {}
    for port, compact, framed in GATEWAYS:
        proxy = Proxy(port)
        session(cli, proxy.port, compact, framed)
        kind = "%s-%s" % ("compact" if compact else "binary", "framed" if framed else "buffered")
        for reply in proxy.replies:
            method = method_name(reply, compact, framed)
            if method is None or len(reply) > MAX_SEED:
                continue
            body = reply[4:] if framed else reply

            def save(harness, data, label=method):
                key = (harness, kind, label)
                written[key] = written.get(key, 0) + 1
                if written[key] > 3:  # a few of each keep the corpus small
                    return
                path = os.path.join(corpus, harness, "captured-%s-%s-%d" % (label, kind, written[key]))
                with open(path, "wb") as out:
                    out.write(data)

            if method in ROW_REPLIES:
                selector = compact | ROW_REPLIES[method] << 1
                if framed:  # through hbase-glib's framed socket transport
                    save("result-reader", bytes([selector | 8 | 16]) + reply)
                else:
                    save("result-reader", bytes([selector]) + body)
                    save("result-reader", bytes([selector | 8]) + body, method + "-socket")
            if method in THRIFT_CALLS:
                save("thrift-replies", bytes([compact, THRIFT_CALLS[method]]) + body)
            # the transport reads the reply in pieces of 7 bytes, then ends it
            script = bytes([7] * 30 + [0xE0])
            save("transport", bytes([framed, len(script)]) + script + reply, "reply")
    total = sum(min(n, 3) for n in written.values())
    print("capture: %d seed files written under %s" % (total, corpus))


if __name__ == "__main__":
    main()
