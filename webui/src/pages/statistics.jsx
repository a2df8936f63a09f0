// statistics - usage over time, as Backend.AI's Statistics page: the last day,
// week or month of my sessions (every user's, for a superadmin who asks) in
// charts per slot, from the 15-minute bins of GET /resource/stats/user/month
// (/resource/stats/admin/month), with the same numbers as a table. For
// administrators, the usage of the period summed per project (or user, resource
// group, image, domain) from GET /admin/v1/usage, also as CSV.
//
// This page loads lazily (pages.js) and brings uPlot with it.

import { useMemo, useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { Chart } from '../ui/chart.jsx';
import { Loaded, Tabs, useApp, useLoad } from '../ui/common.jsx';
import { bytes } from '../ui/format.js';

const BIN_S = 15 * 60;
// How much of the 2,880 bins each period shows, and how many bins make one
// step of its charts (a day in 15 minutes, a week in hours, a month in six hours).
const PERIODS = {
  day: { bins: 96, group: 1, days: 1 },
  week: { bins: 672, group: 4, days: 7 },
  month: { bins: 2880, group: 24, days: 30 },
};
const GROUPINGS = ['project', 'user', 'resource_group', 'image', 'domain'];

const count = (v) => String(Math.round(v * 100) / 100);

export default function Statistics() {
  const { me } = useApp();
  const [period, setPeriod] = useState('day');
  const [everyone, setEveryone] = useState(false);
  const stats = useLoad(async () => {
    const [bins, slots] = await Promise.all([
      api.get(everyone ? '/resource/stats/admin/month' : '/resource/stats/user/month'),
      api.get('/config/resource-slots').catch(() => ({})),
    ]);
    return { bins: bins || [], slots: slots || {} };
  }, [everyone]);

  return (
    <section class="page">
      <h1>{t('nav.statistics')}</h1>
      <div class="toolbar">
        <Tabs label={t('stats.period')} value={period} onChange={setPeriod} tabs={Object.keys(PERIODS).map((key) => [key, t('stats.period.' + key)])} />
        {me.role === 'superadmin' && (
          <label>
            {t('stats.whose')}
            <select value={everyone ? 'all' : 'mine'} onChange={(e) => setEveryone(e.target.value === 'all')}>
              <option value="mine">{t('stats.whose.mine')}</option>
              <option value="all">{t('stats.whose.all')}</option>
            </select>
          </label>
        )}
      </div>
      <Loaded state={stats}>{(data) => <History data={data} period={period} />}</Loaded>
      {me.role !== 'user' && <Summary period={period} />}
    </section>
  );
}

// The bins of the period, merged into its steps (whole hours, whole 6 hours
// of UTC, so that the steps begin on the hour): what was held (sessions,
// cores, memory, accelerators) at its highest in the step, what was read and
// written summed over it.
function steps(bins, period) {
  const { bins: n, group } = PERIODS[period];
  const stepS = group * BIN_S;
  const out = { stepS, times: [], sessions: [], cpu: [], mem: [], gpu: [], read: [], write: [] };
  const value = (b, k) => Number((b[k] && b[k].value) || 0);
  const held = ['sessions', 'cpu', 'mem', 'gpu'];
  for (const b of bins.slice(-n)) {
    const at = Math.floor(Number(b.date) / stepS) * stepS;
    const figures = {
      sessions: value(b, 'num_sessions'),
      cpu: value(b, 'cpu_allocated'),
      mem: value(b, 'mem_allocated'),
      gpu: value(b, 'gpu_allocated'),
      read: value(b, 'io_read_bytes'),
      write: value(b, 'io_write_bytes'),
    };
    const last = out.times.length - 1;
    if (last < 0 || out.times[last] !== at) {
      out.times.push(at);
      for (const k of Object.keys(figures)) out[k].push(figures[k]);
    } else for (const k of Object.keys(figures)) out[k][last] = held.includes(k) ? Math.max(out[k][last], figures[k]) : out[k][last] + figures[k];
  }
  return out;
}

function History({ data, period }) {
  const s = useMemo(() => steps(data.bins, period), [data, period]);
  // Accelerators have a chart where the platform has an accelerator slot, or
  // where some were held.
  const accel = Object.keys(data.slots).some((k) => k !== 'cpu' && k !== 'mem') || s.gpu.some((v) => v > 0);
  const step = s.stepS;
  // One object per chart, kept while the period stays, so a chart is drawn
  // again only when its numbers change.
  const charts = useMemo(
    () => [
      { key: 'sessions', label: t('stats.sessions'), series: [{ label: t('stats.sessions'), values: s.sessions }], format: count },
      { key: 'cpu', label: t('stats.cpu'), series: [{ label: t('stats.cpu'), values: s.cpu }], format: count },
      { key: 'mem', label: t('stats.mem'), series: [{ label: t('stats.mem'), values: s.mem }], format: bytes, bytes: true },
      ...(accel ? [{ key: 'gpu', label: t('stats.gpu'), series: [{ label: t('stats.gpu'), values: s.gpu }], format: count }] : []),
      {
        key: 'io',
        label: t('stats.io'),
        series: [
          { label: t('stats.io_read'), values: s.read },
          { label: t('stats.io_write'), values: s.write },
        ],
        format: bytes,
        bytes: true,
      },
    ],
    [s, accel],
  );
  const rows = s.times
    .map((at, i) => ({ at, i }))
    .filter(({ i }) => s.sessions[i] || s.cpu[i] || s.mem[i] || s.gpu[i] || s.read[i] || s.write[i]);
  const from = s.times.length ? new Date(s.times[0] * 1000) : null;

  return (
    <>
      <p class="muted">
        {t('stats.explain.' + period)} {from && t('stats.since', { at: from.toLocaleString() })}
      </p>
      <div class="charts">
        {charts.map((c) => (
          <Chart key={c.key} label={c.label} times={s.times} step={step} series={c.series} format={c.format} bytes={c.bytes} timeLabel={t('stats.when')} />
        ))}
      </div>
      <details class="numbers">
        <summary>{t('stats.table')}</summary>
        {rows.length ? (
          <div class="table-wrap">
            <table class="stats-table">
              <caption class="muted small">{t('stats.table_caption')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('stats.when')}</th>
                  <th scope="col">{t('stats.sessions')}</th>
                  <th scope="col">{t('stats.cpu')}</th>
                  <th scope="col">{t('stats.mem')}</th>
                  {accel && <th scope="col">{t('stats.gpu')}</th>}
                  <th scope="col">{t('stats.io_read')}</th>
                  <th scope="col">{t('stats.io_write')}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ at, i }) => (
                  <tr key={at}>
                    <th scope="row">
                      <Span from={at} to={at + step} />
                    </th>
                    <td>{count(s.sessions[i])}</td>
                    <td>{count(s.cpu[i])}</td>
                    <td>{bytes(s.mem[i])}</td>
                    {accel && <td>{count(s.gpu[i])}</td>}
                    <td>{bytes(s.read[i])}</td>
                    <td>{bytes(s.write[i])}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p class="empty">{t('stats.no_usage')}</p>
        )}
      </details>
    </>
  );
}

