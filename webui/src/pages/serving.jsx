// serving - my model services: name, status, URL, replicas (healthy of
// wanted), created; a dialog creates one from a model folder. The list looks
// again every few seconds while a service is still on its way (replicas
// provisioning or going), so a service turns HEALTHY here without a reload.

import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { Loaded, Status, useApp, useLoad } from '../ui/common.jsx';
import { ServiceDialog } from '../ui/service-dialog.jsx';
import { listServices, settling } from '../ui/serving.js';

const POLL_MS = 2000;

export default function Serving() {
  const { notify } = useApp();
  const list = useLoad(listServices, []);
  const [creating, setCreating] = useState(false);

  const busy = (list.data || []).some(settling);
  useEffect(() => {
    if (!busy || list.loading) return;
    const timer = setTimeout(list.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [list.data, list.loading, busy]);

  const created = (made) => {
    setCreating(false);
    notify(t('serving.created', { name: made.name }));
    navigate('/serving/' + made.endpoint_id);
  };

  return (
    <section class="page">
      <div class="page-head">
        <h1>{t('nav.serving')}</h1>
        <div class="actions">
          <button type="button" onClick={list.reload}>
            {t('action.refresh')}
          </button>
          <button type="button" class="primary" onClick={() => setCreating(true)}>
            {t('serving.create')}
          </button>
        </div>
      </div>
      <Loaded state={list}>{(services) => <ServiceTable services={services} />}</Loaded>
      <ServiceDialog open={creating} onClose={() => setCreating(false)} onCreated={created} />
    </section>
  );
}

function ServiceTable({ services }) {
  if (!services.length) return <p class="empty">{t('serving.none')}</p>;
  return (
    <div class="table-wrap">
      <table class="services">
        <thead>
          <tr>
            <th scope="col">{t('serving.name')}</th>
            <th scope="col">{t('serving.status')}</th>
            <th scope="col">{t('serving.url')}</th>
            <th scope="col">{t('serving.replicas')}</th>
            <th scope="col">{t('serving.public')}</th>
          </tr>
        </thead>
        <tbody>
          {services.map((s) => (
            <tr key={s.id} data-service={s.name}>
              <td>
                <a href={'/serving/' + s.id}>{s.name}</a>
              </td>
              <td>
                <Status status={s.status} />
              </td>
              <td class="small">{s.service_endpoint ? <code>{s.service_endpoint}</code> : <span class="muted">{t('serving.no_url')}</span>}</td>
              <td>{t('serving.replicas_of', { healthy: s.active_route_count, wanted: s.desired_session_count })}</td>
              <td>{s.is_public ? t('serving.yes') : t('serving.no')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
