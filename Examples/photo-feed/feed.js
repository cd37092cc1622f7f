// The photo feed's script. The server-rendered page is already placed by layout.css; once it has been shown,
// this script takes over at the container's real width with the daemon's frames (no box moves: the stylesheet
// put every box where these frames do), appends a page of photos when the reader nears the end, and re-places
// the feed from frames for the new width when the container is resized.
const feed = document.querySelector(".feed");
let count = feed.children.length;
let width = 0;
let more = true;
let pending = null;

async function frames(count, width, from) {
  const response = await fetch(`/frames?width=${width}&count=${count}&from=${from}`);
  if (!response.ok) throw new Error(await response.text());
  return response.json();
}

// Every element at its frame, in px: `top` and no margin, since the stylesheet places with `margin-top`.
function place({ height, items }) {
  feed.style.height = `${height}px`;
  items.forEach(([x, y, w, h], k) => {
    const style = feed.children[k].style;
    Object.assign(style, { left: `${x}px`, top: `${y}px`, marginTop: "0", width: `${w}px`, height: `${h}px` });
    style.aspectRatio = "auto";
  });
}

// One change at a time: a resize waits for an append, and the other way round.
function serially(work) {
  const run = (pending ?? Promise.resolve()).then(work);
  const settled = run.catch((error) => console.error(error));
  pending = settled;
  settled.then(() => {
    if (pending === settled) pending = null;
  });
  return run;
}

/** Takes over from the stylesheet at the container's real width. */
export function handover() {
  return serially(async () => {
    width = feed.getBoundingClientRect().width;
    place(await frames(count, width, count));
  });
}

/** Appends the next page of photos, placed at the current width. */
export function append() {
  return serially(async () => {
    if (!more) return;
    const next = await frames(count + 30, width, count);
    feed.insertAdjacentHTML("beforeend", next.html);
    count = next.items.length;
    more = next.more;
    place(next);
  });
}

function nearTheEnd() {
  return window.scrollY + 2 * window.innerHeight > document.documentElement.scrollHeight;
}

window.photoFeed = { handover, append, count: () => count };
if (!new URLSearchParams(location.search).has("manual")) {
  // After the first frame the server's page is on screen: hand over, then follow the reader.
  requestAnimationFrame(() =>
    setTimeout(async () => {
      await handover();
      window.addEventListener("scroll", () => nearTheEnd() && !pending && append(), { passive: true });
      let timer;
      new ResizeObserver(() => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          const now = feed.getBoundingClientRect().width;
          if (now === width) return;
          serially(async () => {
            width = now;
            place(await frames(count, width, count));
          });
        }, 100);
      }).observe(feed);
    }),
  );
}
