// admin - what the administration pages share: GraphQL mutations, which answer
// {ok, msg} rather than failing, turned into errors with the server's words; the
// pages of a *_list; filters in Backend.AI's minilang; the roles.

import { ApiError, gql } from '../api.js';

// Runs a mutation whose root field is field; its {ok, msg, ...} when ok,
// else an ApiError with msg as the detail the page shows.
export async function mutate(field, query, variables) {
  const data = await gql(query, variables);
  const result = data && data[field];
  if (!result || !result.ok) throw new ApiError(200, '', (result && result.msg) || field + ' failed');
  return result;
}

export const PAGE_SIZE = 50;

// A string literal of the minilang (JSON's escapes are the minilang's).
export const literal = (text) => JSON.stringify(String(text));

// "a ilike x | b ilike x" for a search in several text fields, '' for none.
export function searchFilter(fields, text) {
  const needle = String(text || '').trim();
  if (!needle) return '';
  const pattern = literal('%' + needle + '%');
  return '(' + fields.map((f) => `${f} ilike ${pattern}`).join(' | ') + ')';
}

// Filters joined with &, '' left out; undefined when none (the argument is then
// not sent).
export function allOf(...filters) {
  const parts = filters.filter(Boolean);
  return parts.length ? parts.join(' & ') : undefined;
}

// Every role a person may have, the strongest first; only a superadmin gives
// superadmin (the gateway refuses it to anyone else).
export const ROLES = ['superadmin', 'admin', 'monitor', 'user'];
export const rolesFor = (me) => (me.role === 'superadmin' ? ROLES : ROLES.filter((r) => r !== 'superadmin'));

// Every permission a folder host grants; a host ticked in a policy gets them all.
export const HOST_PERMISSIONS = [
  'create-vfolder',
  'modify-vfolder',
  'delete-vfolder',
  'mount-in-session',
  'upload-file',
  'download-file',
  'invite-others',
  'set-user-specific-permission',
];

// JSON the gateway keeps as text ("{}", '{"cpu":"4"}'), as an object.
export function jsonOf(value) {
  if (!value) return {};
  if (typeof value === 'object') return value;
  try {
    const parsed = JSON.parse(value);
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch (e) {
    return {};
  }
}

// allowed_vfolder_hosts as {host: [permission...] | null}: the gateway keeps
// either that or a list of names, each granting everything.
export function hostsOf(value) {
  const parsed = jsonOf(value);
  if (Array.isArray(parsed)) return Object.fromEntries(parsed.map((h) => [h, null]));
  return parsed;
}

// A moment as a day for a crowded table; the cell's title gives the whole time.
export function day(iso) {
  const d = new Date(iso);
  return iso && !isNaN(d) ? d.toLocaleDateString() : '—';
}
