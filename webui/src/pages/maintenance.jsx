// maintenance - a superadmin's repairs: recalculate usage (the scheduler
// recounts what each agent and keypair holds from its allocations, accounting
// rebuilds its roll-ups; POST /resource/recalculate-usage answers once both are
// done), and rescan images (GraphQL rescan_images starts a background task that
// asks every agent for its images; its progress comes on
// /events/background-task until it is done or failed).

import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { ErrorNote, Loading } from '../ui/common.jsx';

export default function Maintenance() {
  return (
    <section class="page">
      <h1>{t('nav.maintenance')}</h1>
      <div class="grid2">
        <Recalculate />
        <Rescan />
      </div>
    </section>
  );
}

function Recalculate() {
  const [state, setState] = useState({ busy: false, error: null, done: null });
  const run = async () => {
    setState({ busy: true, error: null, done: null });
    try {
      await api.post('/resource/recalculate-usage', {});
      setState({ busy: false, error: null, done: new Date() });
    } catch (error) {
      setState({ busy: false, error, done: null });
    }
  };
  return (
    <section class="card" aria-labelledby="recalc-title">
      <h2 id="recalc-title">{t('maint.recalculate')}</h2>
      <p>{t('maint.recalculate_text')}</p>
      <button type="button" class="primary" onClick={run} disabled={state.busy}>
        {t('maint.recalculate_button')}
      </button>
      <div aria-live="polite">
        {state.busy && <Loading what={t('maint.recalculating')} />}
        {state.done && (
          <p class="note ok" role="status">
            {t('maint.recalculated', { at: state.done.toLocaleTimeString() })}
          </p>
        )}
      </div>
      <ErrorNote error={state.error} />
    </section>
  );
}

const FINAL = { bgtask_done: 'done', bgtask_failed: 'failed', bgtask_cancelled: 'cancelled' };

function Rescan() {
  // task: {id, current, total, messages[], result: null|'done'|'failed'|'cancelled', final}
  const [task, setTask] = useState(null);
  const [error, setError] = useState(null);
  const [starting, setStarting] = useState(false);
  const source = useRef(null);
  const close = () => {
    if (source.current) source.current.close();
    source.current = null;
  };
  useEffect(() => close, []);

  const follow = (id) => {
    close();
    const es = new EventSource('/func/events/background-task' + api.qs({ task_id: id }));
    source.current = es;
    const read = (e) => {
      try {
        return JSON.parse(e.data);
      } catch (err) {
        return {};
      }
    };
    es.addEventListener('bgtask_updated', (e) => {
      const d = read(e);
      setTask((x) => ({
        ...x,
        current: d.current_progress,
        total: d.total_progress,
        messages: d.message ? [...x.messages, d.message] : x.messages,
      }));
    });
    for (const name of Object.keys(FINAL))
      es.addEventListener(name, (e) => {
        const d = read(e);
        close();
        setTask((x) => ({
          ...x,
          current: d.current_progress ?? x.current,
          total: d.total_progress ?? x.total,
          result: FINAL[name],
          final: d.message || '',
        }));
      });
    es.addEventListener('server_close', close);
    // The stream lost before the end: the browser would try again, but the
    // page says so rather than wait without a word.
    es.onerror = () => {
      if (source.current !== es) return;
      close();
      setTask((x) => (x.result ? x : { ...x, result: 'lost' }));
    };
  };

  const run = async () => {
    setError(null);
    setStarting(true);
    try {
      const data = await api.gql('mutation { rescan_images { ok msg task_id } }');
      const r = data.rescan_images;
      if (!r.ok) throw new api.ApiError(200, 'rescan_images', r.msg);
      setTask({ id: r.task_id, current: 0, total: 0, messages: [], result: null, final: '' });
      follow(r.task_id);
    } catch (e) {
      setError(e);
    } finally {
      setStarting(false);
    }
  };

  const running = starting || (task && !task.result);
  return (
    <section class="card" aria-labelledby="rescan-title">
      <h2 id="rescan-title">{t('maint.rescan')}</h2>
      <p>{t('maint.rescan_text')}</p>
      <button type="button" class="primary" onClick={run} disabled={running}>
        {t('maint.rescan_button')}
      </button>
      <ErrorNote error={error} />
      {task && (
        <div class="task" aria-live="polite">
          <label class="progress">
            <span>{task.total ? t('maint.progress', { current: task.current, total: task.total }) : t('maint.started')}</span>
            <progress max={task.total || 1} value={task.result === 'done' ? task.total || 1 : task.current} />
          </label>
          {task.messages.length > 0 && (
            <ul class="small task-log">
              {task.messages.map((m, i) => (
                <li key={i}>{m}</li>
              ))}
            </ul>
          )}
          {task.result && (
            <p class={'note ' + (task.result === 'done' ? 'ok' : 'error')} role="status">
              {t('maint.result.' + task.result)} {task.final}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
