#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""delay-proxy.py: a TCP proxy that holds every chunk it carries, either
way, for a fixed time before forwarding it (in order): a server on this
machine then answers as if it were a network hop away.  For benchmarks
(bench/README.md), e.g. a Redis index whose Redis is 1 ms away:

    bench/delay-proxy.py --listen 6390 --upstream 127.0.0.1:6379 --delay-ms 0.5 &
    build/bench/bench-index --redis 127.0.0.1:6390 ...
"""
import argparse
import asyncio


async def pump(reader, writer, delay):
    loop = asyncio.get_running_loop()
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            # call_later keeps the order: every chunk waits the same time
            loop.call_later(delay, writer.write, data)
    finally:
        loop.call_later(delay, writer.close)


async def serve(args):
    host, port = args.upstream.rsplit(":", 1)
    delay = args.delay_ms / 1000.0

    async def handle(client_reader, client_writer):
        up_reader, up_writer = await asyncio.open_connection(host, int(port))
        await asyncio.gather(pump(client_reader, up_writer, delay),
                             pump(up_reader, client_writer, delay))

    server = await asyncio.start_server(handle, "127.0.0.1", args.listen)
    async with server:
        await server.serve_forever()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listen", type=int, required=True, help="port on 127.0.0.1")
    parser.add_argument("--upstream", required=True, help="HOST:PORT of the server")
    parser.add_argument("--delay-ms", type=float, required=True, help="one-way delay")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
