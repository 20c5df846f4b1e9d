// The web app's service worker (docs/web-app.md, "Notifications"): shows the platform's web push
// messages ({title, body, url, tag}, encrypted by citizen-api for this browser) and opens the
// entry's page when one is clicked. It caches nothing: the pages and the API answer as ever.

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || self.location.host, {
      body: message.body || "",
      tag: message.tag,
      data: { url: message.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  // Only this site's pages: a link elsewhere opens the start page instead.
  let target = new URL("/", self.location.origin);
  try {
    const url = new URL(event.notification.data?.url || "/", self.location.origin);
    if (url.origin === self.location.origin) target = url;
  } catch {
    // keep the start page
  }
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (!open) return self.clients.openWindow(target.href);
      // A window this worker does not control (open since before it was registered) cannot be
      // navigated by it: a new window then.
      return open
        .navigate(target.href)
        .then((client) => (client ?? open).focus())
        .catch(() => self.clients.openWindow(target.href));
    }),
  );
});
