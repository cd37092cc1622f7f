"""A small waterfalld client: asyncio and the standard library only.

Run it as `python3 waterfall_client.py [SOCKET]` for a demonstration, or import Client from it. SOCKET defaults
to where waterfalld listens: $WATERFALLD_SOCKET, else $XDG_RUNTIME_DIR/waterfalld.sock, else
/tmp/waterfalld-<uid>/waterfalld.sock.

Requests are pipelined (many may be in flight on one connection), replies are matched by id, events
(notifications, which have no id) go to a queue, and an error reply raises WaterfallError with its data.kind.
"""
import asyncio
import itertools
import json
import os
import sys

USAGE = "usage: python3 waterfall_client.py [SOCKET]"


def default_socket():
    """Where waterfalld listens when nobody names a socket, by the daemon's own rule."""
    if os.environ.get("WATERFALLD_SOCKET"):
        return os.environ["WATERFALLD_SOCKET"]
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return os.path.join(runtime, "waterfalld.sock")
    return f"/tmp/waterfalld-{os.getuid()}/waterfalld.sock"


class WaterfallError(Exception):
    """An error reply: kind is its data.kind (stable, for programs), the message is for people."""

    def __init__(self, error):
        super().__init__(f"{error['data']['kind']}: {error['message']}")
        self.kind = error["data"]["kind"]
        self.code = error["code"]


class Client:
    """One connection. Any number of call()s may be awaited at once; replies come back in request order."""

    def __init__(self, reader, writer):
        self._reader, self._writer = reader, writer
        self._ids = itertools.count(1)
        self._pending = {}
        self.events = asyncio.Queue()  # (method, params) of each notification, in order
        self._task = asyncio.create_task(self._read())

    @classmethod
    async def connect(cls, path):
        # A layout.get of a large layout is one long line: allow lines of up to 64 MiB.
        reader, writer = await asyncio.open_unix_connection(path, limit=64 << 20)
        return cls(reader, writer)

    async def call(self, method, params=None):
        """Sends a request and returns its result, or raises WaterfallError."""
        request_id = next(self._ids)
        reply = asyncio.get_running_loop().create_future()
        self._pending[request_id] = reply
        request = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            request["params"] = params
        self._writer.write(json.dumps(request, separators=(",", ":")).encode() + b"\n")
        await self._writer.drain()
        return await reply

    async def close(self):
        self._writer.close()
        await self._writer.wait_closed()

    async def _read(self):
        try:
            while line := await self._reader.readline():
                message = json.loads(line)
                if "id" not in message:  # an event
                    self.events.put_nowait((message["method"], message.get("params")))
                    continue
                reply = self._pending.pop(message["id"], None)
                if reply is None:  # "id": null answers a line that was no request
                    continue
                if "error" in message:
                    reply.set_exception(WaterfallError(message["error"]))
                else:
                    reply.set_result(message["result"])
        finally:
            for reply in self._pending.values():
                if not reply.done():
                    reply.set_exception(ConnectionError("the connection to waterfalld ended"))


async def main(path):
    client = await Client.connect(path)
    watcher = await Client.connect(path)
    created = await client.call("layout.create", {
        "layout": "py-feed", "width": 375, "replace": True, "diff": False,
        "defaults": {"columns": 2}, "sections": [{"items": [{"h": 100}] * 100}],
    })
    print("created py-feed, seq", created["seq"])
    await watcher.call("subscribe", {"layout": "py-feed"})

    # 100 updates in flight at once: all are written before the first reply is read.
    updates = [
        client.call("items.update", {"layout": "py-feed", "section": 0, "diff": False, "items": [{"i": k, "h": 50 + k}]})
        for k in range(100)
    ]
    results = await asyncio.gather(*updates)
    print("updated, seq", results[-1]["seq"])

    events = [await asyncio.wait_for(watcher.events.get(), 10) for _ in range(100)]
    print("events:", len(events), events[-1][0], "seq", events[-1][1]["seq"])

    try:
        await client.call("items.update", {"layout": "py-feed", "section": 7, "items": [{"i": 0, "h": 1}]})
    except WaterfallError as error:
        print("error:", error.kind)

    await client.call("layout.drop", {"layout": "py-feed"})
    method, params = await asyncio.wait_for(watcher.events.get(), 10)
    print("event:", method, params["layout"])
    await client.close()
    await watcher.close()


if __name__ == "__main__":
    if len(sys.argv) > 2 or sys.argv[1:] in (["-h"], ["--help"]):
        sys.exit(USAGE)
    socket_path = sys.argv[1] if len(sys.argv) == 2 else default_socket()
    try:
        asyncio.run(main(socket_path))
    except OSError as error:
        if error.errno is None:  # the connection ended
            sys.exit(f"waterfall_client.py: {error}")
        sys.exit(f"waterfall_client.py: cannot connect to {socket_path}: {error.strerror} ({USAGE})")
    except (WaterfallError, asyncio.TimeoutError) as error:
        sys.exit(f"waterfall_client.py: {error or 'no reply in time'}")
