// mutation - a GraphQL mutation of the admin API whose answer is {ok, msg, ...}:
// a refusal (ok false) becomes an ApiError with the gateway's words, as a
// failed REST call does.

import * as api from '../api.js';

export async function mutate(field, query, variables) {
  const data = await api.gql(query, variables);
  const r = data && data[field];
  if (!r || !r.ok) throw new api.ApiError(400, '', (r && r.msg) || `${field} failed`);
  return r;
}
