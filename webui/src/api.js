// api - every call the UI makes to the gateway, through the web listener.
//
// The API lives under /func/ and is authenticated by the login cookie (HttpOnly,
// SameSite=Strict), so the UI never holds a key. A failed call throws an ApiError
// with the problem+json's words, which pages show as they are; a network failure
// throws one with status 0, which the frame reads as "the gateway is unreachable".

export class ApiError extends Error {
  constructor(status, title, detail, type) {
    super(detail || title || `HTTP ${status}`);
    this.status = status;
    this.title = title || '';
    this.detail = detail || '';
    this.type = type || '';
  }
}

// Listeners told of every failed and every successful call, so the frame can
// say "the gateway is down" and take it back by itself.
const health = new Set();
export function onHealth(fn) {
  health.add(fn);
  return () => health.delete(fn);
}
function report(ok, status) {
  for (const fn of health) fn(ok, status);
}

async function problem(res) {
  let title = res.statusText, detail = '', type = '';
  try {
    const body = await res.json();
    // problem+json from the API; {authenticated:false, data:{...}} from /server/login
    const p = body && body.data && body.data.title ? body.data : body;
    title = p.title || title;
    detail = p.detail || p.details || p.msg || p.error_msg || '';
    type = p.type || '';
  } catch (e) {
    // not JSON: the status line says enough
  }
  return new ApiError(res.status, title, detail, type);
}

// One request. path is the API's own path ("/folders"); server paths
// ("/server/login") go as they are. body is sent as JSON unless it is a
// FormData or a Blob.
export async function request(method, path, body, options = {}) {
  const url = path.startsWith('/server/') ? path : '/func' + path;
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (body !== undefined && body !== null) {
    if (body instanceof FormData || body instanceof Blob) init.body = body;
    else {
      init.body = JSON.stringify(body);
      init.headers['Content-Type'] = 'application/json';
    }
  }
  if (options.signal) init.signal = options.signal;
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    report(false, 0);
    throw new ApiError(0, 'unreachable', 'The gateway cannot be reached.');
  }
  report(res.status < 500 || res.status === 501, res.status);
  if (!res.ok) throw await problem(res);
  if (options.raw) return res;
  if (res.status === 204) return null;
  const text = await res.text();
  return text ? JSON.parse(text) : null;
}

export const get = (path, options) => request('GET', path, undefined, options);
export const post = (path, body, options) => request('POST', path, body ?? {}, options);
export const patch = (path, body, options) => request('PATCH', path, body ?? {}, options);
export const put = (path, body, options) => request('PUT', path, body ?? {}, options);
export const del = (path, body, options) => request('DELETE', path, body, options);

// A GraphQL query or mutation on /admin/gql. GraphQL errors become an ApiError.
export async function gql(query, variables = {}) {
  const body = await post('/admin/gql', { query, variables });
  if (body && body.errors && body.errors.length) {
    const message = body.errors.map((e) => e.message).join('; ');
    throw new ApiError(200, 'graphql', message);
  }
  return body && body.data !== undefined ? body.data : body;
}

// Query strings from an object, undefined and '' left out.
export function qs(params) {
  const parts = [];
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '')
      parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(v));
  return parts.length ? '?' + parts.join('&') : '';
}

// The gateway's /healthz: {status, ready, services, missing, waiting}, whose
// 503 (not every service up) is an answer to show, not a failure; so it is
// read here, not through request(), and a degraded platform does not turn on
// the "unreachable" banner.
export async function healthz() {
  let res;
  try {
    res = await fetch('/func/healthz', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  } catch (e) {
    report(false, 0);
    throw new ApiError(0, 'unreachable', 'The gateway cannot be reached.');
  }
  if (res.status !== 200 && res.status !== 503) throw await problem(res);
  return res.json();
}

// A file of the UI's own (sizes.json), beside index.html.
export async function uiFile(name) {
  const res = await fetch('/' + name, { credentials: 'same-origin' });
  if (!res.ok) throw await problem(res);
  return res.json();
}

// The login: {authenticated, data:{access_key, role, ...}}.
export const loginCheck = () => request('GET', '/server/login-check');
// credentials: {username, password}, or {access_key, secret_key} (Backplane's
// keypair login).
export async function login(credentials) {
  const body = await request('POST', '/server/login', credentials);
  if (!body.authenticated) {
    const d = body.data || {};
    throw new ApiError(401, d.title || 'Login failed', d.details || d.detail || '', d.type);
  }
  return body;
}
export const logout = () => request('POST', '/server/logout', {});
