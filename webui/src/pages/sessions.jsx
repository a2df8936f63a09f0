// sessions - my sessions (everyone's for administrators), live: the list follows
// the event stream, so a session turns RUNNING here without a reload.

import { Component } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { statusOf, useSessionEvents } from '../events.js';
import { t } from '../i18n.js';
import { attempt, ErrorNote, Loading, Status, Tabs, useApp } from '../ui/common.jsx';
import { duration, slotsText } from '../ui/format.js';
import { FINISHED, RUNNING, imageName, isLive, listSessions, terminate } from '../ui/sessions.js';

const TABS = [
  ['running', RUNNING],
  ['finished', FINISHED],
  ['all', ''],
];

export default function Sessions({ query }) {
  const { me, projects, project, notify } = useApp();
  const [tab, setTab] = useState(query.get('tab') || 'running');
  const [type, setType] = useState('');
  const [scope, setScope] = useState('project'); // the chosen project, or every project
  const [name, setName] = useState('');
  const [list, setList] = useState(null);
  const [error, setError] = useState(null);
  const seq = useRef(0);
  const refetch = useRef(null);

  const groupId = scope === 'project' ? (projects.find((p) => p.name === project) || {}).id : '';
  const load = () => {
    const mine = ++seq.current;
    const status = TABS.find(([k]) => k === tab)[1];
    listSessions({ status, groupId }).then(
      (items) => {
        if (mine !== seq.current) return;
        performance.mark('sessions:data');
        setList(items);
        setError(null);
      },
      (e) => mine === seq.current && setError(e),
    );
  };
  useEffect(load, [tab, groupId]);

  // An event updates the session's row at once, and a fetch of the list
  // follows shortly after (coalesced) for what an event does not carry.
  useSessionEvents(
    (event, data) => {
      const status = statusOf[event];
      if (status)
        setList((l) => l && l.map((s) => (s.id === data.sessionId ? { ...s, status, status_info: data.reason || s.status_info } : s)));
      clearTimeout(refetch.current);
      refetch.current = setTimeout(load, 300);
    },
    load,
  );
  useEffect(() => () => clearTimeout(refetch.current), []);
  // How long a list took from its data to the page (User Timing: the browser
  // tests report it).
  useLayoutEffect(() => {
    if (list && performance.getEntriesByName('sessions:data').length) {
      performance.measure('sessions:render', 'sessions:data');
      performance.clearMarks('sessions:data');
    }
  }, [list]);

  const shown = useMemo(() => {
    if (!list) return [];
    const needle = name.trim().toLowerCase();
    return list.filter((s) => (!type || s.type === type) && (!needle || (s.name || '').toLowerCase().includes(needle)));
  }, [list, type, name]);

  // One function for every row's Terminate, so rows re-render only when
  // their session changes.
  const notifyRef = useRef(notify);
  notifyRef.current = notify;
  const kill = useCallback(
    (s) =>
      attempt(setError, () => terminate(s, me), {
        ask: t('sessions.confirm_terminate', { name: s.name }),
        done: t('sessions.terminating', { name: s.name }),
        notify: (text) => notifyRef.current(text),
      }),
    [me],
  );

  return (
    <section class="page">
      <div class="page-head">
        <h1>{t('nav.sessions')}</h1>
        <a class="button primary" href="/sessions/new">
          {t('sessions.start')}
        </a>
      </div>
      <div class="toolbar">
        <Tabs label={t('sessions.status_filter')} value={tab} onChange={setTab} tabs={TABS.map(([key]) => [key, t('sessions.tab.' + key)])} />
        <label>
          {t('sessions.type')}
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">{t('sessions.type.all')}</option>
            <option value="interactive">{t('sessions.type.interactive')}</option>
            <option value="batch">{t('sessions.type.batch')}</option>
            <option value="inference">{t('sessions.type.inference')}</option>
          </select>
        </label>
        <label>
          {t('sessions.project')}
          <select value={scope} onChange={(e) => setScope(e.target.value)}>
            <option value="project">{project || '—'}</option>
            <option value="all">{t('sessions.all_projects')}</option>
          </select>
        </label>
        <label>
          {t('sessions.name')}
          <input type="search" value={name} onInput={(e) => setName(e.target.value)} />
        </label>
      </div>
      <ErrorNote error={error} onRetry={load} />
      {!list ? (
        !error && <Loading />
      ) : (
        <SessionTable sessions={shown} me={me} onTerminate={kill} />
      )}
    </section>
  );
}

// The seconds since a moment, ticking once a second while mounted: only these
// cells re-render as time passes, not the table.
function Elapsed({ from, to }) {
  const [, tick] = useState(0);
  useEffect(() => {
    if (to) return;
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [to]);
  return duration((to ? Date.parse(to) : Date.now()) - Date.parse(from));
}

export function SessionTable({ sessions, me, onTerminate, compact }) {
  if (!sessions.length) return <p class="empty">{t('sessions.none')}</p>;
  const admin = me.role !== 'user';
  return (
    <div class="table-wrap">
      <table class="sessions">
        <thead>
          <tr>
            <th scope="col">{t('sessions.name')}</th>
            <th scope="col">{t('sessions.status')}</th>
            <th scope="col">{t('sessions.image')}</th>
            {!compact && <th scope="col">{t('sessions.resources')}</th>}
            <th scope="col">{t('sessions.elapsed')}</th>
            {!compact && <th scope="col">{t('sessions.type')}</th>}
            {!compact && admin && <th scope="col">{t('sessions.owner')}</th>}
            {!compact && <th scope="col">{t('sessions.agent')}</th>}
            {onTerminate && <th scope="col"><span class="sr-only">{t('sessions.controls')}</span></th>}
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <Row key={s.id} s={s} admin={admin} compact={compact} onTerminate={onTerminate} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

// One session's row; rendered again only when that session changed.
class Row extends Component {
  shouldComponentUpdate(next) {
    const p = this.props;
    return next.s !== p.s || next.admin !== p.admin || next.compact !== p.compact || next.onTerminate !== p.onTerminate;
  }

  render({ s, admin, compact, onTerminate }) {
    return (
      <tr data-session={s.name}>
        <td>
          <a href={`/sessions/${s.id}`}>{s.name}</a>
        </td>
        <td>
          <Status status={s.status} />
          {s.status === 'PENDING' && s.status_info && <div class="muted small">{s.status_info}</div>}
        </td>
        <td>{imageName(s.image)}</td>
        {!compact && <td class="small">{slotsText(s.occupied_slots)}</td>}
        <td>
          <Elapsed from={s.created_at} to={s.terminated_at} />
        </td>
        {!compact && <td>{t('sessions.type.' + String(s.type).toLowerCase())}</td>}
        {!compact && admin && <td class="small">{s.user_email}</td>}
        {!compact && <td class="small">{s.agent || '—'}</td>}
        {onTerminate && (
          <td class="controls">
            {s.status === 'RUNNING' && (
              <a class="button small" href={`/sessions/${s.id}/terminal`}>
                {t('sessions.terminal')}
              </a>
            )}
            {isLive(s.status) && s.status !== 'TERMINATING' && (
              <button type="button" class="small danger" onClick={() => onTerminate(s)}>
                {t('sessions.terminate')}
              </button>
            )}
          </td>
        )}
      </tr>
    );
  }
}
