// explorer - the files of one folder (/data/<id>?path=<dir>): directories
// by breadcrumbs, new directories, rename, move, delete, download, and
// uploads of files and whole folders (chosen or dropped) with their progress,
// which resume where they broke off (ui/upload.js).

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { Dialog, ErrorNote, Field, FormActions, Loaded, Loading, useApp, useBusy, useLoad } from '../ui/common.jsx';
import { bytes, when } from '../ui/format.js';
import * as folders from '../ui/folders.js';
import { Transfers } from '../ui/transfers.jsx';
import * as uploads from '../ui/upload.js';

export default function Explorer({ params, query }) {
  const info = useLoad(() => folders.folderInfo(params.folder), [params.folder]);
  return (
    <section class="page explorer">
      <Loaded state={info}>{(folder) => <Folder folder={folder} path={query.get('path') || ''} reloadInfo={info.reload} />}</Loaded>
    </section>
  );
}

const here = (folder, path) => '/data/' + folder.id + (path ? '?path=' + encodeURIComponent(path) : '');

function Folder({ folder, path, reloadInfo }) {
  const { notify } = useApp();
  const writable = folder.permission === 'rw' || folder.permission === 'wd' || folder.is_owner;
  const [listing, setListing] = useState(null); // {items, cursor, more}
  const [listError, setListError] = useState(null);
  const [error, setError] = useState(null);
  const [dialog, setDialog] = useState(null); // {kind: 'mkdir'|'rename'|'move', item}
  const [busy, run] = useBusy();
  const seq = useRef(0);

  const load = (cursor) => {
    const mine = ++seq.current;
    setListError(null);
    folders.listFiles(folder, path, cursor).then(
      (r) => {
        if (mine !== seq.current) return;
        setListing((old) => ({ items: cursor && old ? old.items.concat(r.items) : r.items, cursor: r.cursor, more: r.more }));
      },
      (e) => mine === seq.current && setListError(e),
    );
  };
  useEffect(() => {
    setListing(null);
    load();
  }, [folder.id, path]);

  // An upload into this folder that ends: list again (once for a burst).
  const timer = useRef(null);
  useEffect(() => {
    const off = uploads.onFinished((tr) => {
      if (tr.folderId !== folder.id) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        load();
        reloadInfo();
      }, 300);
    });
    return () => {
      off();
      clearTimeout(timer.current);
    };
  }, [folder.id, path]);

  const sorted = useMemo(() => {
    if (!listing) return [];
    const dirs = listing.items.filter((e) => e.type === 'DIRECTORY');
    const rest = listing.items.filter((e) => e.type !== 'DIRECTORY');
    const byName = (a, b) => a.name.localeCompare(b.name);
    return dirs.sort(byName).concat(rest.sort(byName));
  }, [listing]);

  // Files chosen or dropped: a name already here is replaced only when the
  // person says so.
  const start = (items) => {
    if (!items.length) return;
    const names = new Set(sorted.map((e) => e.name));
    const clash = [...new Set(items.map((i) => (i.path || i.webkitRelativePath || i.name).split('/')[0]))].filter((n) => names.has(n));
    if (clash.length && !confirm(t('explorer.confirm_replace', { names: clash.join(', ') }))) return;
    uploads.upload(folder, path, items);
  };

  const openDialog = (d) => {
    setError(null);
    setDialog(d);
  };
  const act = (question, fn, text) => {
    if (question && !confirm(question)) return;
    run(async () => {
      setError(null);
      try {
        await fn();
        if (text) notify(text);
        setDialog(null);
      } catch (e) {
        setError(e);
      }
      load();
      reloadInfo();
    });
  };
  const actions = {
    open: (e) => navigate(here(folder, folders.join(path, e.name))),
    download: (e) =>
      run(async () => {
        setError(null);
        try {
          await folders.download(folder, folders.join(path, e.name));
        } catch (err) {
          setError(err);
        }
      }),
    rename: (e) => openDialog({ kind: 'rename', item: e }),
    move: (e) => openDialog({ kind: 'move', item: e }),
    remove: (e) =>
      act(t('explorer.confirm_delete', { name: e.name }), () => folders.deleteFiles(folder, [folders.join(path, e.name)]), t('explorer.deleted', { name: e.name })),
  };

  return (
    <>
      <Crumbs folder={folder} path={path} />
      <div class="page-head">
        <h1>
          {path ? path.split('/').pop() : folder.name}
          <span class="status">{folders.permText(folder.permission)}</span>
        </h1>
        <Quota folder={folder} />
      </div>
      {writable && (
        <div class="actions explorer-tools">
          <button type="button" onClick={() => openDialog({ kind: 'mkdir' })}>
            {t('explorer.mkdir')}
          </button>
          <FileButton label={t('explorer.upload_files')} onFiles={start} />
          <FileButton label={t('explorer.upload_folder')} onFiles={start} directory />
          <span class="muted small">{t('explorer.drop_hint')}</span>
        </div>
      )}
      <Transfers folderId={folder.id} />
      {!dialog && <ErrorNote error={error} />}
      <Drop enabled={writable} onItems={start}>
        {listError && <ErrorNote error={listError} onRetry={() => load()} />}
        {!listing ? (
          !listError && <Loading />
        ) : (
          <FileTable folder={folder} path={path} items={sorted} writable={writable} busy={busy} actions={actions} />
        )}
        {listing && listing.more && (
          <button type="button" class="more" onClick={() => load(listing.cursor)}>
            {t('explorer.more')}
          </button>
        )}
      </Drop>
      {dialog && dialog.kind === 'mkdir' && (
        <NameDialog
          title={t('explorer.mkdir')}
          label={t('explorer.dir_name')}
          submit={t('explorer.mkdir_submit')}
          busy={busy}
          error={error}
          onClose={() => setDialog(null)}
          onSubmit={(name) => act(null, () => folders.mkdir(folder, folders.join(path, name)), t('explorer.made', { name }))}
        />
      )}
      {dialog && dialog.kind === 'rename' && (
        <NameDialog
          title={t('explorer.rename_of', { name: dialog.item.name })}
          label={t('explorer.new_name')}
          initial={dialog.item.name}
          submit={t('explorer.rename')}
          busy={busy}
          error={error}
          onClose={() => setDialog(null)}
          onSubmit={(name) =>
            act(null, () => folders.renameFile(folder, folders.join(path, dialog.item.name), name), t('explorer.renamed', { name }))
          }
        />
      )}
      {dialog && dialog.kind === 'move' && (
        <NameDialog
          title={t('explorer.move_of', { name: dialog.item.name })}
          label={t('explorer.move_to')}
          hint={t('explorer.move_hint')}
          initial={path ? '/' + path : '/'}
          submit={t('explorer.move')}
          busy={busy}
          error={error}
          onClose={() => setDialog(null)}
          onSubmit={(dest) =>
            act(
              null,
              () => folders.moveFile(folder, folders.join(path, dialog.item.name), folders.join(dest) || '.'),
              t('explorer.moved', { name: dialog.item.name, dest: '/' + folders.join(dest) }),
            )
          }
        />
      )}
    </>
  );
}

