// presets - the resource presets (named slot maps the launcher offers), listed,
// created, changed and deleted; the Environments page's second tab.
//
// The gateway keeps a field a change leaves out (or sends as null), so a
// preset's shared memory and resource group can be changed but not taken
// away: the form says so rather than pretend.

import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { attempt, Dialog, ErrorNote, Field, FormActions, Loaded, useApp, useBusy, useLoad } from './common.jsx';
import { bytes, parseBytes, slotName, slots, slotsText } from './format.js';
import { mutate } from './mutation.js';

const isMem = (key) => key === 'mem' || key.endsWith('.mem');

async function loadPresets() {
  const [data, slotTypes] = await Promise.all([
    api.gql('query { resource_presets { name resource_slots shared_memory scaling_group_name } scaling_groups { name } }'),
    api.get('/config/resource-slots'),
  ]);
  return { presets: data.resource_presets || [], groups: data.scaling_groups || [], slotTypes: slotTypes || {} };
}

export function Presets({ superadmin }) {
  const { notify } = useApp();
  const state = useLoad(loadPresets, []);
  const [editing, setEditing] = useState(null); // {} for a new one, or the preset
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();

  const remove = (p) =>
    run(() =>
      attempt(setError, () => mutate('delete_resource_preset', 'mutation($name: String!) { delete_resource_preset(name: $name) { ok msg } }', { name: p.name }), {
        ask: t('presets.confirm_delete', { name: p.name }),
        done: t('presets.deleted', { name: p.name }),
        notify,
        then: state.reload,
      }),
    );

  return (
    <>
      <div class="page-head">
        <p class="muted">{t('presets.intro')}</p>
        {superadmin && (
          <button type="button" class="primary" onClick={() => setEditing({})}>
            {t('presets.new')}
          </button>
        )}
      </div>
      <ErrorNote error={error} />
      <Loaded state={state}>
        {(data) =>
          data.presets.length ? (
            <div class="table-wrap">
              <table class="presets">
                <thead>
                  <tr>
                    <th scope="col">{t('presets.name')}</th>
                    <th scope="col">{t('presets.resources')}</th>
                    <th scope="col">{t('presets.shmem')}</th>
                    <th scope="col">{t('presets.group')}</th>
                    {superadmin && (
                      <th scope="col">
                        <span class="sr-only">{t('sessions.controls')}</span>
                      </th>
                    )}
                  </tr>
                </thead>
                <tbody>
                  {data.presets.map((p) => (
                    <tr key={p.name} data-preset={p.name}>
                      <td>
                        <strong>{p.name}</strong>
                      </td>
                      <td>{slotsText(p.resource_slots) || '—'}</td>
                      <td>{p.shared_memory ? bytes(p.shared_memory) : '—'}</td>
                      <td>{p.scaling_group_name || <span class="muted">{t('presets.any_group')}</span>}</td>
                      {superadmin && (
                        <td class="controls">
                          <button type="button" class="small" onClick={() => setEditing(p)} aria-label={t('presets.edit_name', { name: p.name })}>
                            {t('presets.edit')}
                          </button>
                          <button type="button" class="small danger" disabled={busy} onClick={() => remove(p)} aria-label={t('presets.delete_name', { name: p.name })}>
                            {t('presets.delete')}
                          </button>
                        </td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p class="empty">{t('presets.none')}</p>
          )
        }
      </Loaded>
      {editing && state.data && (
        <PresetForm
          preset={editing.name ? editing : null}
          data={state.data}
          onDone={(name, created) => {
            setEditing(null);
            notify(t(created ? 'presets.created' : 'presets.modified', { name }));
            state.reload();
          }}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}

// What a slot's amount looks like in the form: memory as "256m"-style text the
// person can edit, the rest as numbers.
function shown(key, value) {
  if (value === undefined || value === null || value === '') return '';
  if (!isMem(key)) return String(value);
  const n = Number(value);
  for (const [unit, size] of [['g', 2 ** 30], ['m', 2 ** 20], ['k', 2 ** 10]]) if (n >= size && n % size === 0) return n / size + unit;
  return String(n);
}

function PresetForm({ preset, data, onDone, onClose }) {
  const current = slots(preset && preset.resource_slots);
  // Every slot the platform knows, and any other the preset already has.
  const keys = [...new Set([...Object.keys(data.slotTypes), ...Object.keys(current)])];
  const [name, setName] = useState(preset ? preset.name : '');
  const [values, setValues] = useState(() => Object.fromEntries(keys.map((k) => [k, shown(k, current[k]) || (preset ? '' : k === 'cpu' ? '1' : k === 'mem' ? '1g' : '')])));
  const [shmem, setShmem] = useState(preset ? shown('mem', preset.shared_memory) : '');
  const [group, setGroup] = useState((preset && preset.scaling_group_name) || '');
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();

  const submit = (e) => {
    e.preventDefault();
    run(async () => {
      setError(null);
      try {
        const resourceSlots = {};
        for (const k of keys) {
          const text = String(values[k] || '').trim();
          if (!text) continue;
          const n = isMem(k) ? parseBytes(text) : Number(text);
          if (!isFinite(n) || n < 0) throw new api.ApiError(400, '', t('presets.bad_amount', { slot: slotName(k), value: text }));
          if (n > 0 || k === 'cpu' || k === 'mem') resourceSlots[k] = String(n);
        }
        const props = { resource_slots: JSON.stringify(resourceSlots) };
        if (shmem.trim()) {
          const n = parseBytes(shmem);
          if (!isFinite(n)) throw new api.ApiError(400, '', t('presets.bad_amount', { slot: t('presets.shmem'), value: shmem }));
          props.shared_memory = String(n);
        }
        if (group) props.scaling_group_name = group;
        if (preset)
          await mutate(
            'modify_resource_preset',
            'mutation($name: String!, $props: ModifyResourcePresetInput!) { modify_resource_preset(name: $name, props: $props) { ok msg } }',
            { name: preset.name, props },
          );
        else
          await mutate(
            'create_resource_preset',
            'mutation($name: String!, $props: CreateResourcePresetInput!) { create_resource_preset(name: $name, props: $props) { ok msg } }',
            { name: name.trim(), props },
          );
        onDone(preset ? preset.name : name.trim(), !preset);
      } catch (err) {
        setError(err);
      }
    });
  };

  return (
    <Dialog title={preset ? t('presets.edit_name', { name: preset.name }) : t('presets.new')} open onClose={onClose}>
      <form onSubmit={submit}>
        {!preset && (
          <Field label={t('presets.name')} hint={t('presets.name_hint')}>
            {(id) => <input id={id} value={name} required pattern="[A-Za-z0-9._\-]{1,63}" onInput={(e) => setName(e.target.value)} autocomplete="off" />}
          </Field>
        )}
        <div class="row">
          {keys.map((k) => (
            <Field key={k} label={slotName(k)} hint={isMem(k) ? t('presets.size_hint') : undefined}>
              {(id) => (
                <input
                  id={id}
                  value={values[k]}
                  inputmode={isMem(k) ? 'text' : 'decimal'}
                  required={k === 'cpu' || k === 'mem'}
                  onInput={(e) => setValues({ ...values, [k]: e.target.value })}
                />
              )}
            </Field>
          ))}
        </div>
        <Field label={t('presets.shmem')} hint={preset && preset.shared_memory ? t('presets.kept_hint') : t('presets.size_hint')}>
          {(id) => <input id={id} value={shmem} onInput={(e) => setShmem(e.target.value)} placeholder="64m" />}
        </Field>
        <Field label={t('presets.group')} hint={preset && preset.scaling_group_name ? t('presets.kept_hint') : undefined}>
          {(id) => (
            <select id={id} value={group} onChange={(e) => setGroup(e.target.value)}>
              {!(preset && preset.scaling_group_name) && <option value="">{t('presets.any_group')}</option>}
              {data.groups.map((g) => (
                <option value={g.name} key={g.name}>
                  {g.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ErrorNote error={error} />
        <FormActions busy={busy} label={preset ? t('action.save') : t('presets.create')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
