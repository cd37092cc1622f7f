// A photo feed served with waterfalld: the first page is placed by layout.css before any script runs, photos
// arrive late (on purpose), and the page's script then takes over with frames for its real width, appends pages
// as the reader scrolls and re-places the feed when the window is resized, without a box moving at the handover.
//
// Node.js's standard library only. Usage:
//   node Examples/photo-feed/server.mjs [--port N] [--socket PATH] [--waterfalld PATH] [--image-delay MS]
// With --socket it uses a running daemon; otherwise it starts its own (`waterfalld --ephemeral`: the one named by
// --waterfalld, else this checkout's .build/release or .build/debug one, else waterfalld on PATH). It keeps no
// layout in the daemon: every request carries the feed's inputs, so any number of these servers can run behind a
// load balancer, each with a daemon of its own.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "../waterfall-client.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const options = { port: 8080, socket: null, waterfalld: null, imageDelay: 1500 };
for (let k = 2; k < process.argv.length; k += 2) {
  const [flag, value] = [process.argv[k], process.argv[k + 1]];
  if (flag === "--port") options.port = Number(value);
  else if (flag === "--socket") options.socket = value;
  else if (flag === "--waterfalld") options.waterfalld = value;
  else if (flag === "--image-delay") options.imageDelay = Number(value);
  else {
    console.error("usage: node server.mjs [--port N] [--socket PATH] [--waterfalld PATH] [--image-delay MS]");
    process.exit(2);
  }
}

// The feed: 600 photos of real-valued aspect ratios (seeded, so every server and run has the same feed).
const PAGE = 30;
let seed = 43;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const photos = Array.from({ length: 600 }, (_, i) => ({
  id: `p${i}`, w: Math.round(1000 * (100 + 78 * random())) / 1000, h: Math.round(1000 * (100 + 50 * random())) / 1000,
  hue: Math.floor(360 * random()),
}));
const defaults = { minColumnWidth: 180, maxColumns: 8, columnSpacing: 8, rowSpacing: 8 };
// A layout's inputs, in the form layout.export returns: the first `count` photos at `width`.
const inputs = (count, width) => ({
  width, defaults, sections: [{ items: photos.slice(0, count).map(({ id, w, h }) => ({ id, w, h })) }],
});

