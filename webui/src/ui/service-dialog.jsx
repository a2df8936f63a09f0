// service-dialog - the Serving page's create dialog: a name, a model folder
// (mine, of usage mode "model"), its runtime variant (GET
// /services/_/runtimes), replicas, an image from the catalogue, a resource
// group, cpu and memory, open to the public. The gateway checks the rest (the
// folder's model-definition.yaml or the image's command, a dry run of a
// replica) and its refusal is shown as it says it.

import { useEffect, useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { Dialog, ErrorNote, Field, FormActions, Loaded, useApp, useBusy, useLoad } from './common.jsx';
import { parseBytes } from './format.js';
import { imageRef } from './images.jsx';
import { createService } from './serving.js';

// Backend.AI's rule for a service's name.
const NAME_RULE = /^\w[\w.-]*\w$/;

// model, when given ({id, name}: the Model Store's Deploy), is the folder
// chosen at first, listed even when GET /folders does not show it.
export function ServiceDialog({ open, onClose, onCreated, model }) {
  const { project } = useApp();
  const base = useLoad(async () => {
    if (!open) return null;
    const [images, groups, folders, runtimes] = await Promise.all([
      api.gql('query { images(is_installed: true) { registry name tag architecture aliases } }'),
      api.get('/scaling-groups' + api.qs({ group: project })),
      api.get('/folders'),
      api.get('/services/_/runtimes'),
    ]);
    const models = (folders || []).filter((f) => f.usage_mode === 'model' && f.status !== 'delete-pending');
    if (model && !models.some((f) => f.id === model.id)) models.unshift(model);
    return {
      images: images.images || [],
      groups: groups.scaling_groups || [],
      models,
      runtimes: (runtimes && runtimes.runtimes) || [{ name: 'custom', human_readable_name: 'Custom (Default)' }],
      chosen: model ? model.id : null,
    };
  }, [open, project, model && model.id]);
  return (
    <Dialog title={t('serving.create')} open={open} onClose={onClose} wide>
      {open && <Loaded state={base}>{(data) => data && <Form data={data} project={project} onClose={onClose} onCreated={onCreated} />}</Loaded>}
    </Dialog>
  );
}

function Form({ data, project, onClose, onCreated }) {
  const { me } = useApp();
  const [form, setForm] = useState({
    name: '',
    model: data.chosen || (data.models.length ? data.models[0].id : ''),
    replicas: '1',
    image: data.images.length ? imageRef(data.images[0]) : '',
    group: data.groups.length ? data.groups[0].name : '',
    cpu: '1',
    mem: '1g',
    open: false,
    runtime: 'custom',
  });
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  useEffect(() => setError(null), []);
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });

  const submit = (e) => {
    e.preventDefault();
    setError(null);
    if (form.name.length < 4 || form.name.length > 24 || !NAME_RULE.test(form.name))
      return setError(new api.ApiError(400, '', t('serving.name_bad', { name: form.name })));
    const mem = parseBytes(form.mem);
    if (!isFinite(mem)) return setError(new api.ApiError(400, '', t('launcher.mem_bad')));
    run(async () => {
      try {
        const made = await createService({
          name: form.name,
          desired_session_count: Number(form.replicas),
          image: form.image,
          runtime_variant: form.runtime,
          group: project || 'default',
          domain: me.domain_name || 'default',
          open_to_public: form.open,
          config: {
            model: form.model,
            model_version: 1,
            model_mount_destination: '/models',
            scaling_group: form.group,
            resources: { cpu: String(form.cpu), mem: String(mem) },
          },
        });
        onCreated(made);
      } catch (err) {
        setError(err);
      }
    });
  };

  return (
    <form onSubmit={submit}>
      <ErrorNote error={error} />
      <Field label={t('serving.name')} hint={t('serving.name_hint')}>
        {(id) => <input id={id} name="name" required value={form.name} onInput={set('name')} autocomplete="off" />}
      </Field>
      {data.models.length ? (
        <Field label={t('serving.model')} hint={t('serving.model_hint')}>
          {(id) => (
            <select id={id} name="model" value={form.model} onChange={set('model')}>
              {data.models.map((f) => (
                <option value={f.id} key={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : (
        <p class="note warn">{t('serving.no_model_folder')}</p>
      )}
      <Field label={t('serving.runtime')} hint={t('serving.runtime_hint')}>
        {(id) => (
          <select id={id} name="runtime" value={form.runtime} onChange={set('runtime')}>
            {data.runtimes.map((r) => (
              <option value={r.name} key={r.name}>
                {r.human_readable_name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('serving.replicas')}>
        {(id) => <input id={id} name="replicas" type="number" min="0" step="1" required value={form.replicas} onInput={set('replicas')} />}
      </Field>
      <Field label={t('launcher.image')}>
        {(id) => (
          <select id={id} name="image" value={form.image} onChange={set('image')}>
            {data.images.map((img) => (
              <option value={imageRef(img)} key={imageRef(img)}>
                {img.name}:{img.tag}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('launcher.group')}>
        {(id) => (
          <select id={id} name="group" value={form.group} onChange={set('group')}>
            {data.groups.map((g) => (
              <option value={g.name} key={g.name}>
                {g.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div class="row">
        <Field label={t('serving.cpu')}>
          {(id) => <input id={id} name="cpu" type="number" min="0.1" step="any" required value={form.cpu} onInput={set('cpu')} />}
        </Field>
        <Field label={t('serving.mem')} hint={t('serving.mem_hint')}>
          {(id) => <input id={id} name="mem" required value={form.mem} onInput={set('mem')} />}
        </Field>
      </div>
      <label class="inline">
        <input type="checkbox" name="open" checked={form.open} onChange={set('open')} /> {t('serving.open_to_public')}
      </label>
      <FormActions busy={busy || !data.models.length} label={t('serving.create_submit')} onCancel={onClose} />
    </form>
  );
}
