/**
 * The card room's service worker (served as /sw.js by web/pwa.py, which fills in the
 * version and the files below).
 *
 * It keeps the static client (the page, its scripts, styles and pictures) in a cache named
 * after the client's version, so the page opens at once, and without the network too, where
 * the page then says it is offline and waits. Those files come from the cache; every other
 * request (the socket, /api, /rules, /help, profiles, records) goes to the network as if
 * there were no worker, and nothing it answers is kept: what is played is only ever what
 * the server says now.
 *
 * A deploy that changes the client changes the version: the new worker fetches every file
 * afresh into its own cache, takes over at once and deletes the older caches; the page
 * reloads itself when that happens (js/offline.js), so no tab goes on with old scripts.
 */

const VERSION = {{ version | tojson }};
const FILES = {{ files | tojson }};
const PREFIX = "cardroom-static-";
const CACHE = PREFIX + VERSION;
const KEPT = new Set(FILES);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "reload": from the server, not from the browser's HTTP cache of an older deploy.
    await cache.addAll(FILES.map((file) => new Request(file, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !KEPT.has(url.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The page may carry a query (?ws=… in development): it is the same page.
    const kept = await cache.match(url.pathname, { ignoreSearch: url.pathname === "/" });
    return kept || fetch(request);
  })());
});