function Span({ from, to }) {
  const a = new Date(from * 1000), b = new Date(to * 1000);
  const time = { hour: '2-digit', minute: '2-digit' };
  const day = { year: 'numeric', month: 'short', day: 'numeric' };
  const sameDay = a.toDateString() === b.toDateString();
  return (
    <time dateTime={a.toISOString()}>
      {a.toLocaleDateString(undefined, day)} {a.toLocaleTimeString(undefined, time)}–
      {sameDay ? '' : b.toLocaleDateString(undefined, day) + ' '}
      {b.toLocaleTimeString(undefined, time)}
    </time>
  );
}

// YYYY-MM-DD of a moment, in UTC (the days /admin/v1/usage takes).
const utcDay = (ms) => new Date(ms).toISOString().slice(0, 10);

// The period's usage summed per project (or another grouping), for
// administrators: a domain admin reads their own domain's.
function Summary({ period }) {
  const [groupBy, setGroupBy] = useState('project');
  const now = Date.now();
  const start = utcDay(now - PERIODS[period].days * 86400e3);
  const end = utcDay(now);
  const query = { group_by: groupBy, start, end };
  const state = useLoad(() => api.get('/admin/v1/usage' + api.qs(query)), [groupBy, start, end]);
  // Hours with two decimals; a few seconds' use is more than nothing.
  const hours = (s) => {
    const h = Number(s) / 3600;
    return h > 0 && h < 0.005 ? '< 0.01' : h.toFixed(2);
  };
  return (
    <section aria-labelledby="summary-title">
      <h2 id="summary-title">{t('stats.summary')}</h2>
      <div class="toolbar">
        <label>
          {t('stats.group_by')}
          <select value={groupBy} onChange={(e) => setGroupBy(e.target.value)}>
            {GROUPINGS.map((g) => (
              <option key={g} value={g}>
                {t('stats.group_by.' + g)}
              </option>
            ))}
          </select>
        </label>
        <a class="button" href={'/func/admin/v1/usage' + api.qs({ ...query, format: 'csv' })} download={`usage-${groupBy}-${start}-${end}.csv`}>
          {t('stats.csv')}
        </a>
      </div>
      <p class="muted small">{t('stats.summary_days', { start, end })}</p>
      <Loaded state={state}>
        {(u) =>
          u.groups.length ? (
            <div class="table-wrap">
              <table class="usage-table">
                <thead>
                  <tr>
                    <th scope="col">{t('stats.group_by.' + groupBy)}</th>
                    <th scope="col">{t('stats.sessions')}</th>
                    <th scope="col">{t('stats.held_h')}</th>
                    <th scope="col">{t('stats.cpu_h')}</th>
                    <th scope="col">{t('stats.mem_h')}</th>
                    <th scope="col">{t('stats.gpu_h')}</th>
                    <th scope="col">{t('stats.io_read')}</th>
                    <th scope="col">{t('stats.io_write')}</th>
                  </tr>
                </thead>
                <tbody>
                  {[...u.groups, { ...u.total, name: t('stats.total'), key: '\u0000total' }].map((g) => (
                    <tr key={g.key} class={g.key === '\u0000total' ? 'total' : ''}>
                      <th scope="row">{g.name || g.key || '—'}</th>
                      <td>{g.sessions}</td>
                      <td>{hours(g.held_s)}</td>
                      <td>{hours(g.cpu_held_s)}</td>
                      <td>{hours(g.mem_held_byte_s / 2 ** 30)}</td>
                      <td>{hours(Number(g.accel_device_s) + Number(g.accel_share_s))}</td>
                      <td>{bytes(g.io_read_bytes)}</td>
                      <td>{bytes(g.io_write_bytes)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p class="empty">{t('stats.no_usage')}</p>
          )
        }
      </Loaded>
    </section>
  );
}
