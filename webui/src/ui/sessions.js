// sessions - the calls about compute sessions that several pages share.

import * as api from '../api.js';

export const RUNNING = 'PENDING,SCHEDULED,PREPARING,PULLING,PREPARED,CREATING,RUNNING,RESTARTING,RUNNING_DEGRADED,TERMINATING';
export const FINISHED = 'TERMINATED,CANCELLED,ERROR';

const FIELDS = `id name type image status status_info status_data created_at status_changed terminated_at
  occupied_slots requested_slots agent scaling_group group_name group_id user_email access_key cluster_size cluster_mode result`;

// Every page of compute_session_list for the filters (the gateway gives at most
// 1,000 a page): [{...}], newest first.
export async function listSessions({ status, filter, groupId } = {}) {
  const items = [];
  for (let offset = 0; ; offset += 1000) {
    const data = await api.gql(
      `query($limit: Int!, $offset: Int!, $status: String, $filter: String, $group_id: String) {
        compute_session_list(limit: $limit, offset: $offset, status: $status, filter: $filter,
                             group_id: $group_id, order: "-created_at") {
          total_count items { ${FIELDS} } } }`,
      { limit: 1000, offset, status: status || null, filter: filter || null, group_id: groupId || null },
    );
    const page = data.compute_session_list;
    items.push(...page.items);
    if (items.length >= page.total_count || !page.items.length) return items;
  }
}

export async function getSession(id) {
  const data = await api.gql(`query($id: UUID!) { compute_session(id: $id) { ${FIELDS} service_ports status_transitions } }`, { id });
  return data.compute_session;
}

// The REST routes name a session by name or id; the owner's key lets an
// administrator act on someone else's.
function owner(session, me) {
  return session.access_key && me && session.access_key !== me.access_key
    ? api.qs({ owner_access_key: session.access_key })
    : '';
}

export const terminate = (session, me, forced = false) =>
  api.del(`/session/${encodeURIComponent(session.id)}${owner(session, me)}${forced ? (owner(session, me) ? '&' : '?') + 'forced=true' : ''}`);
export const rename = (session, me, name) =>
  api.post(`/session/${encodeURIComponent(session.id)}/rename${owner(session, me)}`, { name });
export const restart = (session, me) => api.patch(`/session/${encodeURIComponent(session.id)}${owner(session, me)}`);
export const logs = (session, me) => api.get(`/session/${encodeURIComponent(session.id)}/logs${owner(session, me)}`);

export function isLive(status) {
  return RUNNING.split(',').includes(status);
}

// The short image name people know: "python:3.11" of "local.backplane/library/python:3.11".
export function imageName(image) {
  if (!image) return '';
  const parts = image.split('/');
  return parts[parts.length - 1];
}
