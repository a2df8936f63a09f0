// users - the people of my domain (every domain for a superadmin): find them by
// status, role and name; create, modify (a new password too), activate or
// deactivate, delete; and see each one's keypairs.

import { useEffect, useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { PAGE_SIZE, allOf, literal, mutate, rolesFor, searchFilter } from '../ui/admin.js';
import { attempt, Dialog, ErrorNote, Field, FormActions, Loaded, Status, Tabs, useApp, useBusy, useLoad } from '../ui/common.jsx';
import { KEYPAIR_FIELDS, KeypairTable } from '../ui/keypairs.jsx';
import { Pager } from '../ui/pager.jsx';

const USER_FIELDS = 'uuid email username full_name description status is_active need_password_change domain_name role resource_policy created_at groups { id name }';

export default function Users() {
  const { me, notify } = useApp();
  const [active, setActive] = useState(true);
  const [role, setRole] = useState('');
  const [search, setSearch] = useState('');
  const [needle, setNeedle] = useState(''); // the search, once typing pauses
  const [offset, setOffset] = useState(0);
  const [dialog, setDialog] = useState(null); // {mode: 'create'|'modify'|'keypairs', user}
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();

  useEffect(() => {
    const timer = setTimeout(() => setNeedle(search), 300);
    return () => clearTimeout(timer);
  }, [search]);
  useEffect(() => setOffset(0), [active, role, needle]);

  const state = useLoad(async () => {
    const filter = allOf(searchFilter(['email', 'username', 'full_name'], needle), role && `role == ${literal(role)}`);
    const data = await api.gql(
      `query($offset: Int!, $limit: Int!, $active: Boolean, $filter: String) {
        user_list(offset: $offset, limit: $limit, is_active: $active, filter: $filter, order: "email") {
          items { ${USER_FIELDS} } total_count } }`,
      { offset, limit: PAGE_SIZE, active, filter },
    );
    return data.user_list;
  }, [active, role, needle, offset]);

  const setStatus = (user, status) =>
    run(async () => {
      setError(null);
      try {
        await mutate('modify_user', 'mutation($email: String!, $props: ModifyUserInput!) { modify_user(email: $email, props: $props) { ok msg } }', {
          email: user.email,
          props: { status },
        });
        notify(t(status === 'active' ? 'users.activated' : 'users.deactivated', { email: user.email }));
        state.reload();
      } catch (e) {
        setError(e);
      }
    });

  const remove = (user) =>
    run(() =>
      attempt(setError, () => mutate('delete_user', 'mutation($email: String!) { delete_user(email: $email) { ok msg } }', { email: user.email }), {
        ask: t('users.confirm_delete', { email: user.email }),
        done: t('users.deleted', { email: user.email }),
        notify,
        then: state.reload,
      }),
    );

  const saved = (email, created) => {
    setDialog(null);
    notify(t(created ? 'users.created' : 'users.saved', { email }));
    state.reload();
  };

  return (
    <section class="page">
      <div class="page-head">
        <h1>{t('nav.users')}</h1>
        <button type="button" class="primary" onClick={() => setDialog({ mode: 'create' })}>
          {t('users.create')}
        </button>
      </div>
      <div class="toolbar">
        <Tabs label={t('users.status_filter')} value={active} onChange={setActive} tabs={[[true, t('users.tab.active')], [false, t('users.tab.inactive')]]} />
        <label>
          {t('users.role')}
          <select value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="">{t('users.role.all')}</option>
            {rolesFor({ role: 'superadmin' }).map((r) => (
              <option value={r} key={r}>
                {t('role.' + r)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('users.search')}
          <input type="search" value={search} onInput={(e) => setSearch(e.target.value)} placeholder={t('users.search_hint')} />
        </label>
      </div>
      <ErrorNote error={error} />
      <Loaded state={state}>
        {(page) => (
          <>
            {page.items.length ? (
              <div class="table-wrap">
                <table class="users">
                  <thead>
                    <tr>
                      <th scope="col">{t('users.email')}</th>
                      <th scope="col">{t('users.name')}</th>
                      <th scope="col">{t('users.role')}</th>
                      {me.role === 'superadmin' && <th scope="col">{t('users.domain')}</th>}
                      <th scope="col">{t('users.projects')}</th>
                      <th scope="col">{t('users.status')}</th>
                      <th scope="col">
                        <span class="sr-only">{t('sessions.controls')}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((u) => (
                      <tr key={u.uuid} data-user={u.email}>
                        <th scope="row">{u.email}</th>
                        <td>
                          {u.full_name || (u.username !== u.email ? u.username : '—')}
                          {u.full_name && u.username !== u.email && <div class="muted small">{u.username}</div>}
                        </td>
                        <td>{t('role.' + u.role)}</td>
                        {me.role === 'superadmin' && <td>{u.domain_name}</td>}
                        <td class="small">{(u.groups || []).map((g) => g.name).join(', ') || '—'}</td>
                        <td>
                          <Status status={u.status} />
                          {u.need_password_change && <div class="muted small">{t('users.must_change_password')}</div>}
                        </td>
                        <td class="controls">
                          <button type="button" class="small" onClick={() => setDialog({ mode: 'keypairs', user: u })} aria-label={t('users.keypairs_of', { email: u.email })}>
                            {t('users.keypairs')}
                          </button>
                          {/* A domain admin may not change a superadmin, nor anyone themselves. */}
                          {(u.role !== 'superadmin' || me.role === 'superadmin') && (
                            <UserControls user={u} self={u.email === me.email} busy={busy} onEdit={() => setDialog({ mode: 'modify', user: u })} onStatus={setStatus} onDelete={remove} />
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : (
              <p class="empty">{t('users.none')}</p>
            )}
            <Pager offset={offset} total={page.total_count} onOffset={setOffset} />
          </>
        )}
      </Loaded>
      {dialog && dialog.mode === 'keypairs' && <UserKeypairs user={dialog.user} onClose={() => setDialog(null)} />}
      {dialog && dialog.mode !== 'keypairs' && <UserDialog user={dialog.user} onClose={() => setDialog(null)} onSaved={saved} />}
    </section>
  );
}

function UserControls({ user: u, self, busy, onEdit, onStatus, onDelete }) {
  return (
    <>
      <button type="button" class="small" onClick={onEdit} aria-label={t('users.edit_named', { email: u.email })}>
        {t('action.edit')}
      </button>
      {u.status === 'active' ? (
        <button type="button" class="small" disabled={busy || self} onClick={() => onStatus(u, 'inactive')} aria-label={t('users.deactivate_named', { email: u.email })}>
          {t('users.deactivate')}
        </button>
      ) : (
        <button type="button" class="small" disabled={busy} onClick={() => onStatus(u, 'active')} aria-label={t('users.activate_named', { email: u.email })}>
          {t('users.activate')}
        </button>
      )}
      {u.status !== 'deleted' && (
        <button type="button" class="small danger" disabled={busy || self} onClick={() => onDelete(u)} aria-label={t('users.delete_named', { email: u.email })}>
          {t('action.delete')}
        </button>
      )}
    </>
  );
}

// A user's keypairs, read-only; the Credentials page changes them.
function UserKeypairs({ user, onClose }) {
  const state = useLoad(
    () =>
      api
        .gql(
          `query($filter: String) { keypair_list(offset: 0, limit: 100, filter: $filter) { items { ${KEYPAIR_FIELDS} } } }`,
          { filter: `user_id == ${literal(user.email)}` },
        )
        .then((d) => d.keypair_list.items),
    [user.email],
  );
  return (
    <Dialog title={t('users.keypairs_of', { email: user.email })} open onClose={onClose} wide>
      <Loaded state={state}>{(items) => <KeypairTable items={items} compact />}</Loaded>
      <div class="actions">
        <a class="button" href={'/admin/credentials' + api.qs({ email: user.email })}>
          {t('users.manage_keypairs')}
        </a>
        <button type="button" onClick={onClose}>
          {t('action.close')}
        </button>
      </div>
    </Dialog>
  );
}

// Create a user (user undefined) or modify one. The email and the domain are
// fixed once made (the gateway moves no one between domains).
function UserDialog({ user, onClose, onSaved }) {
  const { me } = useApp();
  const superadmin = me.role === 'superadmin';
  const [form, setForm] = useState(() => ({
    email: user ? user.email : '',
    username: user ? user.username : '',
    full_name: user ? user.full_name : '',
    password: '',
    role: user ? user.role : 'user',
    domain_name: user ? user.domain_name : me.domain_name,
    group_ids: user ? (user.groups || []).map((g) => g.id) : null, // null: the domain's first project
    resource_policy: user ? user.resource_policy : 'default',
    status: user ? user.status : 'active',
    need_password_change: user ? user.need_password_change : false,
    description: user ? user.description || '' : '',
  }));
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const set = (key) => (e) => {
    const value = e.target.type === 'checkbox' ? e.target.checked : e.target.value;
    setForm((f) => ({ ...f, [key]: value }));
  };

  const choices = useLoad(async () => {
    const data = await api.gql(
      'query($domain: String) { domains { name } groups(domain_name: $domain) { id name } user_resource_policies { name } }',
      { domain: form.domain_name },
    );
    return data;
  }, [form.domain_name]);
  // A new user is in the domain's first project unless told otherwise.
  const groups = (choices.data && choices.data.groups) || [];
  const groupIds = form.group_ids ?? (groups.length ? [groups[0].id] : []);
  const toggleGroup = (id, on) => setForm((f) => {
    const ids = f.group_ids ?? groupIds;
    return { ...f, group_ids: on ? [...ids, id] : ids.filter((x) => x !== id) };
  });

  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      setError(null);
      const props = {
        username: form.username.trim() || undefined,
        full_name: form.full_name,
        role: form.role,
        group_ids: groupIds,
        resource_policy: form.resource_policy,
        status: form.status,
        need_password_change: form.need_password_change,
        description: form.description,
      };
      if (form.password) props.password = form.password;
      try {
        if (user) {
          await mutate('modify_user', 'mutation($email: String!, $props: ModifyUserInput!) { modify_user(email: $email, props: $props) { ok msg } }', {
            email: user.email,
            props,
          });
          onSaved(user.email, false);
        } else {
          props.domain_name = form.domain_name;
          await mutate('create_user', 'mutation($email: String!, $props: UserInput!) { create_user(email: $email, props: $props) { ok msg } }', {
            email: form.email.trim(),
            props,
          });
          onSaved(form.email.trim(), true);
        }
      } catch (err) {
        setError(err);
      }
    });
  };

  const statuses = ['active', 'inactive', ...(user && !['active', 'inactive'].includes(user.status) ? [user.status] : [])];
  return (
    <Dialog title={user ? t('users.modify_title', { email: user.email }) : t('users.create')} open onClose={onClose} wide>
      <form onSubmit={submit}>
        <div class="row">
          {!user && (
            <Field label={t('users.email')}>
              {(id) => <input id={id} type="email" required autocomplete="off" value={form.email} onInput={set('email')} />}
            </Field>
          )}
          <Field label={t('users.username')} hint={user ? '' : t('users.username_hint')}>
            {(id) => <input id={id} autocomplete="off" value={form.username} onInput={set('username')} />}
          </Field>
          <Field label={t('users.full_name')}>
            {(id) => <input id={id} autocomplete="off" value={form.full_name} onInput={set('full_name')} />}
          </Field>
        </div>
        <div class="row">
          <Field label={user ? t('users.new_password') : t('users.password')} hint={user ? t('users.new_password_hint') : ''}>
            {(id) => <input id={id} type="password" autocomplete="new-password" required={!user} value={form.password} onInput={set('password')} />}
          </Field>
          <Field label={t('users.role')}>
            {(id) => (
              <select id={id} value={form.role} onChange={set('role')} disabled={user && user.role === 'superadmin' && !superadmin}>
                {rolesFor(me).map((r) => (
                  <option value={r} key={r}>
                    {t('role.' + r)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('users.status')}>
            {(id) => (
              <select id={id} value={form.status} onChange={set('status')}>
                {statuses.map((s) => (
                  <option value={s} key={s}>
                    {t('status.' + s.toUpperCase())}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <ErrorNote error={choices.error} onRetry={choices.reload} />
        <div class="row">
          <Field label={t('users.domain')} hint={user ? t('users.domain_fixed') : ''}>
            {(id) => (
              <select id={id} value={form.domain_name} onChange={(e) => setForm((f) => ({ ...f, domain_name: e.target.value, group_ids: null }))} disabled={!!user || !superadmin}>
                {((choices.data && choices.data.domains) || [{ name: form.domain_name }]).map((d) => (
                  <option value={d.name} key={d.name}>
                    {d.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('users.resource_policy')}>
            {(id) => (
              <select id={id} value={form.resource_policy} onChange={set('resource_policy')}>
                {((choices.data && choices.data.user_resource_policies) || [{ name: form.resource_policy }]).map((p) => (
                  <option value={p.name} key={p.name}>
                    {p.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <fieldset>
          <legend>{t('users.projects')}</legend>
          {groups.length ? (
            <ul class="checks">
              {groups.map((g) => (
                <li key={g.id}>
                  <label class="inline">
                    <input type="checkbox" checked={groupIds.includes(g.id)} onChange={(e) => toggleGroup(g.id, e.target.checked)} />
                    {g.name}
                  </label>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">{t('users.no_projects')}</p>
          )}
        </fieldset>
        <label class="inline">
          <input type="checkbox" checked={form.need_password_change} onChange={set('need_password_change')} />
          {t('users.need_password_change')}
        </label>
        <Field label={t('users.description')}>
          {(id) => <textarea id={id} rows="2" value={form.description} onInput={set('description')} />}
        </Field>
        <ErrorNote error={error} />
        <FormActions busy={busy} label={user ? t('action.save') : t('action.create')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
