// import - Import & Run (Backend.AI's import page, §3.6 of the reference): a
// notebook's URL (a GitHub page is turned into its raw file) fetched into a folder
// of mine or a new one, then the launcher opens with that folder mounted and,
// once the session runs, its Jupyter opens at the notebook; a GitHub or GitLab
// repository (a branch; GitLab's is required) fetched as a zip into a new folder
// and unpacked there, or any repository cloned with git over HTTP (a URL ending
// in .git, or "Clone with git"; the branch optional: the remote's default). The folder's storage-proxy does the fetching (POST
// /folders/{name}/import), so the browser never reaches the internet; progress
// comes from the import's background task.

import { useEffect, useRef, useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { followTask } from '../ui/bgtask.js';
import { ErrorNote, Field, useLoad } from '../ui/common.jsx';
import * as folders from '../ui/folders.js';
import { bytes } from '../ui/format.js';
import { fileName, folderName, gitRepository, isGitUrl, notebookUrl, repositoryArchive } from '../ui/importurl.js';

const NEW = '\u0000new';

export default function Import() {
  const list = useLoad(() => folders.listFolders(), []);
  const writable = (list.data || []).filter((f) => f.status === 'ready' && (f.permission === 'rw' || f.permission === 'wd'));
  return (
    <section class="page">
      <h1>{t('nav.import')}</h1>
      <p>{t('import.intro')}</p>
      <ErrorNote error={list.error} onRetry={list.reload} />
      <div class="grid2">
        <Notebook folders={writable} reload={list.reload} />
        <Repository reload={list.reload} />
      </div>
    </section>
  );
}

// A running or finished import: its bar, its phase and how it ended.
function Progress({ task }) {
  if (!task) return null;
  const unpacking = task.message === 'unpacking';
  const amount = task.total
    ? unpacking
      ? t('import.entries', { current: task.current, total: task.total })
      : `${bytes(task.current)} / ${bytes(task.total)}`
    : task.current
      ? bytes(task.current)
      : '';
  const phase = task.message && !task.result ? t('import.phase.' + task.message) : '';
  return (
    <div class="task" aria-live="polite">
      {!task.result && (
        <label class="progress">
          <span>
            {phase || t('import.starting')} {amount}
          </span>
          <progress max={task.total || 1} value={task.total ? task.current : 0} />
        </label>
      )}
      {task.result && (
        <p class={'note ' + (task.result === 'done' ? 'ok' : 'error')} role="status" data-import-result={task.result}>
          {t('import.result.' + task.result)} {task.final}
        </p>
      )}
    </div>
  );
}

// Starts the import of url into path of folder and follows it; resolves with the
// task's end ({result, message}) and calls show with each state.
function runImport(folder, body, show, closer) {
  return new Promise((resolve, reject) => {
    folders
      .importUrl(folder, body)
      .then((r) => {
        let task = { current: 0, total: 0, message: '', result: null, final: '' };
        show(task);
        closer.current = followTask(
          r.task_id,
          (u) => show((task = { ...task, ...u })),
          (end) => {
            show((task = { ...task, result: end.result, final: end.message }));
            resolve(end);
          },
        );
      })
      .catch(reject);
  });
}

function Notebook({ folders: list, reload }) {
  const [url, setUrl] = useState('');
  const [folder, setFolder] = useState('');
  const [newName, setNewName] = useState('');
  const [file, setFile] = useState('');
  const [edited, setEdited] = useState(false);
  const [task, setTask] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const closer = useRef(null);
  useEffect(() => () => closer.current && closer.current(), []);
  const chosen = folder || (list.length ? list[0].name : NEW);
  const raw = url ? notebookUrl(url) : '';
  const name = edited ? file : fileName(raw);

  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    setTask(null);
    if (!/^https?:\/\//i.test(raw)) return setError(new api.ApiError(400, '', t('import.url_invalid')));
    if (!name) return setError(new api.ApiError(400, '', t('import.file_needed')));
    setBusy(true);
    try {
      let target = chosen;
      if (chosen === NEW) {
        target = newName.trim();
        await folders.createFolder({ name: target });
        reload();
      }
      const end = await runImport(target, { url: raw, path: name }, setTask, closer);
      if (end.result === 'done')
        navigate('/sessions/new' + api.qs({ mount: target, open: `${target}/${name}` }));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="import-notebook">
      <h2 id="import-notebook">{t('import.notebook')}</h2>
      <p class="small">{t('import.notebook_text')}</p>
      <form onSubmit={submit}>
        <Field label={t('import.notebook_url')}>
          {(id) => (
            <input id={id} name="notebook-url" type="url" required value={url} placeholder="https://github.com/owner/repo/blob/main/notebook.ipynb" onInput={(e) => setUrl(e.target.value)} />
          )}
        </Field>
        {raw && raw !== url.trim() && <p class="small">{t('import.raw_url', { url: raw })}</p>}
        <Field label={t('import.folder')}>
          {(id) => (
            <select id={id} name="folder" value={chosen} onChange={(e) => setFolder(e.target.value)}>
              {list.map((f) => (
                <option key={f.id} value={f.name}>
                  {f.name}
                </option>
              ))}
              <option value={NEW}>{t('import.new_folder')}</option>
            </select>
          )}
        </Field>
        {chosen === NEW && (
          <Field label={t('import.new_folder_name')}>
            {(id) => <input id={id} name="new-folder" required pattern="[A-Za-z0-9._\-]{1,64}" value={newName} onInput={(e) => setNewName(e.target.value)} />}
          </Field>
        )}
        <Field label={t('import.file_name')} hint={t('import.file_name_hint')}>
          {(id) => (
            <input
              id={id}
              name="file-name"
              value={name}
              onInput={(e) => {
                setEdited(true);
                setFile(e.target.value);
              }}
            />
          )}
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          {t('import.notebook_button')}
        </button>
      </form>
      <ErrorNote error={error} />
      <Progress task={task} />
    </section>
  );
}

function Repository({ reload }) {
  const [url, setUrl] = useState('');
  const [branch, setBranch] = useState('');
  const [gitChoice, setGitChoice] = useState(null); // null: as the URL says
  const [name, setName] = useState('');
  const [edited, setEdited] = useState(false);
  const [task, setTask] = useState(null);
  const [made, setMade] = useState(null);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  const closer = useRef(null);
  useEffect(() => () => closer.current && closer.current(), []);
  const git = gitChoice === null ? isGitUrl(url) : gitChoice;
  const archive = !url ? null : git ? gitRepository(url) : repositoryArchive(url, branch);
  const folder = edited ? name : archive ? folderName(archive.name) : '';

  const submit = async (e) => {
    e.preventDefault();
    setError(null);
    setTask(null);
    setMade(null);
    if (!archive) return setError(new api.ApiError(400, '', t(git ? 'import.git_invalid' : 'import.repo_invalid')));
    if (archive.branchNeeded) return setError(new api.ApiError(400, '', t('import.branch_needed')));
    setBusy(true);
    try {
      const created = await folders.createFolder({ name: folder });
      reload();
      const path = folderName(archive.name);
      const body = git ? { url: archive.url, path, git: true, ...(branch.trim() ? { ref: branch.trim() } : {}) } : { url: archive.url, path, unzip: true, strip_top: true };
      const end = await runImport(folder, body, setTask, closer);
      if (end.result === 'done') setMade(created);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="card" aria-labelledby="import-repo">
      <h2 id="import-repo">{t('import.repository')}</h2>
      <p class="small">{t('import.repository_text')}</p>
      <form onSubmit={submit}>
        <Field label={t('import.repository_url')}>
          {(id) => <input id={id} name="repo-url" type="url" required value={url} placeholder="https://github.com/owner/repo" onInput={(e) => setUrl(e.target.value)} />}
        </Field>
        <label class="inline">
          <input type="checkbox" name="git" checked={git} onChange={(e) => setGitChoice(e.target.checked)} /> {t('import.git')}
        </label>
        {git && <p class="small">{t('import.git_hint')}</p>}
        <Field label={t('import.branch')} hint={t(git ? 'import.branch_hint_git' : 'import.branch_hint')}>
          {(id) => <input id={id} name="branch" value={branch} placeholder="main" onInput={(e) => setBranch(e.target.value)} />}
        </Field>
        {archive && archive.url && archive.url !== url.trim() && <p class="small">{t(git ? 'import.clone_url' : 'import.archive_url', { url: archive.url })}</p>}
        <Field label={t('import.new_folder_name')}>
          {(id) => (
            <input
              id={id}
              name="repo-folder"
              required
              pattern="[A-Za-z0-9._\-]{1,64}"
              value={folder}
              onInput={(e) => {
                setEdited(true);
                setName(e.target.value);
              }}
            />
          )}
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          {t('import.repository_button')}
        </button>
      </form>
      <ErrorNote error={error} />
      <Progress task={task} />
      {made && (
        <p>
          <a href={'/data/' + made.id}>{t('import.open_folder', { name: made.name })}</a>
        </p>
      )}
    </section>
  );
}
