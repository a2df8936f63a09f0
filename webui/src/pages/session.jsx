// session - one session: what it is and why it is where it is (a PENDING
// session's reason included), its status as it changes, its apps, terminal and
// logs, rename, restart and terminate.

import { useEffect, useState } from 'preact/hooks';
import * as api from '../api.js';
import { useSessionEvents } from '../events.js';
import { t } from '../i18n.js';
import { Bar, ErrorNote, Field, Loaded, Status, useApp, useLoad } from '../ui/common.jsx';
import { bytes, duration, slots, slotsText, when } from '../ui/format.js';
import { getSession, imageName, isLive, logs, rename, restart, terminate } from '../ui/sessions.js';

export default function Session({ params, query }) {
  const { me, notify } = useApp();
  const state = useLoad(() => getSession(params.id), [params.id]);
  const [error, setError] = useState(null);

  // The page follows the session: each of its events fetches it again, so
  // the status, the history and the apps are the scheduler's own.
  useSessionEvents((event, data) => {
    if (data.sessionId === params.id && event.startsWith('session_')) state.reload();
  }, state.reload);

  return (
    <section class="page">
      <Loaded state={state}>
        {(s) =>
          !s ? (
            <p>{t('session.not_found')}</p>
          ) : (
            <Detail s={s} me={me} notify={notify} error={error} setError={setError} reload={state.reload} open={query && query.get('open')} />
          )
        }
      </Loaded>
    </section>
  );
}

function Detail({ s, me, notify, error, setError, reload, open }) {
  const [renaming, setRenaming] = useState(false);
  const [newName, setNewName] = useState(s.name);
  const [log, setLog] = useState(null);
  const live = isLive(s.status);
  const act = async (fn, done) => {
    setError(null);
    try {
      await fn();
      if (done) notify(done);
      reload();
    } catch (e) {
      setError(e);
    }
  };
  const showLogs = () =>
    logs(s, me).then(
      (r) => setLog((r && r.result && r.result.logs) || ''),
      setError,
    );
  const status = s.status;
  const end = s.terminated_at ? Date.parse(s.terminated_at) : Date.now();

  return (
    <>
      <div class="page-head">
        <h1>
          {s.name} <Status status={status} />
        </h1>
        <div class="actions">
          {status === 'RUNNING' && (
            <a class="button" href={`/sessions/${s.id}/terminal`}>
              {t('sessions.terminal')}
            </a>
          )}
          {status === 'RUNNING' && (
            <button type="button" onClick={() => act(() => restart(s, me), t('session.restarted'))}>
              {t('session.restart')}
            </button>
          )}
          {live && (
            <button type="button" onClick={() => setRenaming(!renaming)}>
              {t('session.rename')}
            </button>
          )}
          {live && status !== 'TERMINATING' && (
            <button
              type="button"
              class="danger"
              onClick={() => confirm(t('sessions.confirm_terminate', { name: s.name })) && act(() => terminate(s, me), t('sessions.terminating', { name: s.name }))}
            >
              {t('sessions.terminate')}
            </button>
          )}
        </div>
      </div>
      {renaming && (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            act(() => rename(s, me, newName), t('session.renamed')).then(() => setRenaming(false));
          }}
        >
          <Field label={t('session.new_name')}>{(id) => <input id={id} value={newName} onInput={(e) => setNewName(e.target.value)} required />}</Field>
          <button type="submit" class="primary">
            {t('action.save')}
          </button>
        </form>
      )}
      <ErrorNote error={error} />
      {status === 'PENDING' && (
        <div class="note warn" role="status">
          <strong>{t('session.pending_why')}</strong> {s.status_info || t('session.pending_unknown')}
          {pendingDetail(s.status_data)}
        </div>
      )}
      <dl class="facts">
        <dt>{t('session.id')}</dt>
        <dd>
          <code>{s.id}</code>
        </dd>
        <dt>{t('sessions.type')}</dt>
        <dd>{t('sessions.type.' + String(s.type).toLowerCase())}</dd>
        <dt>{t('sessions.image')}</dt>
        <dd title={s.image}>{imageName(s.image)}</dd>
        <dt>{t('sessions.resources')}</dt>
        <dd>{slotsText(live ? s.occupied_slots : s.requested_slots) || slotsText(s.requested_slots) || '—'}</dd>
        <dt>{t('session.group')}</dt>
        <dd>
          {s.group_name} / {s.scaling_group}
        </dd>
        <dt>{t('sessions.agent')}</dt>
        <dd>{s.agent || '—'}</dd>
        <dt>{t('session.created')}</dt>
        <dd>{when(s.created_at)}</dd>
        <dt>{t('sessions.elapsed')}</dt>
        <dd>{duration(end - Date.parse(s.created_at))}</dd>
        {s.terminated_at && <dt>{t('session.terminated')}</dt>}
        {s.terminated_at && <dd>{when(s.terminated_at)}</dd>}
        <dt>{t('session.status_info')}</dt>
        <dd>{s.status_info || '—'}</dd>
        {s.result && s.result !== 'UNDEFINED' && <dt>{t('session.result')}</dt>}
        {s.result && s.result !== 'UNDEFINED' && <dd>{s.result}</dd>}
        {s.cluster_size > 1 && <dt>{t('launcher.cluster_size')}</dt>}
        {s.cluster_size > 1 && <dd>{s.cluster_size}</dd>}
        {me.role !== 'user' && <dt>{t('sessions.owner')}</dt>}
        {me.role !== 'user' && <dd>{s.user_email}</dd>}
      </dl>
      {status === 'RUNNING' && <Apps s={s} setError={setError} open={open} />}
      <Usage id={s.id} live={live} cpus={Number(slots(s.requested_slots).cpu) || 1} />
      <h2>{t('session.history')}</h2>
      <History transitions={s.status_transitions} />
      <h2>{t('session.logs')}</h2>
      <button type="button" onClick={showLogs}>
        {log === null ? t('session.show_logs') : t('action.refresh')}
      </button>
      {log !== null && <pre class="logs" tabIndex="0">{log || t('session.logs_empty')}</pre>}
    </>
  );
}

