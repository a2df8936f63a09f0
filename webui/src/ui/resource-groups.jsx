// resource-groups - the resource groups (Backend.AI's scaling groups): their
// scheduler, agent selector and app proxy, who may use them (the domains and
// projects they are associated with), created, changed, associated and
// deleted. The Resources page's second tab; a superadmin's.

import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { attempt, Dialog, ErrorNote, Field, FormActions, Loaded, useApp, useBusy, useLoad } from './common.jsx';
import { mutate } from './mutation.js';

const SCHEDULERS = ['fifo', 'lifo', 'drf', 'priority'];
const SELECTORS = ['concentrated', 'dispersed', 'roundrobin'];

function parseJson(text) {
  try {
    const v = typeof text === 'string' ? JSON.parse(text || '{}') : text;
    return v && typeof v === 'object' ? v : {};
  } catch (e) {
    return {};
  }
}

// The groups, the domains and projects, and which of these each group is
// associated with: one query, a scaling_groups_for_* field per domain and
// per project under an alias of its own.
async function loadGroups() {
  const base = await api.gql(`query {
    scaling_groups { name description is_active is_public created_at wsproxy_addr scheduler scheduler_opts }
    domains { name }
    groups { id name domain_name } }`);
  const domains = base.domains || [], projects = base.groups || [];
  const vars = {}, params = [], fields = [];
  domains.forEach((d, i) => {
    vars['d' + i] = d.name;
    params.push(`$d${i}: String!`);
    fields.push(`d${i}: scaling_groups_for_domain(domain: $d${i}) { name }`);
  });
  projects.forEach((p, i) => {
    vars['p' + i] = p.id;
    params.push(`$p${i}: UUID!`);
    fields.push(`p${i}: scaling_groups_for_user_group(user_group: $p${i}) { name }`);
  });
  const links = fields.length ? await api.gql(`query(${params.join(', ')}) { ${fields.join(' ')} }`, vars) : {};
  const groups = (base.scaling_groups || []).map((g) => ({
    ...g,
    domains: domains.filter((d, i) => (links['d' + i] || []).some((x) => x.name === g.name)).map((d) => d.name),
    projects: projects.filter((p, i) => (links['p' + i] || []).some((x) => x.name === g.name)),
  }));
  return { groups, domains, projects };
}

