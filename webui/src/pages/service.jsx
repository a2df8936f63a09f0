// service - one model service: its status and URL, its replicas (routes) with
// their status and traffic ratio, why replicas failed to start, scale,
// delete, its autoscaling rules (add, edit, delete), and a token for its URL
// (shown once, with a copy button). The page looks again every few seconds
// while something is on its way.

import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { ErrorNote, Field, Loaded, Status, useApp, useBusy, useLoad } from '../ui/common.jsx';
import { slotsText, when } from '../ui/format.js';
import * as serving from '../ui/serving.js';

const POLL_MS = 2000;
const TOKEN_LIFETIMES = [
  [3600, 'serving.token_1h'],
  [86400, 'serving.token_1d'],
  [7 * 86400, 'serving.token_7d'],
];

export default function Service({ params }) {
  const state = useLoad(() => serving.getService(params.id), [params.id]);
  const busy = serving.settling(state.data);
  useEffect(() => {
    if (!busy || state.loading) return;
    const timer = setTimeout(state.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [state.data, state.loading, busy]);
  return (
    <section class="page">
      <Loaded state={state}>{(e) => (!e ? <p>{t('serving.not_found')}</p> : <Detail e={e} reload={state.reload} />)}</Loaded>
    </section>
  );
}

function Detail({ e, reload }) {
  const { notify } = useApp();
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const [to, setTo] = useState(String(e.desired_session_count));
  const act = (fn, done, ask) => {
    if (ask && !confirm(ask)) return;
    run(async () => {
      setError(null);
      try {
        await fn();
        if (done) notify(done);
      } catch (err) {
        setError(err);
      }
      reload();
    });
  };
  const scale = (ev) => {
    ev.preventDefault();
    act(() => serving.scaleService(e.endpoint_id, Number(to)), t('serving.scaled', { n: to }));
  };
  const remove = () =>
    act(
      async () => {
        await serving.deleteService(e.endpoint_id);
        navigate('/serving');
      },
      t('serving.deleted', { name: e.name }),
      t('serving.confirm_delete', { name: e.name }),
    );
  const gone = e.lifecycle_stage !== 'CREATED';

  return (
    <>
      <div class="page-head">
        <h1>
          {e.name} <Status status={e.status} />
        </h1>
        <div class="actions">
          <a class="button" href={'/chat?service=' + e.endpoint_id}>
            {t('serving.chat')}
          </a>
          {!gone && (
            <button type="button" class="danger" disabled={busy} onClick={remove}>
              {t('serving.delete')}
            </button>
          )}
        </div>
      </div>
      <ErrorNote error={error} />
      <dl class="facts">
        <dt>{t('serving.url')}</dt>
        <dd data-field="url">{e.url ? <code>{e.url}</code> : <span class="muted">{t('serving.no_url')}</span>}</dd>
        <dt>{t('serving.public')}</dt>
        <dd>{e.open_to_public ? t('serving.yes') : t('serving.no')}</dd>
        <dt>{t('launcher.image')}</dt>
        <dd>{e.image}</dd>
        <dt>{t('launcher.group')}</dt>
        <dd>{e.resource_group}</dd>
        <dt>{t('serving.resources')}</dt>
        <dd>{slotsText(e.resource_slots) || '—'}</dd>
        <dt>{t('serving.replicas')}</dt>
        <dd>{t('serving.replicas_of', { healthy: (e.routings || []).filter((r) => r.status === 'HEALTHY').length, wanted: e.desired_session_count })}</dd>
        <dt>{t('serving.created_at')}</dt>
        <dd>{when(e.created_at)}</dd>
      </dl>
      {!gone && (
        <form class="toolbar" onSubmit={scale}>
          <Field label={t('serving.scale_to')}>
            {(id) => <input id={id} name="scale" type="number" min="0" step="1" value={to} onInput={(ev) => setTo(ev.target.value)} />}
          </Field>
          <button type="submit" disabled={busy}>
            {t('serving.scale')}
          </button>
        </form>
      )}
      <h2>{t('serving.routes')}</h2>
      <Routes e={e} act={act} busy={busy} />
      <Errors e={e} act={act} />
      {!gone && <Rules e={e} />}
      {!gone && <TokenBox e={e} />}
    </>
  );
}

function Routes({ e, act, busy }) {
  const routes = e.routings || [];
  if (!routes.length) return <p class="empty">{t('serving.no_routes')}</p>;
  const ratio = (r) => {
    const text = prompt(t('serving.ratio_ask'), String(r.traffic_ratio));
    if (text === null) return;
    const value = Number(text);
    act(() => serving.setTraffic(e.endpoint_id, r.routing_id, value), t('serving.ratio_set'));
  };
  return (
    <div class="table-wrap">
      <table class="routes">
        <thead>
          <tr>
            <th scope="col">{t('serving.route')}</th>
            <th scope="col">{t('serving.status')}</th>
            <th scope="col">{t('serving.session')}</th>
            <th scope="col">{t('serving.traffic')}</th>
            <th scope="col">{t('serving.created_at')}</th>
            <th scope="col">
              <span class="sr-only">{t('sessions.controls')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {routes.map((r) => (
            <tr key={r.routing_id} data-route={r.routing_id}>
              <td class="small">
                <code>{r.routing_id.slice(0, 8)}</code>
              </td>
              <td>
                <Status status={r.status} />
              </td>
              <td class="small">{r.session ? <a href={'/sessions/' + r.session}>{r.session.slice(0, 8)}</a> : '—'}</td>
              <td>{r.traffic_ratio}</td>
              <td class="small">{when(r.created_at)}</td>
              <td class="controls">
                {r.status !== 'FAILED_TO_START' && (
                  <button type="button" class="small" disabled={busy} onClick={() => ratio(r)}>
                    {t('serving.ratio_change')}
                  </button>
                )}
                {r.status !== 'PROVISIONING' && r.status !== 'TERMINATING' && (
                  <button
                    type="button"
                    class="small danger"
                    disabled={busy}
                    onClick={() => act(() => serving.dropRoute(e.endpoint_id, r.routing_id), t('serving.route_dropped'), t('serving.confirm_drop'))}
                  >
                    {t('serving.drop')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// Why replicas failed to start: the gateway's error_data of each.
function Errors({ e, act }) {
  const errors = e.errors || [];
  if (!errors.length) return null;
  const text = (err) => {
    const list = (err && err.errors) || [];
    if (list.length) return list.map((x) => x.repr || x.name || JSON.stringify(x)).join('; ');
    return err ? JSON.stringify(err) : '—';
  };
  return (
    <>
      <h2>{t('serving.errors', { retries: e.retries })}</h2>
      <ul class="errors">
        {errors.map((x, i) => (
          <li key={i} class="note error">
            {x.session_id && <code>{String(x.session_id).slice(0, 8)} </code>}
            {text(x.errors)}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => act(() => serving.clearErrors(e.endpoint_id), t('serving.errors_cleared'))}>
        {t('serving.clear_errors')}
      </button>
    </>
  );
}

// The autoscaling rules: a metric (the replicas' CPU or the requests per
// second on the URL, averaged over the gateway's window) against a
// threshold moves the replicas wanted by a step, within min and max, at
// most once per cool-down.
const EMPTY_RULE = {
  metric_source: 'INFERENCE_FRAMEWORK',
  comparator: 'GREATER_THAN',
  threshold: '',
  step_size: '1',
  cooldown_seconds: '300',
  min_replicas: '',
  max_replicas: '',
};

function Rules({ e }) {
  const { notify } = useApp();
  // A rule that fired changed the replicas wanted: its last trigger is new.
  const state = useLoad(() => serving.listRules(e.endpoint_id), [e.endpoint_id, e.desired_session_count]);
  const [editing, setEditing] = useState(null); // null, 'new' or a rule's id
  const [form, setForm] = useState(EMPTY_RULE);
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const open = (rule) => {
    setError(null);
    setEditing(rule ? rule.id : 'new');
    setForm(
      rule
        ? {
            metric_source: rule.metric_source,
            comparator: rule.comparator,
            threshold: rule.threshold,
            step_size: String(rule.step_size),
            cooldown_seconds: String(rule.cooldown_seconds),
            min_replicas: rule.min_replicas === null ? '' : String(rule.min_replicas),
            max_replicas: rule.max_replicas === null ? '' : String(rule.max_replicas),
          }
        : EMPTY_RULE,
    );
  };
  const set = (field) => (ev) => setForm({ ...form, [field]: ev.target.value });
  const count = (text) => (text === '' ? null : Number(text));
  const save = (ev) => {
    ev.preventDefault();
    const props = {
      metric_source: form.metric_source,
      metric_name: serving.RULE_METRICS[form.metric_source],
      comparator: form.comparator,
      threshold: form.threshold.trim(),
      step_size: Number(form.step_size),
      cooldown_seconds: Number(form.cooldown_seconds),
      min_replicas: count(form.min_replicas),
      max_replicas: count(form.max_replicas),
    };
    run(async () => {
      setError(null);
      try {
        if (editing === 'new') await serving.createRule(e.endpoint_id, props);
        else await serving.modifyRule(editing, props);
        notify(editing === 'new' ? t('serving.rule_added') : t('serving.rule_saved'));
        setEditing(null);
        state.reload();
      } catch (err) {
        setError(err);
      }
    });
  };
  const remove = (rule) => {
    if (!confirm(t('serving.rule_confirm_delete'))) return;
    run(async () => {
      setError(null);
      try {
        await serving.deleteRule(rule.id);
        notify(t('serving.rule_deleted'));
        state.reload();
      } catch (err) {
        setError(err);
      }
    });
  };
  const bound = (n) => (n === null || n === undefined ? '—' : n);
  return (
    <>
      <h2>{t('serving.rules')}</h2>
      <p class="muted">{t('serving.rules_hint')}</p>
      <ErrorNote error={error} />
      <Loaded state={state}>
        {(rules) =>
          !rules.length ? (
            <p class="empty">{t('serving.no_rules')}</p>
          ) : (
            <div class="table-wrap">
              <table class="rules">
                <thead>
                  <tr>
                    <th scope="col">{t('serving.rule_metric')}</th>
                    <th scope="col">{t('serving.rule_condition')}</th>
                    <th scope="col">{t('serving.rule_step')}</th>
                    <th scope="col">{t('serving.rule_cooldown')}</th>
                    <th scope="col">{t('serving.rule_bounds')}</th>
                    <th scope="col">{t('serving.rule_last')}</th>
                    <th scope="col">
                      <span class="sr-only">{t('sessions.controls')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rules.map((r) => (
                    <tr key={r.id} data-rule={r.row_id}>
                      <td>{t('serving.metric_' + r.metric_name)}</td>
                      <td>
                        {t('serving.cmp_' + r.comparator)} {r.threshold}
                      </td>
                      <td>{r.step_size > 0 ? '+' + r.step_size : r.step_size}</td>
                      <td>{t('serving.seconds', { n: r.cooldown_seconds })}</td>
                      <td>
                        {bound(r.min_replicas)} – {bound(r.max_replicas)}
                      </td>
                      <td class="small">{r.last_triggered_at ? when(r.last_triggered_at) : t('serving.rule_never')}</td>
                      <td class="controls">
                        <button type="button" class="small" disabled={busy} onClick={() => open(r)}>
                          {t('serving.rule_edit')}
                        </button>
                        <button type="button" class="small danger" disabled={busy} onClick={() => remove(r)}>
                          {t('serving.rule_delete')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      {editing === null ? (
        <button type="button" onClick={() => open(null)}>
          {t('serving.rule_add')}
        </button>
      ) : (
        <form class="rule-form" onSubmit={save} aria-label={t('serving.rule_form')}>
          <Field label={t('serving.rule_metric')}>
            {(id) => (
              <select id={id} name="metric_source" value={form.metric_source} onChange={set('metric_source')}>
                {Object.entries(serving.RULE_METRICS).map(([source, name]) => (
                  <option value={source} key={source}>
                    {t('serving.metric_' + name)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('serving.rule_comparator')}>
            {(id) => (
              <select id={id} name="comparator" value={form.comparator} onChange={set('comparator')}>
                {serving.RULE_COMPARATORS.map((c) => (
                  <option value={c} key={c}>
                    {t('serving.cmp_' + c)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('serving.rule_threshold')}>
            {(id) => <input id={id} name="threshold" required inputMode="decimal" value={form.threshold} onInput={set('threshold')} />}
          </Field>
          <Field label={t('serving.rule_step')} hint={t('serving.rule_step_hint')}>
            {(id) => <input id={id} name="step_size" type="number" step="1" required value={form.step_size} onInput={set('step_size')} />}
          </Field>
          <Field label={t('serving.rule_cooldown')}>
            {(id) => <input id={id} name="cooldown_seconds" type="number" min="0" step="1" required value={form.cooldown_seconds} onInput={set('cooldown_seconds')} />}
          </Field>
          <Field label={t('serving.rule_min')}>
            {(id) => <input id={id} name="min_replicas" type="number" min="0" step="1" value={form.min_replicas} onInput={set('min_replicas')} />}
          </Field>
          <Field label={t('serving.rule_max')}>
            {(id) => <input id={id} name="max_replicas" type="number" min="0" step="1" value={form.max_replicas} onInput={set('max_replicas')} />}
          </Field>
          <div class="actions">
            <button type="submit" disabled={busy}>
              {editing === 'new' ? t('serving.rule_add_submit') : t('action.save')}
            </button>
            <button type="button" disabled={busy} onClick={() => setEditing(null)}>
              {t('action.cancel')}
            </button>
          </div>
        </form>
      )}
    </>
  );
}

// A token for the URL, shown once: the gateway keeps none to show again.
function TokenBox({ e }) {
  const [lifetime, setLifetime] = useState(String(TOKEN_LIFETIMES[0][0]));
  const [token, setToken] = useState('');
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const make = () =>
    run(async () => {
      setError(null);
      setCopied(false);
      try {
        setToken(await serving.makeToken(e.endpoint_id, Number(lifetime)));
      } catch (err) {
        setError(err);
      }
    });
  const copy = () =>
    navigator.clipboard.writeText(token).then(
      () => setCopied(true),
      (err) => setError({ detail: t('serving.copy_failed', { reason: err.message }) }),
    );
  return (
    <>
      <h2>{t('serving.token')}</h2>
      <p class="muted">{e.open_to_public ? t('serving.token_public') : t('serving.token_hint')}</p>
      <ErrorNote error={error} />
      <div class="toolbar">
        <label>
          {t('serving.token_lifetime')}
          <select value={lifetime} onChange={(ev) => setLifetime(ev.target.value)}>
            {TOKEN_LIFETIMES.map(([s, key]) => (
              <option value={s} key={s}>
                {t(key)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={busy} onClick={make}>
          {t('serving.generate_token')}
        </button>
      </div>
      {token && (
        <div class="token-once" role="status">
          <p>{t('serving.token_once')}</p>
          <code data-field="token">{token}</code>
          <button type="button" class="small" onClick={copy}>
            {copied ? t('serving.copied') : t('serving.copy')}
          </button>
        </div>
      )}
    </>
  );
}