// Every status the session went through, in order, with the reason of each
// (the scheduler's status_transitions).
function History({ transitions }) {
  let list = transitions;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch (e) {
      list = [];
    }
  }
  if (!list || !list.length) return <p class="muted">—</p>;
  return (
    <ol class="history" aria-live="polite">
      {list.map((h, i) => (
        <li key={i}>
          <time dateTime={h.at}>{when(h.at)}</time> <Status status={h.status} />
          {h.status_info ? <span class="muted"> — {h.status_info}</span> : null}
        </li>
      ))}
    </ol>
  );
}

// The scheduler's last words on a PENDING session, from status_data.
function pendingDetail(statusData) {
  let data = statusData;
  if (typeof data === 'string') {
    try {
      data = JSON.parse(data);
    } catch (e) {
      return null;
    }
  }
  const sched = data && data.scheduler;
  if (!sched) return null;
  const failed = sched.failed_predicates || [];
  return failed.length ? (
    <ul>
      {failed.map((p, i) => (
        <li key={i}>
          {p.name}
          {p.msg ? `: ${p.msg}` : ''}
        </li>
      ))}
    </ul>
  ) : null;
}

// The address of one of session s's apps through the wsproxy (start-service,
// then the wsproxy's add).
async function appAddress(s, app) {
  const started = await api.post(`/session/${encodeURIComponent(s.id)}/start-service`, { app: app.name });
  const res = await fetch(`${started.wsproxy_addr}/v2/proxy/${encodeURIComponent(started.token)}/${encodeURIComponent(s.id)}/add?app=${encodeURIComponent(app.name)}`);
  const body = await res.json();
  if (!res.ok || !body.url) throw new api.ApiError(res.status, body.title || 'wsproxy', body.detail || body.error || '');
  return body.url;
}

