// resources - what the platform runs on, for a superadmin: the agents with
// their slots, the resource groups that partition them (and who may use
// each), and the storage volumes folders live on.
//
// The gateway has no call that changes an agent (Backend.AI's modify_agent),
// so whether an agent is schedulable is shown, not switched.

import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { Bar, Loaded, Status, Tabs, useLoad } from '../ui/common.jsx';
import { bytes, slot, slotName, slots, when } from '../ui/format.js';
import { ResourceGroups } from '../ui/resource-groups.jsx';

const TABS = ['agents', 'groups', 'storage'];

export default function Resources({ query }) {
  const [tab, setTab] = useState(TABS.includes(query.get('tab')) ? query.get('tab') : 'agents');
  return (
    <section class="page">
      <h1>{t('nav.resources')}</h1>
      <div class="toolbar">
        <Tabs label={t('nav.resources')} value={tab} onChange={setTab} tabs={TABS.map((key) => [key, t('resources.tab.' + key)])} />
      </div>
      {tab === 'agents' && <Agents />}
      {tab === 'groups' && <ResourceGroups />}
      {tab === 'storage' && <Storage />}
    </section>
  );
}

const AGENT_FIELDS = 'id status region scaling_group addr architecture version schedulable first_contact lost_at available_slots occupied_slots';

function Agents() {
  const [status, setStatus] = useState('');
  const state = useLoad(async () => {
    const data = await api.gql(`query($status: String) { agents(status: $status) { ${AGENT_FIELDS} } }`, { status: status || null });
    return data.agents || [];
  }, [status]);
  return (
    <>
      <div class="toolbar">
        <label>
          {t('resources.status')}
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">{t('resources.all')}</option>
            {['ALIVE', 'LOST', 'TERMINATED'].map((s) => (
              <option value={s} key={s}>
                {t('status.' + s)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={state.reload}>
          {t('action.refresh')}
        </button>
      </div>
      <Loaded state={state}>
        {(agents) =>
          agents.length ? (
            <div class="table-wrap">
              <table class="agents">
                <thead>
                  <tr>
                    <th scope="col">{t('resources.agent')}</th>
                    <th scope="col">{t('resources.status')}</th>
                    <th scope="col">{t('resources.group')}</th>
                    <th scope="col">{t('resources.slots')}</th>
                    <th scope="col">{t('resources.schedulable')}</th>
                    <th scope="col">{t('resources.version')}</th>
                    <th scope="col">{t('resources.since')}</th>
                  </tr>
                </thead>
                <tbody>
                  {agents.map((a) => (
                    <AgentRow key={a.id} a={a} />
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p class="empty">{t('resources.no_agents')}</p>
          )
        }
      </Loaded>
    </>
  );
}

function AgentRow({ a }) {
  const available = slots(a.available_slots), occupied = slots(a.occupied_slots);
  return (
    <tr data-agent={a.id}>
      <td>
        <strong>{a.id}</strong>
        <div class="muted small">{a.addr}</div>
        <div class="muted small">
          {a.region} · {a.architecture}
        </div>
      </td>
      <td>
        <Status status={a.status} />
      </td>
      <td>{a.scaling_group}</td>
      <td class="slots">
        {Object.keys(available).map((k) => (
          <Bar
            key={k}
            label={slotName(k)}
            used={Number(occupied[k] || 0)}
            limit={Number(available[k])}
            text={t('resources.used_of', { used: slot(k, occupied[k] || 0), total: slot(k, available[k]) })}
          />
        ))}
      </td>
      <td>{a.schedulable ? t('groups.yes') : t('groups.no')}</td>
      <td>{a.version}</td>
      <td class="small">
        {when(a.first_contact)}
        {a.lost_at && <div class="muted">{t('resources.lost_at', { at: when(a.lost_at) })}</div>}
      </td>
    </tr>
  );
}

function Storage() {
  const state = useLoad(async () => {
    const data = await api.gql(
      'query { storage_volume_list(limit: 100, offset: 0) { total_count items { id backend path capabilities hardware_metadata usage } } }',
    );
    return data.storage_volume_list.items || [];
  }, []);
  return (
    <Loaded state={state}>
      {(volumes) =>
        volumes.length ? (
          <div class="table-wrap">
            <table class="volumes">
              <thead>
                <tr>
                  <th scope="col">{t('resources.volume')}</th>
                  <th scope="col">{t('resources.backend')}</th>
                  <th scope="col">{t('resources.capabilities')}</th>
                  <th scope="col">{t('resources.usage')}</th>
                </tr>
              </thead>
              <tbody>
                {volumes.map((v) => {
                  const usage = slots(v.usage), hw = slots(v.hardware_metadata);
                  return (
                    <tr key={v.id} data-volume={v.id}>
                      <td>
                        <strong>{v.id}</strong>
                        <div class="muted small">
                          <code>{v.path}</code>
                        </div>
                      </td>
                      <td>
                        {v.backend}
                        {hw.fs_type && <div class="muted small">{hw.fs_type}</div>}
                      </td>
                      <td>{(v.capabilities || []).join(', ')}</td>
                      <td class="slots">
                        {usage.capacity_bytes ? (
                          <Bar
                            label={t('resources.disk')}
                            used={Number(usage.used_bytes || 0)}
                            limit={Number(usage.capacity_bytes)}
                            text={t('resources.used_of', { used: bytes(usage.used_bytes || 0), total: bytes(usage.capacity_bytes) })}
                          />
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        ) : (
          <p class="empty">{t('resources.no_volumes')}</p>
        )
      }
    </Loaded>
  );
}
