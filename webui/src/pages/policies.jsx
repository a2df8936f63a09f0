// policies - the resource policies of keypairs, users and projects: what each
// allows, and (for a superadmin, the only one the gateway lets change them)
// create, modify and delete. Only the limits Backplane enforces are offered.

import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { HOST_PERMISSIONS, hostsOf, jsonOf, mutate } from '../ui/admin.js';
import { attempt, Dialog, ErrorNote, Field, FormActions, Loaded, Tabs, useApp, useBusy, useLoad } from '../ui/common.jsx';
import { slotName, when } from '../ui/format.js';
import { LimitField, SlotsEditor, limitInput, limitText, limitValue, slotAmount, slotMap, slotTexts, slotsSummary } from '../ui/limits.jsx';

// Each kind's fields: kind 'slots', 'hosts', 'unspecified' (which slots a map
// leaves out allow), or an integer ('int', 'seconds', 'bytes') whose none is
// the value written for "no limit" (undefined: the field always has one).
// The form shows the integers of one group side by side.
const KINDS = {
  keypair: {
    root: 'keypair_resource_policies',
    mutation: 'keypair_resource_policy',
    create: 'CreateKeyPairResourcePolicyInput',
    modify: 'ModifyKeyPairResourcePolicyInput',
    fields: [
      { key: 'default_for_unspecified', kind: 'unspecified' },
      { key: 'total_resource_slots', kind: 'slots' },
      { key: 'max_concurrent_sessions', kind: 'int', none: 0, group: 'sessions' },
      { key: 'max_containers_per_session', kind: 'int', group: 'sessions' },
      { key: 'max_pending_session_count', kind: 'int', none: -1, group: 'sessions' },
      { key: 'max_session_lifetime', kind: 'seconds', none: 0, group: 'time' },
      { key: 'idle_timeout', kind: 'seconds', none: 0, group: 'time' },
      { key: 'max_pending_session_resource_slots', kind: 'slots', never_limited: true },
      { key: 'max_vfolder_count', kind: 'int', none: 0, group: 'folders' },
      { key: 'max_vfolder_size', kind: 'bytes', none: 0, group: 'folders' },
      { key: 'allowed_vfolder_hosts', kind: 'hosts' },
    ],
  },
  user: {
    root: 'user_resource_policies',
    mutation: 'user_resource_policy',
    create: 'CreateUserResourcePolicyInput',
    modify: 'ModifyUserResourcePolicyInput',
    fields: [
      { key: 'max_vfolder_count', kind: 'int', none: 0, group: 'folders' },
      { key: 'max_quota_scope_size', kind: 'bytes', none: -1, group: 'folders' },
    ],
  },
  project: {
    root: 'project_resource_policies',
    mutation: 'project_resource_policy',
    create: 'CreateProjectResourcePolicyInput',
    modify: 'ModifyProjectResourcePolicyInput',
    fields: [
      { key: 'max_vfolder_count', kind: 'int', none: 0, group: 'folders' },
      { key: 'max_quota_scope_size', kind: 'bytes', none: -1, group: 'folders' },
    ],
  },
};

const label = (key) => t('policy.field.' + key);

