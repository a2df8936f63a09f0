// serving - the calls of the Serving and Chat pages: model services (the
// gateway's /services and GraphQL endpoint, reference part 2 §C), and the
// OpenAI-compatible API a service's URL answers, called straight from the
// browser (the wsproxy answers CORS for it) with the service's token.

import * as api from '../api.js';
import { mutate } from './mutation.js';

const at = (id) => '/services/' + encodeURIComponent(id);

const ENDPOINT_FIELDS = `endpoint_id name status lifecycle_stage url open_to_public desired_session_count
  image resource_group model model_mount_destination resource_slots created_at retries
  routings { routing_id session status traffic_ratio created_at error }
  errors { session_id errors }`;

// Mine (GET /services: the live ones I own) with their status from
// endpoint_list, which only the list of GraphQL carries.
export async function listServices() {
  const [mine, gql] = await Promise.all([
    api.get('/services'),
    api.gql(`query { endpoint_list(limit: 100, offset: 0) { items { endpoint_id status routings { status } } } }`),
  ]);
  const byId = new Map(((gql.endpoint_list || {}).items || []).map((e) => [e.endpoint_id, e]));
  return (mine || []).map((s) => {
    const e = byId.get(s.id) || {};
    return { ...s, status: e.status || 'READY', routes: e.routings || [] };
  });
}

export async function getService(id) {
  const r = await api.gql(`query($id: UUID!) { endpoint(endpoint_id: $id) { ${ENDPOINT_FIELDS} } }`, { id });
  return r.endpoint;
}

export const createService = (body) => api.post('/services', body);
export const deleteService = (id) => api.del(at(id));
export const scaleService = (id, to) => api.post(at(id) + '/scale', { to });
export const serviceErrors = (id) => api.get(at(id) + '/errors');
export const clearErrors = (id) => api.post(at(id) + '/errors/clear', {});
export const setTraffic = (id, route, ratio) => api.put(at(id) + '/routings/' + encodeURIComponent(route), { traffic_ratio: ratio });
export const dropRoute = (id, route) => api.del(at(id) + '/routings/' + encodeURIComponent(route));
export const makeToken = (id, seconds) =>
  api.post(at(id) + '/token', { valid_until: Math.floor(Date.now() / 1000) + seconds }).then((r) => r.token);

// ---------------------------------------------------------------------------
// Autoscaling rules (GraphQL, Backend.AI's EndpointAutoScalingRuleNode).

const RULE_FIELDS = `id row_id metric_source metric_name threshold comparator step_size
  cooldown_seconds min_replicas max_replicas created_at last_triggered_at`;

export const RULE_METRICS = { KERNEL: 'cpu_util', INFERENCE_FRAMEWORK: 'requests_per_second' };
export const RULE_COMPARATORS = ['GREATER_THAN', 'GREATER_THAN_OR_EQUAL', 'LESS_THAN', 'LESS_THAN_OR_EQUAL'];

export async function listRules(endpoint) {
  const r = await api.gql(
    `query($endpoint: String!) { endpoint_auto_scaling_rule_nodes(endpoint: $endpoint) { edges { node { ${RULE_FIELDS} } } } }`,
    { endpoint },
  );
  return ((r.endpoint_auto_scaling_rule_nodes || {}).edges || []).map((e) => e.node);
}

export const createRule = (endpoint, props) =>
  mutate(
    'create_endpoint_auto_scaling_rule_node',
    `mutation($endpoint: String!, $props: EndpointAutoScalingRuleInput!) {
      create_endpoint_auto_scaling_rule_node(endpoint: $endpoint, props: $props) { ok msg } }`,
    { endpoint, props },
  );

export const modifyRule = (id, props) =>
  mutate(
    'modify_endpoint_auto_scaling_rule_node',
    `mutation($id: String!, $props: ModifyEndpointAutoScalingRuleInput!) {
      modify_endpoint_auto_scaling_rule_node(id: $id, props: $props) { ok msg } }`,
    { id, props },
  );

