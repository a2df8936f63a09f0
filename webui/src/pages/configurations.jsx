// configurations - the settings the platform's API exposes, and only those:
// the resource slots its agents offer (/config/resource-slots and its details),
// the image registries (/config/docker-registries) and folder types
// (/config/vfolder-types), all read-only as the API has them; the announcement
// every dashboard shows (/manager/announcement, editable) and the manager's
// status, running or frozen (/manager/status: a frozen platform refuses new
// sessions and folders).

import { useEffect, useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { ErrorNote, Field, Loaded, useApp, useBusy, useLoad } from '../ui/common.jsx';

export default function Configurations() {
  const slots = useLoad(async () => {
    const [types, details] = await Promise.all([api.get('/config/resource-slots'), api.get('/config/resource-slots/details')]);
    return { types, details };
  }, []);
  const registries = useLoad(() => api.get('/config/docker-registries'), []);
  const folderTypes = useLoad(() => api.get('/config/vfolder-types'), []);
  return (
    <section class="page">
      <h1>{t('nav.configurations')}</h1>
      <div class="grid2">
        <Announcement />
        <ManagerStatus />
      </div>
      <section aria-labelledby="slots-title">
        <h2 id="slots-title">{t('config.slots')}</h2>
        <Loaded state={slots}>{(s) => <Slots s={s} />}</Loaded>
      </section>
      <div class="grid2">
        <section aria-labelledby="reg-title">
          <h2 id="reg-title">{t('config.registries')}</h2>
          <Loaded state={registries}>
            {(r) => (
              <div class="table-wrap">
                <table class="registries">
                  <thead>
                    <tr>
                      <th scope="col">{t('config.registry')}</th>
                      <th scope="col">{t('config.url')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {Object.entries(r || {}).map(([host, url]) => (
                      <tr key={host}>
                        <th scope="row">{host}</th>
                        <td>
                          <code>{String(url)}</code>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Loaded>
        </section>
        <section aria-labelledby="vf-title">
          <h2 id="vf-title">{t('config.folder_types')}</h2>
          <Loaded state={folderTypes}>
            {(types) => (
              <ul class="folder-types">
                {(types || []).map((ty) => (
                  <li key={ty}>{t('config.folder_type.' + ty) === 'config.folder_type.' + ty ? ty : t('config.folder_type.' + ty)}</li>
                ))}
              </ul>
            )}
          </Loaded>
        </section>
      </div>
      <p class="muted small">{t('config.read_only')}</p>
    </section>
  );
}

function Slots({ s }) {
  const names = Object.keys(s.types || {});
  return (
    <div class="table-wrap">
      <table class="slots">
        <thead>
          <tr>
            <th scope="col">{t('config.slot')}</th>
            <th scope="col">{t('config.slot_name')}</th>
            <th scope="col">{t('config.slot_type')}</th>
            <th scope="col">{t('config.slot_unit')}</th>
            <th scope="col">{t('config.slot_description')}</th>
          </tr>
        </thead>
        <tbody>
          {names.map((k) => {
            const d = (s.details || {})[k] || {};
            return (
              <tr key={k} data-slot={k}>
                <th scope="row">
                  <code>{k}</code>
                </th>
                <td>{d.human_readable_name || '—'}</td>
                <td>{s.types[k]}</td>
                <td>{d.display_unit || '—'}</td>
                <td>{d.description || '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Announcement() {
  const { notify } = useApp();
  const state = useLoad(() => api.get('/manager/announcement'), []);
  const [form, setForm] = useState(null);
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  useEffect(() => {
    if (state.data) setForm({ enabled: !!state.data.enabled, message: state.data.message || '' });
  }, [state.data]);

  const save = (e) => {
    e.preventDefault();
    setError(null);
    run(async () => {
      try {
        // Turned off, the gateway forgets the message, as Backend.AI's does.
        await api.post('/manager/announcement', { enabled: form.enabled, message: form.enabled ? form.message : '' });
        notify(t('config.announcement_saved'));
        state.reload();
      } catch (err) {
        setError(err);
      }
    });
  };

  return (
    <section class="card" aria-labelledby="ann-title">
      <h2 id="ann-title">{t('config.announcement')}</h2>
      <Loaded state={state}>
        {() =>
          form && (
            <form onSubmit={save}>
              <label class="inline">
                <input type="checkbox" checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />
                {t('config.announcement_enabled')}
              </label>
              <Field label={t('config.announcement_message')} hint={t('config.announcement_hint')}>
                {(id) => (
                  <textarea
                    id={id}
                    rows="3"
                    value={form.message}
                    disabled={!form.enabled}
                    onInput={(e) => setForm({ ...form, message: e.target.value })}
                  />
                )}
              </Field>
              <ErrorNote error={error} />
              <button type="submit" class="primary" disabled={busy}>
                {t('action.save')}
              </button>
            </form>
          )
        }
      </Loaded>
    </section>
  );
}

function ManagerStatus() {
  const { notify } = useApp();
  const state = useLoad(() => api.get('/manager/status'), []);
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const change = (status) => {
    setError(null);
    if (status === 'frozen' && !confirm(t('config.freeze_confirm'))) return;
    run(async () => {
      try {
        await api.request('PUT', '/manager/status', { status });
        notify(t(status === 'frozen' ? 'config.frozen_now' : 'config.running_now'));
        state.reload();
      } catch (err) {
        setError(err);
      }
    });
  };
  return (
    <section class="card" aria-labelledby="status-title">
      <h2 id="status-title">{t('config.manager_status')}</h2>
      <p>{t('config.manager_status_text')}</p>
      <Loaded state={state}>
        {(s) => {
          const frozen = s.status === 'frozen';
          return (
            <>
              <dl class="facts">
                <dt>{t('config.status_now')}</dt>
                <dd>
                  <span class={'status ' + (frozen ? 'status-pending' : 'status-running')} data-manager-status={s.status}>
                    {t(frozen ? 'config.frozen' : 'config.running')}
                  </span>
                </dd>
                <dt>{t('config.active_sessions')}</dt>
                <dd>{s.active_sessions}</dd>
              </dl>
              <button type="button" class={frozen ? 'primary' : 'danger'} disabled={busy} onClick={() => change(frozen ? 'running' : 'frozen')}>
                {t(frozen ? 'config.unfreeze' : 'config.freeze')}
              </button>
            </>
          );
        }}
      </Loaded>
      <ErrorNote error={error} />
    </section>
  );
}
