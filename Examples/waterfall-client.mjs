// A small waterfalld client: Node.js and its standard library only.
//
// Run it as `node waterfall-client.mjs [SOCKET]` for a demonstration, or import Client from it. SOCKET defaults
// to where waterfalld listens: $WATERFALLD_SOCKET, else $XDG_RUNTIME_DIR/waterfalld.sock, else
// /tmp/waterfalld-<uid>/waterfalld.sock.
//
// Requests are pipelined (many may be in flight on one connection), replies are matched by id, events
// (notifications, which have no id) go to the listeners, and an error reply rejects with a WaterfallError
// carrying its data.kind.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";

const usage = "usage: node waterfall-client.mjs [SOCKET]";

/** Where waterfalld listens when nobody names a socket, by the daemon's own rule. */
export function defaultSocket() {
  if (process.env.WATERFALLD_SOCKET) return process.env.WATERFALLD_SOCKET;
  const runtime = process.env.XDG_RUNTIME_DIR;
  if (runtime && fs.statSync(runtime, { throwIfNoEntry: false })?.isDirectory()) {
    return path.join(runtime, "waterfalld.sock");
  }
  return `/tmp/waterfalld-${process.getuid()}/waterfalld.sock`;
}

export class WaterfallError extends Error {
  constructor(error) {
    super(`${error.data.kind}: ${error.message}`);
    this.kind = error.data.kind; // stable, for programs; the message is for people
    this.code = error.code;
  }
}

export class Client {
  static connect(path) {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(path, () => resolve(new Client(socket)));
      socket.once("error", reject);
    });
  }

  constructor(socket) {
    this.socket = socket;
    this.nextId = 1;
    this.pending = new Map(); // id -> { resolve, reject }
    this.listeners = []; // (method, params) => void, for events
    this.partial = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      const lines = (this.partial + chunk).split("\n");
      this.partial = lines.pop(); // the start of a line still to come
      for (const line of lines) if (line) this.receive(JSON.parse(line));
    });
    socket.on("close", () => {
      for (const { reject } of this.pending.values()) reject(new Error("the connection to waterfalld ended"));
      this.pending.clear();
    });
  }

  /** Sends a request; resolves with its result, or rejects with a WaterfallError. */
  call(method, params) {
    const id = this.nextId++;
    const request = { jsonrpc: "2.0", id, method };
    if (params !== undefined) request.params = params;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.write(JSON.stringify(request) + "\n");
    });
  }

  onEvent(listener) {
    this.listeners.push(listener);
  }

  close() {
    this.socket.end();
  }

  receive(message) {
    if (!("id" in message)) {
      for (const listener of this.listeners) listener(message.method, message.params);
      return;
    }
    const reply = this.pending.get(message.id);
    if (!reply) return; // "id": null answers a line that was no request
    this.pending.delete(message.id);
    if (message.error) reply.reject(new WaterfallError(message.error));
    else reply.resolve(message.result);
  }
}

async function main(path) {
  const client = await Client.connect(path);
  const watcher = await Client.connect(path);
  const created = await client.call("layout.create", {
    layout: "js-feed", width: 375, replace: true, diff: false,
    defaults: { columns: 2 }, sections: [{ items: Array.from({ length: 100 }, () => ({ h: 100 })) }],
  });
  console.log("created js-feed, seq", created.seq);

  const events = [];
  let eventArrived = () => {};
  watcher.onEvent((method, params) => {
    events.push({ method, params });
    eventArrived();
  });
  const eventCount = (count) =>
    new Promise((resolve) => {
      eventArrived = () => events.length >= count && resolve();
      eventArrived();
    });
  await watcher.call("subscribe", { layout: "js-feed" });

  // 100 updates in flight at once: all are written before the first reply is read.
  const updates = [];
  for (let k = 0; k < 100; k++) {
    updates.push(client.call("items.update", { layout: "js-feed", section: 0, diff: false, items: [{ i: k, h: 50 + k }] }));
  }
  const results = await Promise.all(updates);
  console.log("updated, seq", results[99].seq);

  await eventCount(100);
  console.log("events:", events.length, events[99].method, "seq", events[99].params.seq);

  try {
    await client.call("items.update", { layout: "js-feed", section: 7, items: [{ i: 0, h: 1 }] });
  } catch (error) {
    if (!(error instanceof WaterfallError)) throw error;
    console.log("error:", error.kind);
  }

  await client.call("layout.drop", { layout: "js-feed" });
  await eventCount(101);
  console.log("event:", events[100].method, events[100].params.layout);
  client.close();
  watcher.close();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  if (args.length > 1 || args[0] === "-h" || args[0] === "--help") {
    console.error(usage);
    process.exit(1);
  }
  const socket = args[0] ?? defaultSocket();
  main(socket).catch((error) => {
    if (error.syscall === "connect") {
      console.error(`waterfall-client.mjs: cannot connect to ${socket}: ${error.code} (${usage})`);
    } else {
      console.error(`waterfall-client.mjs: ${error.message}`);
    }
    process.exit(1);
  });
}