// The session's apps (Jupyter, the web terminal, service ports), each opened
// through the wsproxy in a tab of its own.
function Apps({ s, setError, open: notebook }) {
  const [apps, setApps] = useState(null);
  const [notebookUrl, setNotebookUrl] = useState(null);
  const address = (app) => appAddress(s, app);
  useEffect(() => {
    let ports = s.service_ports;
    if (typeof ports === 'string') {
      try {
        ports = JSON.parse(ports);
      } catch (e) {
        ports = [];
      }
    }
    setApps((ports || []).filter((p) => p.name));
  }, [s.service_ports]);
  // Import & Run's notebook: once Jupyter is there, its address at the
  // notebook (Jupyter's root is /home/work, where folders are mounted by
  // name; Debian's notebook 6 serves /notebooks/<path>), offered as a link (a tab opened without a click is a popup the
  // browser blocks).
  const jupyter = (apps || []).find((a) => a.name === 'jupyter');
  useEffect(() => {
    if (!notebook || !jupyter || notebookUrl) return;
    address(jupyter)
      .then((url) => {
        // The wsproxy's permit address takes where to go after it (redirect=).
        const path = '/notebooks/' + notebook.split('/').map(encodeURIComponent).join('/');
        setNotebookUrl(url.includes('?') ? url + '&redirect=' + encodeURIComponent(path) : url.replace(/\/$/, '') + path);
      })
      .catch(setError);
  }, [notebook, jupyter && jupyter.name]);
  if (!apps || !apps.length) return null;
  const web = apps.filter((a) => a.protocol !== 'tcp');
  const tcp = apps.filter((a) => a.protocol === 'tcp');
  const open = async (app) => {
    setError(null);
    // Opened at once, filled in when the address is known: a window opened
    // after an await is a popup the browser blocks.
    const tab = window.open('about:blank', '_blank');
    try {
      const url = await address(app);
      if (tab) tab.location = url;
      else window.location = url;
    } catch (e) {
      if (tab) tab.close();
      setError(e);
    }
  };
  return (
    <>
      <h2>{t('session.apps')}</h2>
      {notebookUrl && (
        <p class="note ok">
          {t('session.notebook_ready', { path: notebook })}{' '}
          <a href={notebookUrl} target="_blank" rel="noopener" data-notebook-link>
            {t('session.open_notebook', { path: notebook })}
          </a>
        </p>
      )}
      <ul class="apps">
        {web.map((app) => (
          <li key={app.name}>
            <button type="button" onClick={() => open(app)} data-app={app.name}>
              {app.name}
            </button>
          </li>
        ))}
      </ul>
      {tcp.length > 0 && (
        <p class="muted small">
          {t('session.tcp_apps', { apps: tcp.map((a) => a.name).join(', ') })} <code>backend.ai app {s.name} {tcp[0].name}</code>
        </p>
      )}
    </>
  );
}

// What the container uses: accounting's live_stat while it runs (asked again
// every few seconds while the page is open), its last_stat once it ended.
function Usage({ id, live, cpus }) {
  const [stat, setStat] = useState(null);
  useEffect(() => {
    let stop = false;
    const fetchOnce = () =>
      api
        .gql('query($id: UUID!) { compute_session(id: $id) { containers { live_stat last_stat } } }', { id })
        .then((d) => {
          const c = d.compute_session && d.compute_session.containers && d.compute_session.containers[0];
          const text = c && (c.live_stat || c.last_stat);
          if (!stop && text) setStat(typeof text === 'string' ? JSON.parse(text) : text);
        })
        .catch(() => {});
    fetchOnce();
    const timer = live ? setInterval(fetchOnce, 5000) : null;
    return () => {
      stop = true;
      if (timer) clearInterval(timer);
    };
  }, [id, live]);
  if (!stat) return null;
  const num = (m, k = 'current') => (m ? Number(m[k]) : NaN);
  const cpu = num(stat.cpu_util);
  const mem = num(stat.mem), memCap = num(stat.mem, 'capacity');
  return (
    <>
      <h2>{t('session.usage')}</h2>
      <div class="usage">
        {isFinite(cpu) && <Bar label={t('session.usage_cpu')} used={cpu} limit={cpus * 100} text={t('session.usage_cpu_text', { pct: cpu.toFixed(1), cpus })} />}
        {isFinite(mem) && (
          <Bar label={t('session.usage_mem')} used={mem} limit={isFinite(memCap) ? memCap : Infinity} text={`${bytes(mem)}${isFinite(memCap) ? ' / ' + bytes(memCap) : ''}`} />
        )}
        <dl class="facts">
          {stat.io_read && <dt>{t('session.usage_io')}</dt>}
          {stat.io_read && (
            <dd>
              {t('session.usage_io_text', { read: bytes(num(stat.io_read)), write: bytes(num(stat.io_write)) })}
            </dd>
          )}
          {stat.net_rx && <dt>{t('session.usage_net')}</dt>}
          {stat.net_rx && <dd>{t('session.usage_net_text', { rx: bytes(num(stat.net_rx)), tx: bytes(num(stat.net_tx)) })}</dd>}
          {stat.mem && stat.mem['stats.max'] && <dt>{t('session.usage_mem_peak')}</dt>}
          {stat.mem && stat.mem['stats.max'] && <dd>{bytes(num(stat.mem, 'stats.max'))}</dd>}
        </dl>
      </div>
    </>
  );
}