export function ResourceGroups() {
  const { notify } = useApp();
  const state = useLoad(loadGroups, []);
  const [editing, setEditing] = useState(null); // {} for a new group, or the group
  const [linking, setLinking] = useState(null); // the group whose associations are edited
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();

  const remove = (g) =>
    run(() =>
      attempt(setError, () => mutate('delete_scaling_group', 'mutation($name: String!) { delete_scaling_group(name: $name) { ok msg } }', { name: g.name }), {
        ask: t('groups.confirm_delete', { name: g.name }),
        done: t('groups.deleted', { name: g.name }),
        notify,
        then: state.reload,
      }),
    );

  return (
    <>
      <div class="page-head">
        <p class="muted">{t('groups.intro')}</p>
        <button type="button" class="primary" onClick={() => setEditing({})}>
          {t('groups.new')}
        </button>
      </div>
      <ErrorNote error={error} />
      <Loaded state={state}>
        {(data) => (
          <div class="table-wrap">
            <table class="groups">
              <thead>
                <tr>
                  <th scope="col">{t('groups.name')}</th>
                  <th scope="col">{t('groups.active')}</th>
                  <th scope="col">{t('groups.scheduler')}</th>
                  <th scope="col">{t('groups.selector')}</th>
                  <th scope="col">{t('groups.wsproxy')}</th>
                  <th scope="col">{t('groups.domains')}</th>
                  <th scope="col">{t('groups.projects')}</th>
                  <th scope="col">
                    <span class="sr-only">{t('sessions.controls')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.groups.map((g) => (
                  <tr key={g.name} data-group={g.name}>
                    <td>
                      <strong>{g.name}</strong>
                      {g.description && <div class="muted small">{g.description}</div>}
                    </td>
                    <td>{g.is_active ? t('groups.yes') : t('groups.no')}</td>
                    <td>{g.scheduler}</td>
                    <td>{parseJson(g.scheduler_opts).agent_selector || <span class="muted">{t('groups.selector_default')}</span>}</td>
                    <td class="small">{g.wsproxy_addr || <span class="muted">{t('groups.wsproxy_default')}</span>}</td>
                    <td class="domains">{g.domains.join(', ') || <span class="muted">—</span>}</td>
                    <td class="projects small">{g.projects.map((p) => `${p.name} (${p.domain_name})`).join(', ') || <span class="muted">—</span>}</td>
                    <td class="controls">
                      <button type="button" class="small" onClick={() => setEditing(g)} aria-label={t('groups.edit_name', { name: g.name })}>
                        {t('groups.edit')}
                      </button>
                      <button type="button" class="small" onClick={() => setLinking(g)} aria-label={t('groups.links_of', { name: g.name })}>
                        {t('groups.links')}
                      </button>
                      <button type="button" class="small danger" disabled={busy} onClick={() => remove(g)} aria-label={t('groups.delete_name', { name: g.name })}>
                        {t('groups.delete')}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loaded>
      {editing && (
        <GroupForm
          group={editing.name ? editing : null}
          onDone={(name, created) => {
            setEditing(null);
            notify(t(created ? 'groups.created' : 'groups.modified', { name }));
            state.reload();
          }}
          onClose={() => setEditing(null)}
        />
      )}
      {linking && state.data && (
        <Associations
          group={state.data.groups.find((g) => g.name === linking.name) || linking}
          data={state.data}
          onChanged={state.reload}
          onClose={() => setLinking(null)}
        />
      )}
    </>
  );
}

function GroupForm({ group, onDone, onClose }) {
  const opts = parseJson(group && group.scheduler_opts);
  const { agent_selector: selector0, ...rest } = opts;
  const [form, setForm] = useState({
    name: group ? group.name : '',
    description: (group && group.description) || '',
    active: group ? !!group.is_active : true,
    public: group ? !!group.is_public : true,
    scheduler: (group && group.scheduler) || 'fifo',
    selector: selector0 || '',
    opts: Object.keys(rest).length ? JSON.stringify(rest, null, 2) : '',
    wsproxy: (group && group.wsproxy_addr) || '',
  });
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });

  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      setError(null);
      try {
        let other = {};
        if (form.opts.trim()) {
          try {
            other = JSON.parse(form.opts);
          } catch (err) {
            throw new api.ApiError(400, '', t('groups.opts_bad', { why: err.message }));
          }
          if (!other || typeof other !== 'object' || Array.isArray(other)) throw new api.ApiError(400, '', t('groups.opts_bad', { why: '{…}' }));
        }
        const schedulerOpts = { ...other };
        if (form.selector) schedulerOpts.agent_selector = form.selector;
        const props = {
          description: form.description,
          is_active: form.active,
          is_public: form.public,
          scheduler: form.scheduler,
          scheduler_opts: JSON.stringify(schedulerOpts),
        };
        // Empty: the gateway's own apps.wsproxy_addr serves the group's apps.
        if (form.wsproxy.trim() || group) props.wsproxy_addr = form.wsproxy.trim();
        if (group)
          await mutate(
            'modify_scaling_group',
            'mutation($name: String!, $props: ModifyScalingGroupInput!) { modify_scaling_group(name: $name, props: $props) { ok msg } }',
            { name: group.name, props },
          );
        else
          await mutate(
            'create_scaling_group',
            'mutation($name: String!, $props: CreateScalingGroupInput!) { create_scaling_group(name: $name, props: $props) { ok msg } }',
            { name: form.name.trim(), props: { ...props, driver: 'static', driver_opts: '{}' } },
          );
        onDone(group ? group.name : form.name.trim(), !group);
      } catch (err) {
        setError(err);
      }
    });
  };

  return (
    <Dialog title={group ? t('groups.edit_name', { name: group.name }) : t('groups.new')} open onClose={onClose} wide>
      <form onSubmit={submit}>
        {!group && (
          <Field label={t('groups.name')} hint={t('groups.name_hint')}>
            {(id) => <input id={id} value={form.name} required pattern="[A-Za-z0-9._\-]{1,63}" onInput={set('name')} autocomplete="off" />}
          </Field>
        )}
        <Field label={t('groups.description')}>{(id) => <input id={id} value={form.description} onInput={set('description')} />}</Field>
        <div class="field">
          <label class="inline">
            <input type="checkbox" checked={form.active} onChange={set('active')} /> {t('groups.active')}
          </label>
          <label class="inline">
            <input type="checkbox" checked={form.public} onChange={set('public')} /> {t('groups.public')}
          </label>
        </div>
        <div class="row">
          <Field label={t('groups.scheduler')}>
            {(id) => (
              <select id={id} value={form.scheduler} onChange={set('scheduler')}>
                {SCHEDULERS.map((s) => (
                  <option value={s} key={s}>
                    {s}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('groups.selector')}>
            {(id) => (
              <select id={id} value={form.selector} onChange={set('selector')}>
                <option value="">{t('groups.selector_default')}</option>
                {SELECTORS.map((s) => (
                  <option value={s} key={s}>
                    {s}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Field label={t('groups.opts')} hint={t('groups.opts_hint')}>
          {(id) => <textarea id={id} rows="3" value={form.opts} onInput={set('opts')} placeholder='{"allowed_session_types": ["interactive", "batch"]}' />}
        </Field>
        <Field label={t('groups.wsproxy')} hint={t('groups.wsproxy_hint')}>
          {(id) => <input id={id} value={form.wsproxy} onInput={set('wsproxy')} placeholder="http://wsproxy.example.com:5050" />}
        </Field>
        <ErrorNote error={error} />
        <FormActions busy={busy} label={group ? t('action.save') : t('groups.create')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

// Checkboxes for every domain and project: ticking one associates the group
// with it at once, clearing it takes the association away. A box shows what
// was asked for while the call runs (and after, until the list is read
// again), and goes back if the gateway refuses.
function Associations({ group, data, onChanged, onClose }) {
  const [error, setError] = useState(null);
  const [wanted, setWanted] = useState({});
  const [busy, run] = useBusy();
  const checked = (kind, target, actual) => (kind + ':' + target in wanted ? wanted[kind + ':' + target] : actual);
  const toggle = (kind, target, on) =>
    run(async () => {
      setError(null);
      const key = kind + ':' + target;
      setWanted((w) => ({ ...w, [key]: on }));
      const verb = on ? 'associate' : 'disassociate';
      const field = `${verb}_scaling_group_with_${kind}`;
      const arg = kind === 'domain' ? 'domain' : 'user_group';
      const type = kind === 'domain' ? 'String!' : 'UUID!';
      try {
        await mutate(field, `mutation($sg: String!, $target: ${type}) { ${field}(scaling_group: $sg, ${arg}: $target) { ok msg } }`, {
          sg: group.name,
          target,
        });
        onChanged();
      } catch (e) {
        setWanted(({ [key]: _, ...w }) => w);
        setError(e);
      }
    });
  return (
    <Dialog title={t('groups.links_of', { name: group.name })} open onClose={onClose}>
      <p class="muted small">{t('groups.links_hint')}</p>
      <fieldset>
        <legend>{t('groups.domains')}</legend>
        <ul class="checks">
          {data.domains.map((d) => (
            <li key={d.name}>
              <label>
                <input type="checkbox" disabled={busy} checked={checked('domain', d.name, group.domains.includes(d.name))} onChange={(e) => toggle('domain', d.name, e.target.checked)} /> {d.name}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <fieldset>
        <legend>{t('groups.projects')}</legend>
        {data.projects.length ? (
          <ul class="checks">
            {data.projects.map((p) => (
              <li key={p.id}>
                <label>
                  <input
                    type="checkbox"
                    disabled={busy}
                    checked={checked('user_group', p.id, group.projects.some((x) => x.id === p.id))}
                    onChange={(e) => toggle('user_group', p.id, e.target.checked)}
                  />{' '}
                  {p.name} <span class="muted small">({p.domain_name})</span>
                </label>
              </li>
            ))}
          </ul>
        ) : (
          <p class="empty">—</p>
        )}
      </fieldset>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="button" onClick={onClose}>
          {t('action.close')}
        </button>
      </div>
    </Dialog>
  );
}
