// launcher - start a session: type and name, image, resource group, a preset or
// custom slots within what check-presets says is left, folders to mount,
// environment, a batch command and its start time, the cluster size.
// ?image=<reference or alias> chooses the image (My Environments links so).
// ?mount=<folder> mounts a folder from the start and ?open=<path> (Import & Run)
// prefers a Jupyter image and opens that notebook once the session runs.

import { useEffect, useMemo, useState } from 'preact/hooks';
import * as api from '../api.js';
import { navigate } from '../router.js';
import { t } from '../i18n.js';
import { ErrorNote, Field, Loaded, useApp, useLoad } from '../ui/common.jsx';
import { bytes, parseBytes, slot, slotName } from '../ui/format.js';
import { imageRef } from '../ui/images.jsx';

const NAME_RULE = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{2,62})[A-Za-z0-9_]$/;

// "KEY=value" lines into an object; a line without "=" is an error.
function parseEnv(text) {
  const env = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(t('launcher.env_bad', { line }));
    env[line.slice(0, eq).trim()] = line.slice(eq + 1);
  }
  return env;
}

export default function Launcher({ query }) {
  const { project, notify } = useApp();
  const base = useLoad(async () => {
    const [images, groups, slots, folders] = await Promise.all([
      api.gql('query { images(is_installed: true) { registry name tag architecture aliases resource_limits { key min max } } }'),
      api.get('/scaling-groups' + api.qs({ group: project })),
      api.get('/config/resource-slots'),
      api.get('/folders'),
    ]);
    return { images: images.images || [], groups: groups.scaling_groups || [], slots, folders: folders || [] };
  }, [project]);
  return (
    <section class="page">
      <h1>{t('launcher.title')}</h1>
      <Loaded state={base}>
        {(data) => <Form data={data} project={project} notify={notify} batch={query.get('type') === 'batch'} wanted={query.get('image')} mount={query.get('mount')} open={query.get('open')} />}
      </Loaded>
    </section>
  );
}

// The installed image the address asks for, by reference or alias.
function findImage(images, wanted) {
  return wanted ? images.find((img) => imageRef(img) === wanted || (img.aliases || []).includes(wanted)) : undefined;
}