export const deleteRule = (id) =>
  mutate(
    'delete_endpoint_auto_scaling_rule_node',
    `mutation($id: String!) { delete_endpoint_auto_scaling_rule_node(id: $id) { ok msg } }`,
    { id },
  );

// Something is still on its way: the pages poll while it is.
export function settling(e) {
  if (!e) return false;
  if (['PROVISIONING', 'DESTROYING', 'DEGRADED'].includes(e.status)) return true;
  const routes = e.routings || e.routes || [];
  return routes.some((r) => r.status === 'PROVISIONING' || r.status === 'TERMINATING') || routes.length !== e.desired_session_count;
}

// ---------------------------------------------------------------------------
// The model's own API, at the service's URL.

function modelUrl(base, path) {
  return base.replace(/\/+$/, '') + path;
}

function headers(token, json) {
  const h = { Accept: json ? 'application/json' : 'text/event-stream, application/json' };
  if (token) h.Authorization = 'Bearer ' + token;
  if (json !== undefined) h['Content-Type'] = 'application/json';
  return h;
}

async function failure(res) {
  let detail = '';
  try {
    const text = await res.text();
    try {
      const body = JSON.parse(text);
      detail = body.detail || (body.error && (body.error.message || body.error)) || body.title || text;
    } catch (e) {
      detail = text;
    }
  } catch (e) {
    // the status says enough
  }
  return new api.ApiError(res.status, res.statusText, `${res.status} ${res.statusText}${detail ? ': ' + detail : ''}`);
}

async function call(url, init) {
  try {
    return await fetch(url, init);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new api.ApiError(0, 'unreachable', e.message);
  }
}

// GET {url}/v1/models: the ids of the models it serves.
export async function listModels(base, token) {
  const res = await call(modelUrl(base, '/v1/models'), { headers: headers(token) });
  if (!res.ok) throw await failure(res);
  const body = await res.json();
  return (body.data || []).map((m) => m.id);
}

// The content of each event of a chat completion's stream: OpenAI's
// "data: {choices:[{delta:{content}}]}" lines, up to "data: [DONE]".
// Feeds text (any piece of the stream) and returns what is left unparsed.
export function sseFeed(buffer, onDelta) {
  let at;
  while ((at = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, at).replace(/\r$/, '');
    buffer = buffer.slice(at + 1);
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') return { rest: '', done: true };
    try {
      const event = JSON.parse(data);
      const choice = (event.choices || [])[0] || {};
      const text = (choice.delta && choice.delta.content) || (choice.message && choice.message.content) || choice.text || '';
      if (text) onDelta(text);
    } catch (e) {
      // a line that is not JSON: not ours to show
    }
  }
  return { rest: buffer, done: false };
}

// POST {url}/v1/chat/completions with stream: true; onDelta(text) for each
// piece as it comes. A server that answers JSON instead (no streaming) gives
// its whole message at once. Resolves to the whole answer.
export async function chat(base, token, model, messages, onDelta, signal) {
  const res = await call(modelUrl(base, '/v1/chat/completions'), {
    method: 'POST',
    headers: headers(token, false),
    body: JSON.stringify({ model, messages, stream: true }),
    signal,
  });
  if (!res.ok) throw await failure(res);
  let whole = '';
  const add = (text) => {
    whole += text;
    onDelta(text);
  };
  if (!(res.headers.get('Content-Type') || '').includes('text/event-stream')) {
    const body = await res.json();
    const choice = (body.choices || [])[0] || {};
    add((choice.message && choice.message.content) || choice.text || '');
    return whole;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const fed = sseFeed(buffer + decoder.decode(value, { stream: true }), add);
    buffer = fed.rest;
    if (fed.done) {
      reader.cancel().catch(() => {});
      break;
    }
  }
  return whole;
}
