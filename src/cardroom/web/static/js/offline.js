/**
 * The installable app's side of the page: it registers the service worker (/sw.js, see
 * web/templates/sw.js) that keeps the static client for opening the page at once and
 * without the network, and makes sure no tab plays on with an older deploy's scripts.
 *
 * @module offline
 */

/** What the page says, in its header and in a notice, while the network is gone. */
export const OFFLINE_TEXT = "Offline: waiting for the network";

/**
 * Register the service worker. When a newer worker takes over a page an older one served
 * (a deploy changed the client), reload the page: its scripts are the old deploy's. A page
 * no worker served (the first visit) was loaded from the server and is current.
 */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  const servedByWorker = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (servedByWorker) location.reload();
  });
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // Without a worker the page still works; it just needs the network to open.
  });
}

/** Ask the browser to look for a new service worker now (after a reconnection). */
export function checkForNewClient() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.getRegistration()
    .then((registration) => registration && registration.update())
    .catch(() => {});
}
