// Announcements (docs/web-app.md, "Announcements"): platform-messages' notices for the app's
// client id (`app:client-id`), fetched on load (spec 4.6) and again whenever the retained
// version on `system/messages/<client_id>` (MQTT over WebSocket, spec 6.1) differs from the one
// held. The MQTT client (vendor/paho-mqtt) is loaded only when a broker URL is set.

const DISMISSED = "citizen-app.dismissed";

function dismissed() {
  try {
    return new Set(JSON.parse(localStorage.getItem(DISMISSED) ?? "[]"));
  } catch {
    return new Set();
  }
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = reject;
    document.head.append(script);
  });
}

/// `app`: {api, t, auth, config, renderMarkdown}.
export function createAnnouncements(app) {
  const root = document.getElementById("announcements");
  let version = null;
  let messages = [];
  let loading = null;

  function render() {
    const hidden = dismissed();
    const shown = messages.filter((m) => !hidden.has(`${m.id}@${m.updated_at}`));
    root.hidden = shown.length === 0;
    root.dataset.version = version ?? "";
    root.replaceChildren(
      ...shown.map((message) => {
        const box = document.createElement("div");
        box.className = `announcement kind-${message.kind ?? "info"}`;
        box.dataset.message = message.id;
        if (message.title) {
          const title = document.createElement("h2");
          title.textContent = message.title;
          box.append(title);
        }
        const body = document.createElement("div");
        body.className = "text";
        body.append(app.renderMarkdown(message.text ?? ""));
        box.append(body);
        if (message.dismissible !== false) {
          const close = document.createElement("button");
          close.type = "button";
          close.className = "link-button";
          close.textContent = app.t("dismiss");
          close.addEventListener("click", () => {
            const set = dismissed();
            set.add(`${message.id}@${message.updated_at}`);
            try {
              localStorage.setItem(DISMISSED, JSON.stringify([...set]));
            } catch {
              // not remembered
            }
            render();
          });
          box.append(close);
        }
        return box;
      }),
    );
  }

  async function fetchMessages() {
    const id = encodeURIComponent(app.config.clientId);
    const body = app.auth.signedIn()
      ? await app.api
          .messages(`/me/messages?client_id=${id}`)
          .catch(() => app.api.messages(`/public/clients/${id}/messages`, { signedIn: false }))
      : await app.api.messages(`/public/clients/${id}/messages`, { signedIn: false });
    messages = body?.messages ?? [];
    version = body?.version ?? null;
    render();
  }

  function refresh() {
    loading ??= fetchMessages()
      .catch((error) => console.error(error))
      .finally(() => {
        loading = null;
      });
    return loading;
  }

  async function listen() {
    if (!app.config.mqttUrl) return;
    await loadScript(app.config.mqttLib);
    const Paho = window.Paho;
    const clientId = `web-${Math.random().toString(36).slice(2, 12)}`;
    // Paho wants a path in the URL: "ws://host:port" becomes "ws://host:port/".
    const client = new Paho.Client(new URL(app.config.mqttUrl).href, clientId);
    const topic = `system/messages/${app.config.clientId}`;
    let retry = 1000;
    client.onMessageArrived = (message) => {
      try {
        const notice = JSON.parse(message.payloadString);
        if (notice?.version !== version) refresh();
      } catch {
        refresh();
      }
    };
    const connect = () =>
      client.connect({
        reconnect: false,
        cleanSession: true,
        keepAliveInterval: 30,
        timeout: 10,
        onSuccess: () => {
          retry = 1000;
          client.subscribe(topic, { qos: 1 });
          root.dataset.live = "on";
        },
        onFailure: () => {
          setTimeout(connect, retry);
          retry = Math.min(retry * 2, 60000);
        },
      });
    client.onConnectionLost = () => {
      root.dataset.live = "off";
      // The version may have changed meanwhile: ask again after reconnecting (retained value).
      setTimeout(connect, retry);
    };
    connect();
  }

  return {
    async start() {
      if (!app.config.clientId) return;
      await refresh();
      listen().catch((error) => console.error(error));
    },
    refresh,
    rerender: render,
  };
}
