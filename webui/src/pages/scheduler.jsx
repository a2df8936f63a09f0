// scheduler - the pending queue of each resource group, live: every PENDING
// session with its place in the queue, its owner, what it asked for, how long
// it has waited and why (the scheduler's status_info and status_data: its
// message and the predicates that failed). The session event stream moves it
// without a reload; the waiting times tick by themselves.
//
// The place is the order of arrival, the order fifo takes sessions in (lifo
// the other way round); drf and priority weigh owners' shares and priorities
// the page does not know, which it says.

import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api.js';
import { useSessionEvents } from '../events.js';
import { t } from '../i18n.js';
import { attempt, ErrorNote, Loaded, useApp, useLoad } from '../ui/common.jsx';
import { duration, slots, slotsText, when } from '../ui/format.js';
import { imageName, terminate } from '../ui/sessions.js';

const FIELDS = `id name type image status status_info status_data created_at requested_slots
  scaling_group group_name user_email access_key`;

// Every PENDING session the caller may see, oldest first.
async function listPending() {
  const items = [];
  for (let offset = 0; ; offset += 1000) {
    const data = await api.gql(
      `query($limit: Int!, $offset: Int!) {
        compute_session_list(limit: $limit, offset: $offset, status: "PENDING", order: "created_at") {
          total_count items { ${FIELDS} } } }`,
      { limit: 1000, offset },
    );
    const page = data.compute_session_list;
    items.push(...page.items);
    if (items.length >= page.total_count || !page.items.length) return items;
  }
}

// The queues: [{name, scheduler, sessions}] for every group the caller sees
// and any other a pending session names, each in the order its scheduler
// takes them.
async function loadQueues() {
  const [pending, data] = await Promise.all([listPending(), api.gql('query { scaling_groups { name scheduler is_active } }')]);
  const queues = new Map((data.scaling_groups || []).map((g) => [g.name, { ...g, sessions: [] }]));
  for (const s of pending) {
    if (!queues.has(s.scaling_group)) queues.set(s.scaling_group, { name: s.scaling_group, scheduler: '', sessions: [] });
    queues.get(s.scaling_group).sessions.push(s);
  }
  for (const q of queues.values()) if (q.scheduler === 'lifo') q.sessions.reverse();
  return [...queues.values()];
}

export default function Scheduler() {
  const { me, notify } = useApp();
  const state = useLoad(loadQueues, []);
  const [error, setError] = useState(null);
  const refetch = useRef(null);

  // Any lifecycle event may move a queue; one reload follows a burst of them.
  useSessionEvents(
    () => {
      clearTimeout(refetch.current);
      refetch.current = setTimeout(state.reload, 300);
    },
    state.reload,
  );
  useEffect(() => () => clearTimeout(refetch.current), []);
  // The scheduler's reasons and tries change on each of its passes without an
  // event, so while anyone waits the queues are read again every few seconds.
  const waiting = (state.data || []).some((q) => q.sessions.length);
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(state.reload, 5000);
    return () => clearInterval(timer);
  }, [waiting, state.reload]);

  const cancel = (s) =>
    attempt(setError, () => terminate(s, me), {
      ask: t('scheduler.confirm_cancel', { name: s.name }),
      done: t('scheduler.cancelling', { name: s.name }),
      notify,
    });

  return (
    <section class="page">
      <div class="page-head">
        <h1>{t('nav.scheduler')}</h1>
        <button type="button" onClick={state.reload}>
          {t('action.refresh')}
        </button>
      </div>
      <p class="muted">{t('scheduler.intro')}</p>
      <ErrorNote error={error} />
      <Loaded state={state}>
        {(queues) =>
          queues.length ? queues.map((q) => <Queue key={q.name} queue={q} onCancel={cancel} />) : <p class="empty">{t('scheduler.no_groups')}</p>
        }
      </Loaded>
    </section>
  );
}

function Queue({ queue, onCancel }) {
  const headingId = 'queue-' + queue.name;
  return (
    <section class="queue" aria-labelledby={headingId} data-queue={queue.name}>
      <h2 id={headingId}>
        {queue.name}{' '}
        <span class="muted small">
          {t('scheduler.waiting_count', { n: queue.sessions.length })}
          {queue.scheduler && ` · ${queue.scheduler}`}
        </span>
      </h2>
      {(queue.scheduler === 'drf' || queue.scheduler === 'priority') && queue.sessions.length > 1 && (
        <p class="muted small">{t('scheduler.order_note', { scheduler: queue.scheduler })}</p>
      )}
      {queue.sessions.length ? (
        <div class="table-wrap">
          <table class="pending">
            <thead>
              <tr>
                <th scope="col">{t('scheduler.position')}</th>
                <th scope="col">{t('sessions.name')}</th>
                <th scope="col">{t('sessions.owner')}</th>
                <th scope="col">{t('scheduler.requested')}</th>
                <th scope="col">{t('scheduler.waiting')}</th>
                <th scope="col">{t('scheduler.why')}</th>
                <th scope="col">
                  <span class="sr-only">{t('sessions.controls')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {queue.sessions.map((s, i) => (
                <tr key={s.id} data-session={s.name}>
                  <td class="position">{i + 1}</td>
                  <td>
                    <a href={`/sessions/${s.id}`}>{s.name}</a>
                    <div class="muted small">{imageName(s.image)}</div>
                  </td>
                  <td class="small">
                    <span class="nowrap">{s.user_email}</span>
                    <div class="muted">{s.group_name}</div>
                  </td>
                  <td class="small requested">{slotsText(s.requested_slots) || '—'}</td>
                  <td class="nowrap">
                    <Waiting since={s.created_at} />
                  </td>
                  <td class="why">
                    <Why s={s} />
                  </td>
                  <td class="controls">
                    <button type="button" class="small danger" onClick={() => onCancel(s)} aria-label={t('scheduler.cancel_name', { name: s.name })}>
                      {t('scheduler.cancel')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="empty">{t('scheduler.empty')}</p>
      )}
    </section>
  );
}

// The scheduler's own words: its message, the predicates that failed with
// theirs, and how often it has tried.
function Why({ s }) {
  const data = slots(s.status_data).scheduler || {};
  const failed = data.failed_predicates || [];
  const reason = data.msg || s.status_info;
  return (
    <>
      {reason ? <div>{reason}</div> : <span class="muted">{t('session.pending_unknown')}</span>}
      {s.status_info && data.msg && <div class="muted small">{s.status_info}</div>}
      {failed.length > 0 && (
        <ul class="predicates">
          {failed.map((p, i) => (
            <li key={i}>
              <code>{p.name}</code> {p.msg}
            </li>
          ))}
        </ul>
      )}
      {data.retries > 0 && <div class="muted small">{t('scheduler.tries', { n: data.retries, at: when(data.last_try) })}</div>}
    </>
  );
}

// Time since a moment, ticking once a second: only this cell re-renders.
function Waiting({ since }) {
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return duration(Date.now() - Date.parse(since));
}
