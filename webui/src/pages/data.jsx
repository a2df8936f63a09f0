// data - my folders, in tabs: mine, my projects', shared with me, the trash.
// Each folder opens in the file explorer (/data/<id>); from here it is
// created, shared, changed, cloned, left, put in the trash and taken back or
// deleted for good. Invitations I received are answered here too, and the
// storage hosts show how full they are.

import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { Bar, ErrorNote, Loaded, Tabs, useApp, useBusy, useLoad } from '../ui/common.jsx';
import { bytes } from '../ui/format.js';
import { CloneDialog, CreateDialog, SettingsDialog } from '../ui/folder-dialogs.jsx';
import * as folders from '../ui/folders.js';
import { Invitations } from '../ui/invitations.jsx';
import { ShareDialog } from '../ui/share.jsx';

const TABS = ['mine', 'project', 'shared', 'trash'];

export default function Data({ query }) {
  const { notify } = useApp();
  const tab = TABS.includes(query.get('tab')) ? query.get('tab') : 'mine';
  const list = useLoad(folders.listFolders, []);
  const hostState = useLoad(() => folders.hosts(), []);
  const [dialog, setDialog] = useState(null); // {kind: 'create'|'settings'|'clone'|'share', folder}
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();

  // A clone copies in the background: look again until it is ready.
  const cloning = (list.data || []).some((f) => f.status === 'cloning');
  useEffect(() => {
    if (!cloning) return;
    const timer = setTimeout(list.reload, 2000);
    return () => clearTimeout(timer);
  }, [list.data]);

  const close = () => setDialog(null);
  const done = (text) => {
    setDialog(null);
    if (text) notify(text);
    list.reload();
  };
  // An action after a confirmation, its refusal shown above the table.
  const act = (question, fn, text) => {
    if (question && !confirm(question)) return;
    run(async () => {
      setError(null);
      try {
        await fn();
        if (text) notify(text);
      } catch (e) {
        setError(e);
      }
      list.reload();
    });
  };

  const rows = (list.data || []).filter((f) => folders.tabOf(f) === tab);
  const count = (key) => (list.data || []).filter((f) => folders.tabOf(f) === key).length;
  const controls = {
    share: (f) => setDialog({ kind: 'share', folder: f }),
    settings: (f) => setDialog({ kind: 'settings', folder: f }),
    clone: (f) => setDialog({ kind: 'clone', folder: f }),
    trash: (f) => act(t('data.confirm_trash', { name: f.name }), () => folders.trashFolder(f), t('data.trashed', { name: f.name })),
    leave: (f) => act(t('data.confirm_leave', { name: f.name }), () => folders.leaveFolder(f), t('data.left', { name: f.name })),
    restore: (f) => act(null, () => folders.restoreFolder(f), t('data.restored', { name: f.name })),
    purge: (f) => act(t('data.confirm_purge', { name: f.name }), () => folders.purgeFolder(f), t('data.purged', { name: f.name })),
  };

  return (
    <section class="page">
      <div class="page-head">
        <h1>{t('nav.data')}</h1>
        <button type="button" class="primary" onClick={() => setDialog({ kind: 'create' })}>
          {t('data.create')}
        </button>
      </div>
      <Hosts state={hostState} />
      <Invitations onAnswered={(accepted) => accepted && list.reload()} />
      <div class="toolbar data-tabs">
        <Tabs label={t('data.tabs')} value={tab} onChange={(key) => navigate(key === 'mine' ? '/data' : '/data?tab=' + key, { replace: true })} tabs={TABS.map((key) => [key, <>{t('data.tab.' + key)}{list.data && <span class="count">{count(key)}</span>}</>])} />
      </div>
      <ErrorNote error={error} />
      <Loaded state={list}>{() => <FolderTable rows={rows} tab={tab} busy={busy} controls={controls} />}</Loaded>
      <CreateDialog
        open={dialog && dialog.kind === 'create'}
        onClose={close}
        onCreated={(f) => {
          done(t('data.created', { name: f.name }));
          if (tab !== folders.tabOf({ ...f, is_owner: true })) navigate(f.ownership_type === 'group' ? '/data?tab=project' : '/data', { replace: true });
        }}
      />
      {dialog && dialog.kind === 'settings' && <SettingsDialog folder={dialog.folder} onClose={close} onSaved={() => done(t('data.saved'))} />}
      {dialog && dialog.kind === 'clone' && (
        <CloneDialog folder={dialog.folder} onClose={close} onCloned={(f) => done(t('data.cloning', { name: f.name }))} />
      )}
      {dialog && dialog.kind === 'share' && <ShareDialog folder={dialog.folder} onClose={close} />}
    </section>
  );
}

