// account - who I am, my keypair, and my password.

import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { ErrorNote, Field, Loaded, useApp, useLoad } from '../ui/common.jsx';

export default function Account() {
  const { me, notify } = useApp();
  const state = useLoad(
    () =>
      api.gql('query { keypair { access_key is_active is_admin resource_policy concurrency_used created_at } }'),
    [],
  );
  const [form, setForm] = useState({ old_password: '', new_password: '', new_password2: '' });
  const [error, setError] = useState(null);
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.value });

  const change = async (e) => {
    e.preventDefault();
    setError(null);
    try {
      await api.post('/auth/update-password', form);
      setForm({ old_password: '', new_password: '', new_password2: '' });
      notify(t('account.password_changed'));
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section class="page">
      <h1>{t('nav.account')}</h1>
      <dl class="facts">
        <dt>{t('account.email')}</dt>
        <dd>{me.email}</dd>
        <dt>{t('account.role')}</dt>
        <dd>{me.role}</dd>
        <dt>{t('account.domain')}</dt>
        <dd>{me.domain_name}</dd>
      </dl>
      <h2>{t('account.keypair')}</h2>
      <Loaded state={state}>
        {(data) =>
          data.keypair ? (
            <dl class="facts">
              <dt>{t('account.access_key')}</dt>
              <dd>
                <code>{data.keypair.access_key}</code>
              </dd>
              <dt>{t('account.policy')}</dt>
              <dd>{data.keypair.resource_policy}</dd>
              <dt>{t('account.sessions_now')}</dt>
              <dd>{data.keypair.concurrency_used}</dd>
            </dl>
          ) : null
        }
      </Loaded>
      <h2>{t('account.change_password')}</h2>
      <form class="narrow" onSubmit={change}>
        <Field label={t('account.old_password')}>
          {(id) => <input id={id} type="password" autocomplete="current-password" required value={form.old_password} onInput={set('old_password')} />}
        </Field>
        <Field label={t('account.new_password')}>
          {(id) => <input id={id} type="password" autocomplete="new-password" required value={form.new_password} onInput={set('new_password')} />}
        </Field>
        <Field label={t('account.new_password2')}>
          {(id) => <input id={id} type="password" autocomplete="new-password" required value={form.new_password2} onInput={set('new_password2')} />}
        </Field>
        <ErrorNote error={error} />
        <button type="submit" class="primary">
          {t('account.change_password')}
        </button>
      </form>
    </section>
  );
}
