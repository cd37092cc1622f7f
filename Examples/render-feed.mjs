// Server-side rendering with waterfalld: lay out a feed once, for every width from a phone's to a desktop's, and
// write a page whose stylesheet places every item where the daemon does, before any script runs.
//
// Node.js's standard library only. Usage: node render-feed.mjs [SOCKET] [OUTPUT]
// (SOCKET defaults to $WATERFALLD_SOCKET, OUTPUT to feed.html).
import fs from 'node:fs';
import net from 'node:net';

const socket = process.argv[2] ?? process.env.WATERFALLD_SOCKET;
const output = process.argv[3] ?? 'feed.html';

// One connection, newline-delimited JSON-RPC: each call gets the reply with its id.
const connection = net.createConnection(socket);
const pending = new Map();
let buffered = '';
let nextId = 1;
connection.setEncoding('utf8');
connection.on('data', (chunk) => {
  buffered += chunk;
  for (let end; (end = buffered.indexOf('\n')) >= 0; buffered = buffered.slice(end + 1)) {
    const reply = JSON.parse(buffered.slice(0, end));
    const call = pending.get(reply.id);
    if (!call) continue; // an event, or a reply nobody waits for
    pending.delete(reply.id);
    if (reply.error) call.reject(new Error(`${reply.error.data.kind}: ${reply.error.message}`));
    else call.resolve(reply.result);
  }
});
connection.on('error', (error) => {
  for (const call of pending.values()) call.reject(error);
});

function call(method, params) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    connection.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });
}

// A feed of photos of any aspect ratio (seeded, so the page is the same at every run).
let seed = 18;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const photos = Array.from({ length: 60 }, (_, i) => ({ w: 100 + 80 * random(), h: 100 + 50 * random(), id: `photo-${i}` }));

await call('layout.create', {
  layout: 'ssr-feed', replace: true, width: 1000, diff: false,
  defaults: { minColumnWidth: 180, maxColumns: 6, columnSpacing: 8, rowSpacing: 8 },
  sections: [{ headerHeight: 48, insets: { left: 8, right: 8, top: 8, bottom: 8 }, items: photos }],
});
// The first page (24 photos) for containers 320 to 1920 px wide.
const { css, pieces, sections } = await call('layout.css', {
  layout: 'ssr-feed', minWidth: 320, maxWidth: 1920, items: 24, selector: '.feed',
});
connection.end();

// One element per header, item and footer, named by classes: its section's (s0) and its own (h, i5, f).
const escape = (text) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
let elements = '';
for (const { section, items, header, footer } of sections) {
  if (header) elements += `<h2 class="s${section} h">Photos</h2>\n`;
  for (let i = 0; i < items; i++) {
    elements += `<figure class="s${section} i${i}">${escape(photos[i].id)}</figure>\n`;
  }
  if (footer) elements += `<footer class="s${section} f"></footer>\n`;
}
fs.writeFileSync(output, `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Photos</title>
<style>
body{margin:0;font:14px system-ui,sans-serif}
.feed>figure{background:#cbd5e1;border-radius:6px;overflow:hidden}
${css}</style></head><body>
<div class="feed">
${elements}</div>
</body></html>
`);
console.log(`${output}: ${pieces} pieces, ${css.length} bytes of CSS`);
