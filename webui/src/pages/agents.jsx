// agents - the agent summary: each agent of the resource groups open to me
// with its status and what of its capacity is taken, slot by slot (GraphQL
// agent_summary_list). A superadmin reads the full agents instead, which add
// the agent's live CPU and memory. The page looks again every few seconds.

import { useEffect, useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { Bar, Loaded, Status, Tabs, useApp, useLoad } from '../ui/common.jsx';
import { bytes, slot, slotName, slots } from '../ui/format.js';

const TABS = [
  ['connected', 'ALIVE'],
  ['disconnected', 'LOST,TERMINATED'],
];
const REFRESH_MS = 5000;

const SUMMARY = `query($status: String) {
  agent_summary_list(limit: 100, offset: 0, status: $status, order: "id") {
    total_count items { id status region architecture scaling_group schedulable available_slots occupied_slots } } }`;
const FULL = `query($status: String) {
  agent_list(limit: 100, offset: 0, status: $status, order: "id") {
    total_count items { id status region architecture scaling_group schedulable available_slots occupied_slots
                        version cpu_cur_pct mem_cur_bytes } } }`;

export default function Agents() {
  const { me } = useApp();
  const [tab, setTab] = useState('connected');
  const full = me.role === 'superadmin';
  const status = TABS.find(([k]) => k === tab)[1];
  const state = useLoad(async () => {
    const data = await api.gql(full ? FULL : SUMMARY, { status });
    return (full ? data.agent_list : data.agent_summary_list).items;
  }, [status, full]);
  useEffect(() => {
    const timer = setInterval(() => document.visibilityState === 'visible' && state.reload(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [state.reload]);

  return (
    <section class="page">
      <h1>{t('nav.agents')}</h1>
      <div class="toolbar">
        <Tabs label={t('agents.status_filter')} value={tab} onChange={setTab} tabs={TABS.map(([key]) => [key, t('agents.tab.' + key)])} />
      </div>
      <Loaded state={state}>{(list) => <AgentCards agents={list} full={full} />}</Loaded>
    </section>
  );
}

// A card per agent, so that its bars stay in view on a phone too.
function AgentCards({ agents, full }) {
  if (!agents.length) return <p class="empty">{t('agents.none')}</p>;
  return (
    <ul class="agent-cards">
      {agents.map((a) => (
        <li class="card" key={a.id} data-agent={a.id} aria-labelledby={'agent-' + a.id}>
          <div class="agent-head">
            <h2 id={'agent-' + a.id}>{a.id}</h2>
            <Status status={a.status} />
          </div>
          <dl class="facts small">
            <dt>{t('agents.group')}</dt>
            <dd>{a.scaling_group}</dd>
            <dt>{t('agents.schedulable')}</dt>
            <dd>{a.schedulable ? t('agents.yes') : t('agents.no')}</dd>
            <dt>{t('agents.platform')}</dt>
            <dd>{[a.architecture, a.region, a.version].filter(Boolean).join(' · ') || '—'}</dd>
            {full && (
              <>
                <dt>{t('agents.live')}</dt>
                {/* cpu_cur_pct adds up the cores' percents, as Backend.AI's does. */}
                <dd>
                  {t('agents.cpu_now', { cores: (Number(a.cpu_cur_pct || 0) / 100).toFixed(2) })}
                  <br />
                  {t('agents.mem_now', { mem: bytes(a.mem_cur_bytes || 0) })}
                </dd>
              </>
            )}
          </dl>
          <h3 class="small muted">{t('agents.allocation')}</h3>
          <Occupancy agent={a} />
        </li>
      ))}
    </ul>
  );
}

// One bar per slot the agent offers: occupied of available.
function Occupancy({ agent }) {
  const available = slots(agent.available_slots);
  const occupied = slots(agent.occupied_slots);
  const keys = Object.keys(available).sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  if (!keys.length) return <span class="muted">—</span>;
  return keys.map((k) => {
    const used = Number(occupied[k] || 0);
    const limit = Number(available[k]);
    return <Bar key={k} label={slotName(k)} used={used} limit={limit} text={`${slot(k, used)} / ${slot(k, limit)}`} />;
  });
}

const order = (k) => (k === 'cpu' ? 0 : k === 'mem' ? 1 : 2);
