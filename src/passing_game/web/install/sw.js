// The page's service worker (issue 27, item 5; api.py beside it serves it at
// /sw.js, after the two constants below it fills in: VERSION, a digest of
// the page's files, and FILES, their addresses). It keeps the page's own
// files for a quick start and, with no server, shows the offline page; the
// game itself always needs the server, so nothing else is kept or faked:
// the API and the socket go to the network as they are.
/* global VERSION, FILES, OFFLINE */

const CACHE = "passing-game-" + VERSION;

self.addEventListener("install", (event) => {
  // A new deployment's files replace the old ones only once all are in.
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([...FILES, OFFLINE])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith("passing-game-") && key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    // The page's files: this deployment's copy at once (VERSION changes with them).
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  } else if (request.mode === "navigate") {
    // A page: always the server's; with no server, the honest offline notice.
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});