// How full each storage host I may use is.
function Hosts({ state }) {
  const info = (state.data && state.data.volume_info) || {};
  const names = Object.keys(info);
  if (!names.length) return state.error ? <ErrorNote error={state.error} onRetry={state.reload} /> : null;
  return (
    <div class="hosts">
      {names.map((name) => {
        const usage = info[name].usage || {};
        return (
          <Bar
            key={name}
            label={t('data.host_usage', { host: name })}
            used={usage.used_bytes || 0}
            limit={usage.capacity_bytes || Infinity}
            text={usage.capacity_bytes ? t('data.used_of', { used: bytes(usage.used_bytes), limit: bytes(usage.capacity_bytes) }) : bytes(usage.used_bytes)}
          />
        );
      })}
    </div>
  );
}

function FolderTable({ rows, tab, busy, controls }) {
  if (!rows.length) return <p class="empty">{t('data.none.' + tab)}</p>;
  return (
    <div class="table-wrap">
      <table class="folders">
        <thead>
          <tr>
            <th scope="col">{t('data.name')}</th>
            <th scope="col">{t('data.host')}</th>
            <th scope="col">{t('data.type')}</th>
            <th scope="col">{t('data.permission')}</th>
            <th scope="col">{t('data.owner')}</th>
            <th scope="col">{t('data.usage')}</th>
            <th scope="col">{t('data.status')}</th>
            <th scope="col">
              <span class="sr-only">{t('data.controls')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((f) => (
            <tr key={f.id} data-folder={f.name}>
              <td>
                {f.status === 'ready' ? <a href={'/data/' + f.id}>{f.name}</a> : f.name}
                {f.cloneable && <span class="muted small"> · {t('data.cloneable_short')}</span>}
              </td>
              <td class="small">{f.host}</td>
              <td>{t(f.ownership_type === 'group' ? 'data.type.project' : 'data.type.user')}</td>
              <td>{folders.permText(f.permission)}</td>
              <td class="small">{folders.ownerOf(f)}</td>
              <td>{f.status === 'ready' ? <Usage folder={f} /> : '—'}</td>
              <td>
                <span class={'status status-folder-' + f.status}>{t('data.state.' + f.status)}</span>
              </td>
              <td class="controls">
                <Controls f={f} tab={tab} busy={busy} c={controls} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Controls({ f, tab, busy, c }) {
  const button = (key, fn, danger) => (
    <button type="button" class={'small' + (danger ? ' danger' : '')} disabled={busy} onClick={() => fn(f)} key={key}>
      {t('data.action.' + key)}
    </button>
  );
  if (tab === 'trash') return [button('restore', c.restore), button('purge', c.purge, true)];
  if (f.status !== 'ready') return null;
  const manage = f.is_owner;
  return [
    manage && button('share', c.share),
    manage && button('settings', c.settings),
    (manage || f.cloneable) && button('clone', c.clone),
    tab === 'shared' && button('leave', c.leave, true),
    manage && button('trash', c.trash, true),
  ].filter(Boolean);
}

// Used of quota, asked of the folder's storage-proxy when the row shows.
function Usage({ folder }) {
  const state = useLoad(() => folders.folderInfo(folder.id), [folder.id]);
  if (state.error) return <span class="muted small" title={state.error.message}>—</span>;
  if (!state.data) return <span class="muted small">…</span>;
  const used = state.data.used_bytes || 0;
  const quota = state.data.max_size || 0;
  if (!quota) return <span class="small">{bytes(used)}</span>;
  return (
    <div class="usage" role="meter" aria-label={t('data.usage_of', { name: folder.name })} aria-valuemin="0" aria-valuemax={quota} aria-valuenow={used}>
      <span class="small">{t('data.used_of', { used: bytes(used), limit: bytes(quota) })}</span>
      <div class="bar-track">
        <div class={'bar-fill' + (used / quota > 0.9 ? ' high' : '')} style={{ width: `${Math.min(100, (used / quota) * 100)}%` }} />
      </div>
    </div>
  );
}
