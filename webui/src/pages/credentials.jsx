// credentials - the API keypairs of my domain (every domain for a superadmin):
// issue one for a user with a policy (its secret key shown once), change its
// policy, rate limit and whether it is active, and delete it.

import { useEffect, useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { PAGE_SIZE, allOf, mutate, searchFilter } from '../ui/admin.js';
import { attempt, Dialog, ErrorNote, Field, FormActions, Loaded, Tabs, useApp, useBusy, useLoad } from '../ui/common.jsx';
import { KEYPAIR_FIELDS, KeypairTable } from '../ui/keypairs.jsx';
import { Pager } from '../ui/pager.jsx';

const MODIFY = 'mutation($key: String!, $props: ModifyKeyPairInput!) { modify_keypair(access_key: $key, props: $props) { ok msg } }';

export default function Credentials({ query }) {
  const { me, notify } = useApp();
  const [active, setActive] = useState(true);
  const [search, setSearch] = useState(query.get('email') || '');
  const [needle, setNeedle] = useState(search);
  const [offset, setOffset] = useState(0);
  const [dialog, setDialog] = useState(null); // {mode: 'create'|'modify'|'secret', keypair}
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();

  useEffect(() => {
    const timer = setTimeout(() => setNeedle(search), 300);
    return () => clearTimeout(timer);
  }, [search]);
  useEffect(() => setOffset(0), [active, needle]);

  const state = useLoad(async () => {
    const data = await api.gql(
      `query($offset: Int!, $limit: Int!, $active: Boolean, $filter: String) {
        keypair_list(offset: $offset, limit: $limit, is_active: $active, filter: $filter) { items { ${KEYPAIR_FIELDS} } total_count } }`,
      { offset, limit: PAGE_SIZE, active, filter: allOf(searchFilter(['user_id', 'access_key', 'full_name'], needle)) },
    );
    return data.keypair_list;
  }, [active, needle, offset]);
  // The policies, for the dialogs' choices.
  const policies = useLoad(() => api.gql('query { keypair_resource_policies { name } }').then((d) => d.keypair_resource_policies.map((p) => p.name)), []);

  const setActiveOf = (k, on) =>
    run(async () => {
      setError(null);
      try {
        await mutate('modify_keypair', MODIFY, { key: k.access_key, props: { is_active: on } });
        notify(t(on ? 'keypairs.activated' : 'keypairs.deactivated', { key: k.access_key }));
        state.reload();
      } catch (e) {
        setError(e);
      }
    });

  const remove = (k) =>
    run(() =>
      attempt(setError, () => mutate('delete_keypair', 'mutation($key: String!) { delete_keypair(access_key: $key) { ok msg } }', { key: k.access_key }), {
        ask: t('keypairs.confirm_delete', { key: k.access_key, email: k.user_id }),
        done: t('keypairs.deleted', { key: k.access_key }),
        notify,
        then: state.reload,
      }),
    );

  const controls = (k) => (
    <>
      <button type="button" class="small" onClick={() => setDialog({ mode: 'modify', keypair: k })} aria-label={t('keypairs.edit_named', { key: k.access_key })}>
        {t('action.edit')}
      </button>
      {k.is_active ? (
        <button type="button" class="small" disabled={busy || k.access_key === me.access_key} onClick={() => setActiveOf(k, false)} aria-label={t('keypairs.deactivate_named', { key: k.access_key })}>
          {t('users.deactivate')}
        </button>
      ) : (
        <button type="button" class="small" disabled={busy} onClick={() => setActiveOf(k, true)} aria-label={t('keypairs.activate_named', { key: k.access_key })}>
          {t('users.activate')}
        </button>
      )}
      <button type="button" class="small danger" disabled={busy || k.access_key === me.access_key} onClick={() => remove(k)} aria-label={t('keypairs.delete_named', { key: k.access_key })}>
        {t('action.delete')}
      </button>
    </>
  );

  return (
    <section class="page">
      <div class="page-head">
        <h1>{t('nav.credentials')}</h1>
        <button type="button" class="primary" onClick={() => setDialog({ mode: 'create' })}>
          {t('keypairs.create')}
        </button>
      </div>
      <div class="toolbar">
        <Tabs label={t('keypairs.status_filter')} value={active} onChange={setActive} tabs={[[true, t('users.tab.active')], [false, t('users.tab.inactive')]]} />
        <label>
          {t('keypairs.search')}
          <input type="search" value={search} onInput={(e) => setSearch(e.target.value)} placeholder={t('keypairs.search_hint')} />
        </label>
      </div>
      <ErrorNote error={error} />
      <Loaded state={state}>
        {(page) => (
          <>
            <KeypairTable items={page.items} controls={controls} />
            <Pager offset={offset} total={page.total_count} onOffset={setOffset} />
          </>
        )}
      </Loaded>
      {dialog && dialog.mode === 'create' && (
        <CreateDialog
          policies={policies}
          email={query.get('email') || ''}
          onClose={() => setDialog(null)}
          onCreated={(keypair) => {
            setDialog({ mode: 'secret', keypair });
            state.reload();
          }}
        />
      )}
      {dialog && dialog.mode === 'modify' && (
        <ModifyDialog
          keypair={dialog.keypair}
          policies={policies}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            notify(t('keypairs.saved', { key: dialog.keypair.access_key }));
            state.reload();
          }}
        />
      )}
      {dialog && dialog.mode === 'secret' && <SecretDialog keypair={dialog.keypair} onClose={() => setDialog(null)} />}
    </section>
  );
}

