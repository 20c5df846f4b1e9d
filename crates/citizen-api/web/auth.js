// Signing in (docs/web-app.md, "Signing in"): OpenID Connect authorization code with PKCE
// against the city's provider when `app:oidc-issuer` is set; for the embedded default only, the
// local dev sign-in (`POST /dev/sign-in`) when `app:dev-sign-in` is `on`. The access token is
// kept in sessionStorage (gone with the tab), never in a cookie.

const STORED = "citizen-app.token";
const PKCE = "citizen-app.pkce";

function read(key) {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage off: signed in for this page only
  }
}

function base64url(bytes) {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function randomString() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

/// The scopes of a JWT (`scope`, space separated, and/or `scp`), read (not verified: the API
/// verifies) for showing an officer the officers' pages.
function scopesOf(token) {
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(part));
    const scp = Array.isArray(claims.scp) ? claims.scp : String(claims.scp ?? "").split(" ");
    return [...String(claims.scope ?? "").split(" "), ...scp].filter(Boolean);
  } catch {
    return [];
  }
}

/// The subject of a JWT, read (not verified: the API verifies) for showing who is signed in.
function subjectOf(token) {
  try {
    const part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
    const claims = JSON.parse(atob(part));
    return claims.preferred_username ?? claims.name ?? claims.sub ?? "";
  } catch {
    return "";
  }
}

export function createAuth(config) {
  let session = read(STORED);
  if (session && session.expiresAt && session.expiresAt < Date.now()) session = null;
  const listeners = [];
  const changed = () => listeners.forEach((listener) => listener());
  const set = (token, expiresIn) => {
    session = token
      ? { token, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : null, who: subjectOf(token) }
      : null;
    write(STORED, session);
    changed();
  };
  const redirectUri = () => `${config.publicUrl || window.location.origin}/`;

  async function discovery() {
    const issuer = config.oidcIssuer.replace(/\/$/, "");
    const response = await fetch(`${issuer}/.well-known/openid-configuration`);
    if (!response.ok) throw new Error(`discovery: ${response.status}`);
    return response.json();
  }

  return {
    token: () => session?.token ?? null,
    who: () => session?.who ?? "",
    signedIn: () => Boolean(session?.token),
    /// Whether the token carries an officer's scope (the officers' pages, docs/web-app.md).
    officer: () =>
      scopesOf(session?.token ?? "").some((s) => s === "cityuser:reports:read" || s === "cityuser:reports:manage"),
    /// Whether the token carries `scope` (read, not verified: the API decides).
    has: (scope) => scopesOf(session?.token ?? "").includes(scope),
    onChange: (listener) => listeners.push(listener),
    expired: () => set(null),
    signOut: () => set(null),
    devAvailable: () => config.devSignIn === "on",
    oidcAvailable: () => Boolean(config.oidcIssuer && config.oidcClientId),

    /// The dev sign-in: a token minted by citizen-api for `sub`.
    async devSignIn(sub) {
      const response = await fetch("/dev/sign-in", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ sub }),
      });
      const body = await response.json().catch(() => null);
      if (!response.ok || !body?.access_token) {
        throw new Error(body?.userinfo ?? `sign-in: ${response.status}`);
      }
      set(body.access_token, body.expires_in);
    },

    /// Goes to the provider's authorization endpoint (code flow, S256 PKCE).
    async oidcSignIn() {
      const meta = await discovery();
      const verifier = randomString();
      const state = randomString();
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
      write(PKCE, { verifier, state, back: window.location.pathname });
      const params = new URLSearchParams({
        response_type: "code",
        client_id: config.oidcClientId,
        redirect_uri: redirectUri(),
        scope: "openid profile email",
        state,
        code_challenge: base64url(digest),
        code_challenge_method: "S256",
      });
      window.location.assign(`${meta.authorization_endpoint}?${params}`);
    },

    /// On return from the provider (`?code=…&state=…`): trades the code for a token.
    async completeOidc() {
      const params = new URLSearchParams(window.location.search);
      const code = params.get("code");
      const pending = read(PKCE);
      if (!code || !pending) return;
      write(PKCE, null);
      window.history.replaceState(null, "", pending.back || "/");
      if (params.get("state") !== pending.state) return;
      const meta = await discovery();
      const response = await fetch(meta.token_endpoint, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: redirectUri(),
          client_id: config.oidcClientId,
          code_verifier: pending.verifier,
        }),
      });
      const body = await response.json().catch(() => null);
      if (response.ok && body?.access_token) set(body.access_token, body.expires_in);
    },
  };
}
