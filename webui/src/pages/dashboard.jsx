// dashboard - where a person starts: shortcuts, my resources (used of my limit
// per slot, from check-presets), my running sessions, what just happened,
// the announcement, and folder invitations to accept or decline.

import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { useSessionEvents } from '../events.js';
import { t } from '../i18n.js';
import { Bar, Loaded, useApp, useLoad } from '../ui/common.jsx';
import { Invitations } from '../ui/invitations.jsx';
import { slot, slotName } from '../ui/format.js';
import { RUNNING, listSessions } from '../ui/sessions.js';
import { SessionTable } from './sessions.jsx';

export default function Dashboard() {
  const { me, project } = useApp();
  const [recent, setRecent] = useState([]);
  const resources = useLoad(() => api.post('/resource/check-presets', { group: project || undefined }), [project]);
  const sessions = useLoad(() => listSessions({ status: RUNNING }), []);
  const announcement = useLoad(() => api.get('/manager/announcement'), []);

  useSessionEvents(
    (event, data) => {
      setRecent((r) => [{ at: new Date(), event, name: data.sessionName, reason: data.reason }, ...r].slice(0, 8));
      if (event.startsWith('session_')) sessions.reload();
    },
    sessions.reload,
  );

  return (
    <section class="page">
      <h1>{t('nav.dashboard')}</h1>
      {announcement.data && announcement.data.enabled && announcement.data.message && (
        <div class="note info announcement" role="note">
          <strong>{t('dashboard.announcement')}</strong> <span class="pre">{announcement.data.message}</span>
        </div>
      )}
      <div class="cards">
        <a class="card shortcut" href="/sessions/new">
          <strong>{t('dashboard.start_interactive')}</strong>
          <span class="muted">{t('dashboard.start_interactive_text')}</span>
        </a>
        <a class="card shortcut" href="/sessions/new?type=batch">
          <strong>{t('dashboard.start_batch')}</strong>
          <span class="muted">{t('dashboard.start_batch_text')}</span>
        </a>
      </div>
      <div class="grid2">
        <section class="card" aria-labelledby="res-title">
          <h2 id="res-title">{t('dashboard.my_resources')}</h2>
          <Loaded state={resources}>{(r) => <Resources r={r} />}</Loaded>
        </section>
        <section class="card" aria-labelledby="recent-title">
          <h2 id="recent-title">{t('dashboard.recent_events')}</h2>
          {recent.length ? (
            <ol class="history" aria-live="polite">
              {recent.map((e, i) => (
                <li key={i}>
                  <time>{e.at.toLocaleTimeString()}</time> {e.name}: {t('event.' + e.event)}
                  {e.reason ? ` — ${e.reason}` : ''}
                </li>
              ))}
            </ol>
          ) : (
            <p class="muted">{t('dashboard.no_events')}</p>
          )}
        </section>
      </div>
      <section aria-labelledby="run-title">
        <h2 id="run-title">{t('dashboard.running')}</h2>
        <Loaded state={sessions}>{(list) => <SessionTable sessions={list.slice(0, 10)} me={me} compact />}</Loaded>
      </section>
      <Invitations />
    </section>
  );
}

function Resources({ r }) {
  const limits = r.keypair_limits || {};
  const using = r.keypair_using || {};
  const keys = Object.keys(using).filter((k) => k in limits || Number(using[k]) > 0);
  if (!keys.length) return <p class="muted">{t('dashboard.no_limits')}</p>;
  return keys.map((k) => {
    const limit = Number(limits[k]);
    const used = Number(using[k]) || 0;
    const finite = isFinite(limit) && limits[k] !== 'Infinity';
    return (
      <Bar
        key={k}
        label={slotName(k)}
        used={used}
        limit={finite ? limit : Infinity}
        text={`${slot(k, used)} / ${finite ? slot(k, limit) : t('dashboard.unlimited')}`}
      />
    );
  });
}