function Crumbs({ folder, path }) {
  const parts = path ? path.split('/') : [];
  return (
    <nav aria-label={t('explorer.breadcrumbs')} class="crumbs">
      <ol>
        <li>
          <a href="/data">{t('nav.data')}</a>
        </li>
        <li>
          <a href={here(folder, '')} aria-current={parts.length ? undefined : 'page'}>
            {folder.name}
          </a>
        </li>
        {parts.map((part, i) => (
          <li key={i}>
            <a href={here(folder, parts.slice(0, i + 1).join('/'))} aria-current={i === parts.length - 1 ? 'page' : undefined}>
              {part}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}

function Quota({ folder }) {
  const used = folder.used_bytes || 0;
  const quota = folder.max_size || 0;
  return (
    <p class="muted small folder-usage">{quota ? t('data.used_of', { used: bytes(used), limit: bytes(quota) }) : bytes(used)}</p>
  );
}

// A button that opens the file chooser: a real, focusable <input type=file>
// inside its label, so keyboards and screen readers reach it.
function FileButton({ label, onFiles, directory }) {
  return (
    <label class="button file-button">
      {label}
      <input
        type="file"
        class="sr-only"
        multiple
        webkitdirectory={directory}
        onChange={(e) => {
          const files = [...e.target.files];
          e.target.value = '';
          onFiles(files);
        }}
      />
    </label>
  );
}

// Files and folders dropped on the listing: a folder is walked for its files
// (their paths kept).
function Drop({ enabled, onItems, children }) {
  const [over, setOver] = useState(false);
  if (!enabled) return <div>{children}</div>;
  const drop = async (e) => {
    e.preventDefault();
    setOver(false);
    const entries = [...(e.dataTransfer.items || [])].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
    if (!entries.length) return onItems([...e.dataTransfer.files]);
    const items = [];
    for (const entry of entries) await walk(entry, '', items);
    onItems(items);
  };
  return (
    <div
      class={'drop' + (over ? ' over' : '')}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      {children}
    </div>
  );
}

async function walk(entry, prefix, out) {
  const path = prefix ? prefix + '/' + entry.name : entry.name;
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
    out.push({ file, path });
  } else if (entry.isDirectory) {
    const reader = entry.createReader();
    // readEntries answers in batches until an empty one.
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (!batch.length) break;
      for (const child of batch) await walk(child, path, out);
    }
  }
}

// A folder or a page, drawn (fonts without emoji show those as boxes).
function Icon({ dir }) {
  return (
    <svg class={'file-icon' + (dir ? ' dir' : '')} viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <path d={dir ? 'M1.5 3.5h4.5l1.5 1.5h7v8.5h-13z' : 'M3.5 1.5h6l3 3v10h-9z M9.5 1.5v3h3'} />
    </svg>
  );
}

function FileTable({ folder, path, items, writable, busy, actions }) {
  if (!items.length) return <p class="empty">{t(path ? 'explorer.empty_dir' : 'explorer.empty')}</p>;
  return (
    <div class="table-wrap">
      <table class="files">
        <thead>
          <tr>
            <th scope="col">{t('explorer.name')}</th>
            <th scope="col">{t('explorer.size')}</th>
            <th scope="col">{t('explorer.modified')}</th>
            <th scope="col">
              <span class="sr-only">{t('data.controls')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((e) => {
            const dir = e.type === 'DIRECTORY';
            return (
              <tr key={e.name} data-file={e.name}>
                <td>
                  <Icon dir={dir} />{' '}
                  {dir ? <a href={here(folder, folders.join(path, e.name))}>{e.name}</a> : e.name}
                </td>
                <td class="num">{dir ? '—' : bytes(e.size)}</td>
                <td class="small">{when(e.modified)}</td>
                <td class="controls">
                  {!dir && (
                    <button type="button" class="small" disabled={busy} onClick={() => actions.download(e)} aria-label={t('explorer.download_name', { name: e.name })}>
                      {t('explorer.download')}
                    </button>
                  )}
                  {writable && (
                    <>
                      <button type="button" class="small" disabled={busy} onClick={() => actions.rename(e)} aria-label={t('explorer.rename_name', { name: e.name })}>
                        {t('explorer.rename')}
                      </button>
                      <button type="button" class="small" disabled={busy} onClick={() => actions.move(e)} aria-label={t('explorer.move_name', { name: e.name })}>
                        {t('explorer.move')}
                      </button>
                      <button type="button" class="small danger" disabled={busy} onClick={() => actions.remove(e)} aria-label={t('explorer.delete_name', { name: e.name })}>
                        {t('explorer.delete')}
                      </button>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

// One name (or path) asked in a dialog.
function NameDialog({ title, label, hint, initial = '', submit, busy, error, onClose, onSubmit }) {
  const [value, setValue] = useState(initial);
  return (
    <Dialog title={title} open onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (value.trim()) onSubmit(value.trim());
        }}
      >
        <Field label={label} hint={hint}>
          {(id) => <input id={id} required autocomplete="off" value={value} onInput={(e) => setValue(e.target.value)} />}
        </Field>
        <ErrorNote error={error} />
        <FormActions busy={busy} label={submit} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
