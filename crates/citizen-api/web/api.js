// Calls to the three services. Every refusal becomes an ApiError carrying the API's localized
// `userinfo` (the citizen sees it as it is) and its machine `name`.

export class ApiError extends Error {
  constructor(status, name, userinfo) {
    super(userinfo || name || `HTTP ${status}`);
    this.status = status;
    this.code = name;
    this.userinfo = userinfo;
  }
}

/// `config`: {api, streetsApi, platformMessages}; `auth.token()` the bearer token or null;
/// `language()` the page's language, sent as Accept-Language so `userinfo` comes in it.
export function createApi(config, auth, language) {
  async function request(url, { method = "GET", body, headers = {}, signedIn = true, fresh = false } = {}) {
    const all = { Accept: "application/json", "Accept-Language": language(), ...headers };
    const token = signedIn ? auth.token() : null;
    if (token) all.Authorization = `Bearer ${token}`;
    let payload = body;
    if (body !== undefined && !(body instanceof FormData)) {
      all["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    let response;
    try {
      // `fresh`: after the citizen's own change, past the API's short max-age (revalidated by ETag).
      response = await fetch(url, { method, headers: all, body: payload, cache: fresh ? "no-cache" : "default" });
    } catch (error) {
      throw new ApiError(0, "NETWORK", "");
    }
    if (response.status === 204) return null;
    const text = await response.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!response.ok) {
      if (response.status === 401 && token) auth.expired();
      throw new ApiError(response.status, data?.name, data?.userinfo);
    }
    return data;
  }
  /// A file the API answers (signed in), saved by the browser as `filename`.
  async function download(url, filename) {
    const headers = { "Accept-Language": language() };
    const token = auth.token();
    if (token) headers.Authorization = `Bearer ${token}`;
    let response;
    try {
      response = await fetch(url, { headers, cache: "no-cache" });
    } catch (error) {
      throw new ApiError(0, "NETWORK", "");
    }
    if (!response.ok) {
      const data = await response.json().catch(() => null);
      throw new ApiError(response.status, data?.name, data?.userinfo);
    }
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = filename;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
  }
  const query = (params) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      for (const item of [].concat(value)) {
        if (item !== undefined && item !== null && item !== "") search.append(key, item);
      }
    }
    const text = search.toString();
    return text ? `?${text}` : "";
  };
  return {
    request,
    query,
    citizen: (path, options) => request(`${config.api}${path}`, options),
    download: (path, filename) => download(`${config.api}${path}`, filename),
    streets: (path, options) => request(`${config.streetsApi}${path}`, { ...options, signedIn: false }),
    messages: (path, options) => request(`${config.platformMessages}${path}`, options),
  };
}