export default function Policies({ query }) {
  const { me, notify } = useApp();
  const [kind, setKind] = useState(KINDS[query.get('kind')] ? query.get('kind') : 'keypair');
  const spec = KINDS[kind];
  const state = useLoad(async () => {
    // The hosts' permissions: allowed_vfolder_hosts itself is the 22.03
    // schema's list of names, allowed_vfolder_host_permissions what is kept.
    const fields = spec.fields.map((f) => (f.kind === 'hosts' ? `${f.key} allowed_vfolder_host_permissions` : f.key)).join(' ');
    const [data, kinds, hosts] = await Promise.all([
      api.gql(`query { ${spec.root} { name created_at ${fields} } }`),
      kind === 'keypair' ? api.get('/config/resource-slots') : {},
      kind === 'keypair' ? api.get('/folders/_/all-hosts').catch(() => ({ allowed: [] })) : { allowed: [] },
    ]);
    const items = (data[spec.root] || []).map((p) =>
      p.allowed_vfolder_host_permissions ? { ...p, allowed_vfolder_hosts: p.allowed_vfolder_host_permissions } : p,
    );
    return { items, kinds: kinds || {}, hosts: hosts.allowed || [] };
  }, [kind]);
  const [editing, setEditing] = useState(null); // {policy} to modify, {} to create
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const superadmin = me.role === 'superadmin';

  const remove = (p) =>
    run(() =>
      attempt(setError, () => mutate(`delete_${spec.mutation}`, `mutation($name: String!) { delete_${spec.mutation}(name: $name) { ok msg } }`, { name: p.name }), {
        ask: t('policy.confirm_delete', { name: p.name }),
        done: t('policy.deleted', { name: p.name }),
        notify,
        then: state.reload,
      }),
    );

  return (
    <section class="page">
      <div class="page-head">
        <h1>{t('nav.policies')}</h1>
        {superadmin && (
          <button type="button" class="primary" onClick={() => setEditing({})}>
            {t('policy.create')}
          </button>
        )}
      </div>
      <div class="toolbar">
        <Tabs label={t('policy.kinds')} value={kind} onChange={setKind} tabs={Object.keys(KINDS).map((k) => [k, t('policy.kind.' + k)])} />
      </div>
      {!superadmin && <p class="note info">{t('policy.read_only')}</p>}
      <ErrorNote error={error} />
      <Loaded state={state}>
        {(data) => (
          <>
            <PolicyTable kind={kind} items={data.items} onEdit={superadmin ? setEditing : null} onDelete={superadmin ? remove : null} busy={busy} />
            {editing && (
              <PolicyDialog
                kind={kind}
                policy={editing.name ? editing : null}
                kinds={data.kinds}
                hosts={data.hosts}
                onClose={() => setEditing(null)}
                onSaved={(name, created) => {
                  setEditing(null);
                  notify(t(created ? 'policy.created' : 'policy.saved', { name }));
                  state.reload();
                }}
              />
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

function cell(policy, key) {
  const f = Object.values(KINDS)
    .flatMap((k) => k.fields)
    .find((x) => x.key === key);
  const v = policy[key];
  if (f.kind === 'slots') return slotsSummary(jsonOf(v), !f.never_limited && policy.default_for_unspecified === 'LIMITED');
  if (f.kind === 'hosts') return Object.keys(hostsOf(v)).join(', ') || '—';
  if (f.none === undefined) return String(v ?? '—');
  return limitText(v, f.kind);
}

// A table's columns: each names the fields it shows, one line each, labelled
// when there are several.
const COLUMNS = {
  keypair: [
    ['total_resource_slots'],
    ['sessions', 'max_concurrent_sessions', 'max_containers_per_session'],
    ['time', 'max_session_lifetime', 'idle_timeout'],
    ['pending', 'max_pending_session_count', 'max_pending_session_resource_slots'],
    ['folders', 'max_vfolder_count', 'max_vfolder_size'],
    ['allowed_vfolder_hosts'],
  ],
  user: [['max_vfolder_count'], ['max_quota_scope_size']],
  project: [['max_vfolder_count'], ['max_quota_scope_size']],
};

function Cell({ policy, column }) {
  if (column[0] === 'total_resource_slots') {
    const slots = jsonOf(policy.total_resource_slots);
    if (Object.keys(slots).length)
      return (
        <dl class="pairs">
          {Object.keys(slots).map((name) => (
            <div key={name}>
              <dt>{slotName(name)}</dt>
              <dd>{slotAmount(name, slots[name])}</dd>
            </div>
          ))}
        </dl>
      );
  }
  if (column.length === 1) return cell(policy, column[0]);
  return (
    <dl class="pairs">
      {column.slice(1).map((key) => (
        <div key={key}>
          <dt>{t('policy.short.' + key)}</dt>
          <dd>{cell(policy, key)}</dd>
        </div>
      ))}
    </dl>
  );
}

function PolicyTable({ kind, items, onEdit, onDelete, busy }) {
  if (!items.length) return <p class="empty">{t('policy.none')}</p>;
  const columns = COLUMNS[kind];
  return (
    <div class="table-wrap">
      <table class="policies">
        <thead>
          <tr>
            <th scope="col">{t('policy.name')}</th>
            {columns.map((c) => (
              <th scope="col" key={c[0]}>
                {t('policy.column.' + c[0])}
              </th>
            ))}
            <th scope="col">{t('policy.created_at')}</th>
            {onEdit && (
              <th scope="col">
                <span class="sr-only">{t('sessions.controls')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((p) => (
            <tr key={p.name} data-policy={p.name}>
              <th scope="row">{p.name}</th>
              {columns.map((c) => (
                <td key={c[0]} class={c.length > 1 || c[0] === 'total_resource_slots' || c[0] === 'allowed_vfolder_hosts' ? 'small' : ''}>
                  <Cell policy={p} column={c} />
                </td>
              ))}
              <td class="small">{when(p.created_at)}</td>
              {onEdit && (
                <td class="controls">
                  <button type="button" class="small" onClick={() => onEdit(p)} aria-label={t('policy.edit_named', { name: p.name })}>
                    {t('action.edit')}
                  </button>
                  <button type="button" class="small danger" disabled={busy} onClick={() => onDelete(p)} aria-label={t('policy.delete_named', { name: p.name })}>
                    {t('action.delete')}
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// The form's texts for a policy (or a new one's defaults).
function initialForm(spec, policy, kinds) {
  const limited = policy ? policy.default_for_unspecified === 'LIMITED' : false;
  const form = { name: policy ? policy.name : '' };
  for (const f of spec.fields) {
    const v = policy ? policy[f.key] : undefined;
    if (f.kind === 'unspecified') form[f.key] = v || 'UNLIMITED';
    else if (f.kind === 'slots') form[f.key] = slotTexts(jsonOf(v), kinds, limited && !f.never_limited);
    else if (f.kind === 'hosts') form[f.key] = hostsOf(v);
    else if (f.none === undefined) form[f.key] = v === undefined || v === null ? '1' : String(v);
    else form[f.key] = limitInput(v, f.kind);
  }
  return form;
}

// The props to send; throws an Error naming a field that is not an amount.
// kinds says which slots hold bytes.
function propsOf(spec, form, kinds) {
  const limited = form.default_for_unspecified === 'LIMITED';
  const props = {};
  for (const f of spec.fields) {
    const v = form[f.key];
    if (f.kind === 'unspecified') props[f.key] = v;
    else if (f.kind === 'slots') props[f.key] = JSON.stringify(slotMap(v, kinds, limited && !f.never_limited));
    else if (f.kind === 'hosts') {
      const hosts = {};
      for (const [host, perms] of Object.entries(v)) hosts[host] = perms || HOST_PERMISSIONS;
      props[f.key] = JSON.stringify(hosts);
    } else props[f.key] = limitValue(v, f.kind, f.none ?? 0, label(f.key));
  }
  return props;
}

// The fields in the form's order: runs of one group together, {name, fields};
// a field of no group alone, {fields: [field]}.
function groups(fields) {
  const out = [];
  for (const f of fields) {
    const last = out[out.length - 1];
    if (f.group && last && last.name === f.group) last.fields.push(f);
    else out.push({ name: f.group, fields: [f] });
  }
  return out;
}

function PolicyDialog({ kind, policy, kinds, hosts, onClose, onSaved }) {
  const spec = KINDS[kind];
  const [form, setForm] = useState(() => initialForm(spec, policy, kinds));
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const set = (key, value) => setForm((f) => ({ ...f, [key]: value }));

  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      setError(null);
      try {
        const props = propsOf(spec, form, kinds);
        const verb = policy ? 'modify' : 'create';
        await mutate(
          `${verb}_${spec.mutation}`,
          `mutation($name: String!, $props: ${spec[verb]}!) { ${verb}_${spec.mutation}(name: $name, props: $props) { ok msg } }`,
          { name: policy ? policy.name : form.name.trim(), props },
        );
        onSaved(policy ? policy.name : form.name.trim(), !policy);
      } catch (err) {
        setError(err instanceof api.ApiError ? err : { detail: err.message });
      }
    });
  };

  const title = policy ? t('policy.modify_title', { name: policy.name }) : t('policy.create_title.' + kind);
  const allHosts = [...new Set([...hosts, ...Object.keys(form.allowed_vfolder_hosts || {})])];
  return (
    <Dialog title={title} open onClose={onClose} wide>
      <form onSubmit={submit}>
        {!policy && (
          <Field label={t('policy.name')}>
            {(id) => <input id={id} required maxLength={63} value={form.name} onInput={(e) => set('name', e.target.value)} />}
          </Field>
        )}
        {groups(spec.fields).map((g) => {
          if (g.name)
            return (
              <fieldset key={g.name}>
                <legend>{t('policy.group.' + g.name)}</legend>
                <div class="row">
                  {g.fields.map((f) => (
                    <LimitField
                      key={f.key}
                      id={'policy-' + f.key}
                      label={label(f.key)}
                      kind={f.kind}
                      value={form[f.key]}
                      noLimit={f.none !== undefined}
                      onInput={(v) => set(f.key, v)}
                    />
                  ))}
                </div>
              </fieldset>
            );
          const f = g.fields[0];
          if (f.kind === 'unspecified')
            return (
              <Field key={f.key} label={label(f.key)}>
                {(id) => (
                  <select id={id} value={form[f.key]} onChange={(e) => set(f.key, e.target.value)}>
                    <option value="UNLIMITED">{t('policy.unspecified.UNLIMITED')}</option>
                    <option value="LIMITED">{t('policy.unspecified.LIMITED')}</option>
                  </select>
                )}
              </Field>
            );
          if (f.kind === 'slots')
            return <SlotsEditor key={f.key} id={'policy-' + f.key} legend={label(f.key)} kinds={kinds} value={form[f.key]} onChange={(v) => set(f.key, v)} />;
          return (
            <fieldset key={f.key}>
              <legend>{label(f.key)}</legend>
              {allHosts.length ? (
                <ul class="checks">
                  {allHosts.map((host) => (
                    <li key={host}>
                      <label class="inline">
                        <input
                          type="checkbox"
                          checked={host in form[f.key]}
                          onChange={(e) => {
                            const next = { ...form[f.key] };
                            if (e.target.checked) next[host] = null;
                            else delete next[host];
                            set(f.key, next);
                          }}
                        />
                        {host}
                      </label>
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="muted">{t('policy.no_hosts')}</p>
              )}
            </fieldset>
          );
        })}
        <ErrorNote error={error} />
        <FormActions busy={busy} label={policy ? t('action.save') : t('action.create')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