function PolicySelect({ id, policies, value, onChange }) {
  const names = policies.data || [value];
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)} required>
      {names.map((name) => (
        <option value={name} key={name}>
          {name}
        </option>
      ))}
    </select>
  );
}

// Issue a keypair for a user (by email; the datalist offers those I may see).
function CreateDialog({ policies, email, onClose, onCreated }) {
  const [form, setForm] = useState({ email, resource_policy: 'default', rate_limit: '1000', is_active: true });
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const users = useLoad(
    () => api.gql('query { user_list(offset: 0, limit: 100, is_active: true, order: "email") { items { email } } }').then((d) => d.user_list.items.map((u) => u.email)),
    [],
  );

  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      setError(null);
      try {
        const result = await mutate(
          'create_keypair',
          'mutation($user: String!, $props: KeyPairInput!) { create_keypair(user_id: $user, props: $props) { ok msg keypair { access_key secret_key user_id } } }',
          {
            user: form.email.trim(),
            props: { resource_policy: form.resource_policy, rate_limit: Number(form.rate_limit), is_active: form.is_active, is_admin: false },
          },
        );
        onCreated(result.keypair);
      } catch (err) {
        setError(err);
      }
    });
  };

  return (
    <Dialog title={t('keypairs.create')} open onClose={onClose}>
      <form onSubmit={submit}>
        <Field label={t('keypairs.user_email')}>
          {(id) => (
            <>
              <input id={id} type="email" required list="keypair-users" autocomplete="off" value={form.email} onInput={(e) => setForm({ ...form, email: e.target.value })} />
              <datalist id="keypair-users">
                {(users.data || []).map((u) => (
                  <option value={u} key={u} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <Field label={t('keypairs.resource_policy')}>
          {(id) => <PolicySelect id={id} policies={policies} value={form.resource_policy} onChange={(v) => setForm({ ...form, resource_policy: v })} />}
        </Field>
        <Field label={t('keypairs.rate_limit')} hint={t('keypairs.rate_limit_hint')}>
          {(id) => <input id={id} type="number" min="1" step="1" required value={form.rate_limit} onInput={(e) => setForm({ ...form, rate_limit: e.target.value })} />}
        </Field>
        <label class="inline">
          <input type="checkbox" checked={form.is_active} onChange={(e) => setForm({ ...form, is_active: e.target.checked })} />
          {t('keypairs.active')}
        </label>
        <ErrorNote error={policies.error} />
        <ErrorNote error={error} />
        <FormActions busy={busy} label={t('action.create')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

function ModifyDialog({ keypair, policies, onClose, onSaved }) {
  const [form, setForm] = useState({ resource_policy: keypair.resource_policy, rate_limit: String(keypair.rate_limit), is_active: keypair.is_active });
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      setError(null);
      try {
        await mutate('modify_keypair', MODIFY, {
          key: keypair.access_key,
          props: { resource_policy: form.resource_policy, rate_limit: Number(form.rate_limit), is_active: form.is_active },
        });
        onSaved();
      } catch (err) {
        setError(err);
      }
    });
  };
  return (
    <Dialog title={t('keypairs.modify_title', { key: keypair.access_key })} open onClose={onClose}>
      <form onSubmit={submit}>
        <p class="muted">{keypair.user_id}</p>
        <Field label={t('keypairs.resource_policy')}>
          {(id) => <PolicySelect id={id} policies={policies} value={form.resource_policy} onChange={(v) => setForm({ ...form, resource_policy: v })} />}
        </Field>
        <Field label={t('keypairs.rate_limit')} hint={t('keypairs.rate_limit_hint')}>
          {(id) => <input id={id} type="number" min="1" step="1" required value={form.rate_limit} onInput={(e) => setForm({ ...form, rate_limit: e.target.value })} />}
        </Field>
        <label class="inline">
          <input type="checkbox" checked={form.is_active} onChange={(e) => setForm({ ...form, is_active: e.target.checked })} />
          {t('keypairs.active')}
        </label>
        <ErrorNote error={error} />
        <FormActions busy={busy} label={t('action.save')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

// The new keypair's secret key, this once: the page never shows it again.
function SecretDialog({ keypair, onClose }) {
  const [copied, setCopied] = useState('');
  const [error, setError] = useState(null);
  const copy = (what, text) =>
    navigator.clipboard.writeText(text).then(
      () => setCopied(what),
      (e) => setError({ detail: t('keypairs.copy_failed', { reason: e.message }) }),
    );
  return (
    <Dialog title={t('keypairs.created_title')} open onClose={onClose}>
      <p>{t('keypairs.created_for', { email: keypair.user_id })}</p>
      <p class="note warn">{t('keypairs.secret_once')}</p>
      <dl class="facts">
        <dt>{t('keypairs.access_key')}</dt>
        <dd>
          <code data-testid="new-access-key">{keypair.access_key}</code>{' '}
          <button type="button" class="small" onClick={() => copy('access', keypair.access_key)} aria-label={t('keypairs.copy_access')}>
            {copied === 'access' ? t('keypairs.copied') : t('keypairs.copy')}
          </button>
        </dd>
        <dt>{t('keypairs.secret_key')}</dt>
        <dd>
          <code data-testid="new-secret-key">{keypair.secret_key}</code>{' '}
          <button type="button" class="small" onClick={() => copy('secret', keypair.secret_key)} aria-label={t('keypairs.copy_secret')}>
            {copied === 'secret' ? t('keypairs.copied') : t('keypairs.copy')}
          </button>
        </dd>
      </dl>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="button" class="primary" onClick={onClose}>
          {t('action.done')}
        </button>
      </div>
    </Dialog>
  );
}