async function startDaemon() {
  if (options.socket) return options.socket;
  const candidates = [options.waterfalld, path.join(here, "../../.build/release/waterfalld"),
    path.join(here, "../../.build/debug/waterfalld")].filter(Boolean);
  const binary = candidates.find((file) => fs.existsSync(file)) ?? "waterfalld";
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "photo-feed-"));
  const socket = path.join(directory, "waterfalld.sock");
  const daemon = spawn(binary, ["--ephemeral", "--socket", socket], { stdio: ["ignore", "ignore", "inherit"] });
  daemon.on("exit", (code) => {
    console.error(`waterfalld exited (${code})`);
    process.exit(1);
  });
  process.on("exit", () => daemon.kill());
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0));
  for (let waited = 0; !fs.existsSync(socket); waited += 20) {
    if (waited > 10000) throw new Error(`${binary} did not listen on ${socket}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return socket;
}

const client = await Client.connect(await startDaemon());

// The first page's stylesheet for containers 320 to 1920 px wide, from the inputs inline: the same for every
// reader, so it is asked once.
const sheet = await client.call("layout.css", {
  layout: inputs(PAGE, 1000), minWidth: 320, maxWidth: 1920, selector: ".feed",
});

// Frames of the first `count` photos at `width`: a layout made for this reader's request and dropped at once.
let readers = 0;
async function frames(count, width) {
  const layout = `reader-${process.pid}-${readers++}`;
  await client.call("layout.create", { layout, diff: false, ...inputs(count, width) });
  try {
    const { contentSize, sections } = await client.call("layout.get", { layout });
    return { height: contentSize.h, items: sections[0].items.map(({ x, y, w, h }) => [x, y, w, h]) };
  } finally {
    await client.call("layout.drop", { layout });
  }
}

// A photo's element; its image is sent no earlier than `imageDelay` ms after `served`, when its page was.
const figure = (photo, k, served) =>
  `<figure class="s0 i${k}" style="--hue:${photo.hue}"><img src="/photo/${photo.id}.svg?after=${served}" alt="">` +
  `<figcaption>${photo.id}</figcaption></figure>`;

function page() {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Photos</title>
<style>
html{overflow-y:scroll}
body{margin:0;padding:8px;font:13px system-ui,sans-serif;background:#f8fafc}
h1{margin:0 0 8px;font-size:18px;height:24px}
.feed>figure{background:hsl(var(--hue) 40% 80%);border-radius:6px;overflow:hidden}
.feed img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover}
.feed figcaption{position:absolute;left:6px;bottom:4px;color:#fff;text-shadow:0 1px 2px #0008}
${sheet.css}</style></head><body>
<h1>Photos</h1>
<div class="feed">
${photos.slice(0, PAGE).map((p, k) => figure(p, k, Date.now())).join("\n")}
</div>
<script type="module" src="/feed.js"></script>
</body></html>
`;
}

// A photo: an SVG of its own aspect ratio, sent late as a slow image server would.
function photo(id) {
  const p = photos.find((candidate) => candidate.id === id);
  if (!p) return null;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${p.w} ${p.h}">` +
    `<rect width="100%" height="100%" fill="hsl(${p.hue} 55% 55%)"/>` +
    `<circle cx="${p.w * 0.7}" cy="${p.h * 0.35}" r="${p.h * 0.12}" fill="hsl(${(p.hue + 40) % 360} 80% 85%)"/>` +
    `<path d="M0 ${p.h} L${p.w * 0.35} ${p.h * 0.55} L${p.w * 0.6} ${p.h * 0.8} L${p.w * 0.8} ${p.h * 0.6} ` +
    `L${p.w} ${p.h} Z" fill="hsl(${p.hue} 45% 30%)"/></svg>`;
}

const server = http.createServer(async (request, response) => {
  const url = new URL(request.url, "http://localhost");
  const send = (status, type, body) => {
    response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
    response.end(body);
  };
  try {
    if (url.pathname === "/") return send(200, "text/html; charset=utf-8", page());
    if (url.pathname === "/feed.js") {
      return send(200, "text/javascript", fs.readFileSync(path.join(here, "feed.js")));
    }
    if (url.pathname === "/measure") {
      return send(200, "text/html; charset=utf-8", fs.readFileSync(path.join(here, "measure.html")));
    }
    if (url.pathname === "/frames") {
      // ?width=W&count=N&from=F: the frames of the first N photos at container width W, and the elements of
      // photos F to N (the ones the page does not hold yet).
      const width = Number(url.searchParams.get("width"));
      const count = Number(url.searchParams.get("count"));
      const from = Number(url.searchParams.get("from") ?? count);
      if (!(width > 0 && width <= 100000) || !Number.isInteger(count) || count < 1 || count > photos.length ||
          !Number.isInteger(from) || from < 0 || from > count) {
        return send(400, "text/plain", `width must be in (0, 100000], count in 1…${photos.length}, from in 0…count`);
      }
      const placed = await frames(count, width);
      const html = photos.slice(from, count).map((p, k) => figure(p, from + k, Date.now())).join("");
      return send(200, "application/json", JSON.stringify({ ...placed, html, more: count < photos.length }));
    }
    const match = url.pathname.match(/^\/photo\/(p\d+)\.svg$/);
    const svg = match && photo(match[1]);
    if (svg) {
      const after = Number(url.searchParams.get("after")) || Date.now();
      const wait = Math.min(options.imageDelay, after + options.imageDelay - Date.now());
      setTimeout(() => send(200, "image/svg+xml", svg), Math.max(0, wait));
      return;
    }
    if (url.pathname === "/report" && request.method === "POST") {
      // The measuring page's results, printed for whoever drives it (the browser test reads them here).
      let body = "";
      for await (const chunk of request) body += chunk;
      console.log(`report ${body.replace(/\n/g, " ")}`);
      return send(204, "text/plain", "");
    }
    send(404, "text/plain", "not found");
  } catch (error) {
    send(500, "text/plain", String(error.message));
  }
});
server.listen(options.port, "127.0.0.1", () => {
  console.log(`photo feed on http://127.0.0.1:${server.address().port}/`);
});
