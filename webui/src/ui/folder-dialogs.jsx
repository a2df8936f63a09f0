// folder-dialogs - the dialogs of the Data page that make or change a folder:
// create, settings (name, permission, cloneable, quota) and clone. Each shows
// the gateway's refusal in its words and closes only when the call went
// through.

import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { Dialog, ErrorNote, Field, FormActions, useApp, useBusy, useLoad } from './common.jsx';
import { parseBytes } from './format.js';
import * as folders from './folders.js';

function PermSelect({ id, value, onChange }) {
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
      {folders.PERMS.map((p) => (
        <option value={p} key={p}>
          {folders.permText(p)}
        </option>
      ))}
    </select>
  );
}

// "" -> undefined (no quota asked), "2g" -> bytes; NaN when unreadable.
function quotaOf(text) {
  return text.trim() ? parseBytes(text) : undefined;
}

// Bytes as the shortest exact "10g" a person would type back.
function quotaText(n) {
  if (!n) return '';
  for (const [unit, scale] of [['t', 2 ** 40], ['g', 2 ** 30], ['m', 2 ** 20], ['k', 2 ** 10]])
    if (n % scale === 0) return n / scale + unit;
  return String(n);
}

export function CreateDialog({ open, onClose, onCreated }) {
  const { me, projects, project } = useApp();
  const admin = me.role !== 'user';
  const groupId = (projects.find((p) => p.name === project) || {}).id;
  const [form, setForm] = useState({ name: '', host: '', type: 'user', permission: 'rw', cloneable: false, quota: '' });
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  useEffect(() => {
    if (open) setError(null);
  }, [open]);
  const hostState = useLoad(() => (open ? folders.hosts(form.type === 'project' ? groupId : undefined) : null), [open, form.type, groupId]);
  const hostInfo = hostState.data || {};
  const allowed = hostInfo.allowed || [];
  const host = form.host || hostInfo.default || allowed[0] || '';
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });

  const submit = (e) => {
    e.preventDefault();
    setError(null);
    const quota = quotaOf(form.quota);
    if (Number.isNaN(quota)) return setError(new Error(t('data.quota_bad')));
    run(async () => {
      try {
        const made = await folders.createFolder({
          name: form.name.trim(),
          host: host || undefined,
          group: form.type === 'project' ? groupId : undefined,
          permission: form.permission,
          cloneable: form.cloneable,
          quota,
        });
        setForm({ ...form, name: '', quota: '' });
        onCreated(made);
      } catch (err) {
        setError(err);
      }
    });
  };

  return (
    <Dialog title={t('data.create')} open={open} onClose={onClose}>
      <form onSubmit={submit}>
        <Field label={t('data.name')} hint={t('data.name_hint')}>
          {(id) => <input id={id} required maxLength={64} autocomplete="off" value={form.name} onInput={set('name')} />}
        </Field>
        <Field label={t('data.host')}>
          {(id) => (
            <select id={id} value={host} onChange={set('host')}>
              {allowed.map((h) => (
                <option value={h} key={h}>
                  {h}
                </option>
              ))}
            </select>
          )}
        </Field>
        {hostState.error && <ErrorNote error={hostState.error} onRetry={hostState.reload} />}
        {admin && (
          <fieldset>
            <legend>{t('data.type')}</legend>
            <label class="inline">
              <input type="radio" name="type" value="user" checked={form.type === 'user'} onChange={set('type')} /> {t('data.type.user')}
            </label>
            <label class="inline">
              <input type="radio" name="type" value="project" checked={form.type === 'project'} onChange={set('type')} disabled={!groupId} />{' '}
              {t('data.type.project_of', { name: project || '—' })}
            </label>
          </fieldset>
        )}
        <div class="row">
          <Field label={t('data.permission')}>{(id) => <PermSelect id={id} value={form.permission} onChange={(v) => setForm({ ...form, permission: v })} />}</Field>
          <Field label={t('data.quota')} hint={t('data.quota_hint')}>
            {(id) => <input id={id} value={form.quota} placeholder="10g" onInput={set('quota')} />}
          </Field>
        </div>
        <label class="inline">
          <input type="checkbox" checked={form.cloneable} onChange={set('cloneable')} /> {t('data.cloneable')}
        </label>
        <ErrorNote error={error} />
        <FormActions busy={busy} label={t('data.create_submit')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

// Name, permission, cloneable and quota of a folder I own (or administer):
// each call only for what changed.
export function SettingsDialog({ folder, onClose, onSaved }) {
  const [form, setForm] = useState({
    name: folder.name,
    permission: folder.permission,
    cloneable: !!folder.cloneable,
    quota: quotaText(folder.max_size),
  });
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  const initialQuota = form.quota;

  const submit = (e) => {
    e.preventDefault();
    setError(null);
    const quota = quotaOf(form.quota);
    if (Number.isNaN(quota)) return setError(new Error(t('data.quota_bad')));
    run(async () => {
      try {
        if (form.permission !== folder.permission || form.cloneable !== !!folder.cloneable)
          await folders.updateOptions(folder, { permission: form.permission, cloneable: form.cloneable });
        if (quota !== undefined && form.quota !== initialQuota) await folders.setQuota(folder, quota);
        if (form.name.trim() !== folder.name) await folders.renameFolder(folder, form.name.trim());
        onSaved();
      } catch (err) {
        setError(err);
      }
    });
  };

  return (
    <Dialog title={t('data.settings_of', { name: folder.name })} open onClose={onClose}>
      <form onSubmit={submit}>
        <Field label={t('data.name')}>{(id) => <input id={id} required maxLength={64} value={form.name} onInput={set('name')} />}</Field>
        <div class="row">
          <Field label={t('data.permission')}>{(id) => <PermSelect id={id} value={form.permission} onChange={(v) => setForm({ ...form, permission: v })} />}</Field>
          <Field label={t('data.quota')} hint={t('data.quota_hint')}>
            {(id) => <input id={id} value={form.quota} placeholder="10g" onInput={set('quota')} />}
          </Field>
        </div>
        <label class="inline">
          <input type="checkbox" checked={form.cloneable} onChange={set('cloneable')} /> {t('data.cloneable')}
        </label>
        <ErrorNote error={error} />
        <FormActions busy={busy} label={t('action.save')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}

export function CloneDialog({ folder, onClose, onCloned }) {
  const [form, setForm] = useState({ name: folder.name + '-copy', permission: 'rw', cloneable: false });
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const set = (k) => (e) => setForm({ ...form, [k]: e.target.type === 'checkbox' ? e.target.checked : e.target.value });
  const submit = (e) => {
    e.preventDefault();
    setError(null);
    run(async () => {
      try {
        const made = await folders.cloneFolder(folder, {
          target_name: form.name.trim(),
          target_host: folder.host,
          permission: form.permission,
          cloneable: form.cloneable,
        });
        onCloned(made);
      } catch (err) {
        setError(err);
      }
    });
  };
  return (
    <Dialog title={t('data.clone_of', { name: folder.name })} open onClose={onClose}>
      <form onSubmit={submit}>
        <Field label={t('data.clone_name')}>{(id) => <input id={id} required maxLength={64} value={form.name} onInput={set('name')} />}</Field>
        <Field label={t('data.permission')}>{(id) => <PermSelect id={id} value={form.permission} onChange={(v) => setForm({ ...form, permission: v })} />}</Field>
        <label class="inline">
          <input type="checkbox" checked={form.cloneable} onChange={set('cloneable')} /> {t('data.cloneable')}
        </label>
        <ErrorNote error={error} />
        <FormActions busy={busy} label={t('data.clone')} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