function Form({ data, project, notify, batch, wanted, mount, open }) {
  const jupyter = open ? data.images.find((img) => /jupyter/i.test(imageRef(img))) : undefined;
  const chosen = findImage(data.images, wanted) || jupyter;
  const [form, setForm] = useState({
    name: '',
    type: batch ? 'batch' : 'interactive',
    command: '',
    startsAt: '',
    image: chosen ? imageRef(chosen) : data.images.length ? imageRef(data.images[0]) : '',
    group: data.groups.length ? data.groups[0].name : '',
    preset: '',
    cpu: '1',
    mem: '1g',
    shmem: '64m',
    accel: '0',
    clusterSize: '1',
    mounts: mount && data.folders.some((f) => f.name === mount) ? [mount] : [],
    env: '',
  });
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });

  // What is left for me in the chosen resource group, and the presets that fit.
  const [room, setRoom] = useState(null);
  const [roomError, setRoomError] = useState(null);
  useEffect(() => {
    if (!form.group) return;
    api.post('/resource/check-presets', { group: project || undefined, scaling_group: form.group }).then(
      (r) => {
        setRoom(r);
        setRoomError(null);
      },
      setRoomError,
    );
  }, [form.group, project]);

  const accelSlot = useMemo(() => Object.keys(data.slots).find((k) => k !== 'cpu' && k !== 'mem' && !k.endsWith('.mem')), [data.slots]);
  const image = data.images.find((i) => imageRef(i) === form.image);
  const min = (key) => {
    const limit = image && (image.resource_limits || []).find((l) => l.key === key);
    return limit ? limit.min : undefined;
  };
  const remaining = (key) => {
    if (!room) return undefined;
    const a = Number((room.keypair_remaining || {})[key]);
    const b = Number((room.scaling_group_remaining || {})[key]);
    const values = [a, b].filter((v) => isFinite(v));
    return values.length ? Math.min(...values) : undefined;
  };

  const resources = () => {
    if (form.preset) {
      const p = (room && room.presets || []).find((x) => x.name === form.preset);
      return { resources: p ? p.resource_slots : {}, shmem: p && p.shared_memory };
    }
    const mem = parseBytes(form.mem);
    if (!isFinite(mem)) throw new Error(t('launcher.mem_bad'));
    const r = { cpu: Number(form.cpu), mem: String(mem) };
    if (accelSlot && Number(form.accel) > 0) r[accelSlot] = form.accel;
    return { resources: r, shmem: form.shmem };
  };

  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    if (form.name && !NAME_RULE.test(form.name)) {
      setError(new api.ApiError(400, t('launcher.name_bad_title'), t('launcher.name_bad', { name: form.name })));
      return;
    }
    let body;
    try {
      const { resources: res, shmem } = resources();
      const config = { resources: res, scaling_group: form.group, mounts: form.mounts, environ: parseEnv(form.env) };
      if (shmem) config.resource_opts = { shmem: String(shmem) };
      body = {
        image: form.image,
        type: form.type,
        group: project,
        config,
        cluster_size: Number(form.clusterSize) || 1,
        cluster_mode: 'single-node',
        enqueueOnly: true,
      };
      if (form.name) body.name = form.name;
      if (form.type === 'batch') {
        body.startupCommand = form.command;
        if (form.startsAt) body.starts_at = new Date(form.startsAt).toISOString();
      }
    } catch (err) {
      setError(new api.ApiError(400, '', err.message));
      return;
    }
    setBusy(true);
    try {
      const r = await api.post('/session', body);
      notify(t('launcher.started', { name: r.sessionName || form.name }));
      navigate(`/sessions/${r.sessionId}` + (open ? api.qs({ open }) : ''));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  const presets = (room && room.presets) || [];
  return (
    <form class="launcher" onSubmit={submit}>
      <fieldset>
        <legend>{t('launcher.step.session')}</legend>
        <Field label={t('launcher.name')} hint={t('launcher.name_hint')}>
          {(id) => <input id={id} name="name" value={form.name} onInput={set('name')} autocomplete="off" />}
        </Field>
        <div class="field" role="radiogroup" aria-label={t('launcher.type')}>
          <span class="label">{t('launcher.type')}</span>
          {['interactive', 'batch'].map((type) => (
            <label class="inline" key={type}>
              <input type="radio" name="type" value={type} checked={form.type === type} onChange={set('type')} /> {t('sessions.type.' + type)}
            </label>
          ))}
        </div>
        {form.type === 'batch' && (
          <>
            <Field label={t('launcher.command')}>
              {(id) => <input id={id} name="command" required value={form.command} onInput={set('command')} placeholder="python main.py" />}
            </Field>
            <Field label={t('launcher.starts_at')} hint={t('launcher.starts_at_hint')}>
              {(id) => <input id={id} name="starts_at" type="datetime-local" value={form.startsAt} onInput={set('startsAt')} />}
            </Field>
          </>
        )}
      </fieldset>
      <fieldset>
        <legend>{t('launcher.step.environment')}</legend>
        {wanted && !chosen && <p class="note warn">{t('launcher.image_missing', { image: wanted })}</p>}
        {open && <p class="note" data-open-notebook={open}>{t('launcher.open_notebook', { path: open })}</p>}
        {data.images.length ? (
          <Field label={t('launcher.image')}>
            {(id) => (
              <select id={id} name="image" value={form.image} onChange={set('image')}>
                {data.images.map((img) => (
                  <option value={imageRef(img)} key={imageRef(img)}>
                    {img.name}:{img.tag}
                    {img.aliases && img.aliases.length ? ` (${img.aliases.join(', ')})` : ''}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : (
          <p class="note">{t('launcher.no_images')}</p>
        )}
        <Field label={t('launcher.env')} hint={t('launcher.env_hint')}>
          {(id) => <textarea id={id} name="env" rows="3" value={form.env} onInput={set('env')} placeholder="KEY=value" />}
        </Field>
      </fieldset>
      <fieldset>
        <legend>{t('launcher.step.resources')}</legend>
        <Field label={t('launcher.group')}>
          {(id) => (
            <select id={id} name="scaling_group" value={form.group} onChange={set('group')}>
              {data.groups.map((g) => (
                <option value={g.name} key={g.name}>
                  {g.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ErrorNote error={roomError} />
        <Field label={t('launcher.preset')}>
          {(id) => (
            <select id={id} name="preset" value={form.preset} onChange={set('preset')}>
              <option value="">{t('launcher.custom')}</option>
              {presets.map((p) => (
                <option value={p.name} key={p.name} disabled={!p.allocatable}>
                  {p.name} — {Object.entries(p.resource_slots || {}).map(([k, v]) => `${slotName(k)} ${slot(k, v)}`).join(', ')}
                  {!p.allocatable ? ` (${t('launcher.no_room')})` : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        {!form.preset && (
          <div class="row">
            <Field label={slotName('cpu')} hint={hint(min('cpu'), remaining('cpu'), (v) => slot('cpu', v))}>
              {(id) => <input id={id} name="cpu" type="number" min={min('cpu') || 0.1} max={remaining('cpu')} step="0.1" value={form.cpu} onInput={set('cpu')} />}
            </Field>
            <Field label={slotName('mem')} hint={hint(min('mem'), remaining('mem'), bytes)}>
              {(id) => <input id={id} name="mem" value={form.mem} onInput={set('mem')} pattern="[0-9.]+[kKmMgGtT]?" />}
            </Field>
            <Field label={slotName('shmem')}>
              {(id) => <input id={id} name="shmem" value={form.shmem} onInput={set('shmem')} pattern="[0-9.]+[kKmMgG]?" />}
            </Field>
            {accelSlot && (
              <Field label={slotName(accelSlot)} hint={hint(undefined, remaining(accelSlot), (v) => slot(accelSlot, v))}>
                {(id) => <input id={id} name="accelerator" type="number" min="0" step={accelSlot.endsWith('.shares') ? '0.1' : '1'} max={remaining(accelSlot)} value={form.accel} onInput={set('accel')} />}
              </Field>
            )}
          </div>
        )}
        <Field label={t('launcher.cluster_size')}>
          {(id) => <input id={id} name="cluster_size" type="number" min="1" max="64" value={form.clusterSize} onInput={set('clusterSize')} />}
        </Field>
      </fieldset>
      <fieldset>
        <legend>{t('launcher.step.folders')}</legend>
        {data.folders.filter((f) => !f.name.startsWith('.')).length ? (
          <ul class="checks">
            {data.folders
              .filter((f) => !f.name.startsWith('.'))
              .map((f) => (
                <li key={f.id}>
                  <label>
                    <input
                      type="checkbox"
                      name="mount"
                      value={f.name}
                      checked={form.mounts.includes(f.name)}
                      onChange={(e) =>
                        setForm({ ...form, mounts: e.target.checked ? [...form.mounts, f.name] : form.mounts.filter((m) => m !== f.name) })
                      }
                    />{' '}
                    {f.name} <span class="muted small">/home/work/{f.name}</span>
                  </label>
                </li>
              ))}
          </ul>
        ) : (
          <p class="muted">{t('launcher.no_folders')}</p>
        )}
      </fieldset>
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy || !form.image}>
          {busy ? t('launcher.starting') : t('launcher.launch')}
        </button>
        <a class="button" href="/sessions">
          {t('action.cancel')}
        </a>
      </div>
    </form>
  );
}

function hint(min, max, show) {
  const parts = [];
  if (min !== undefined && min !== null && min !== '') parts.push(t('launcher.min', { v: show(min) }));
  if (max !== undefined && isFinite(max)) parts.push(t('launcher.left', { v: show(max) }));
  return parts.join(' · ');
}
