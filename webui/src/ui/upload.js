// upload - files and folders into a folder, resumable, with their progress.
//
// Each file is one tus upload (the protocol Backend.AI's storage-proxy
// speaks): request-upload signs a token for the file's path and size and
// names the storage-proxy's URL; the bytes go there in PATCH chunks, each at
// the offset the server has, never through the gateway. The storage-proxy
// keeps what arrived of a chunk that broke off, so:
//   - a lost connection is retried: HEAD says where the server stands and the
//     next PATCH starts there;
//   - the token and URL of an unfinished upload are kept in localStorage under
//     the folder, path, size and modification time of the file, so choosing
//     the same file again after the page was closed (or the computer slept)
//     resumes it from the server's offset, as long as the token lives
//     (vfolders.token_ttl_s, an hour by default); after that it starts over.
//
// Uploads live in this module, not in a page: they go on while the person
// browses other pages, and the explorer shows them again when it comes back.
// XMLHttpRequest, not fetch, because only it reports upload progress.

import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { join, requestUpload } from './folders.js';

const CHUNK = 8 * 2 ** 20; // bytes per PATCH; the storage-proxy takes up to 64 MiB
const PARALLEL = 3; // files at once: a folder of small files is request-bound
const RETRIES = 6; // tries in a row without progress before giving up
const KEY = 'backplane.upload.';

let transfers = [];
let seq = 0;
const listeners = new Set();

function changed() {
  transfers = transfers.slice();
  for (const fn of listeners) fn(transfers);
}

function update(tr, fields) {
  Object.assign(tr, fields);
  changed();
}

// The transfers into one folder, re-rendered as they move.
export function useTransfers(folderId) {
  const [list, setList] = useState(transfers);
  useEffect(() => {
    listeners.add(setList);
    return () => listeners.delete(setList);
  }, []);
  return list.filter((tr) => tr.folderId === folderId);
}

// Calls fn(transfer) whenever one ends well.
const finishers = new Set();
export function onFinished(fn) {
  finishers.add(fn);
  return () => finishers.delete(fn);
}

export const active = (tr) => tr.state === 'queued' || tr.state === 'uploading' || tr.state === 'retrying';

// Queues files for upload into dir of folder: File objects (those of a
// chosen folder carry webkitRelativePath) or {file, path} (a dropped
// folder's, path relative to dir).
export function upload(folder, dir, files) {
  for (const item of files) {
    const file = item.file || item;
    const rel = item.path || file.webkitRelativePath || file.name;
    transfers.push({
      id: ++seq,
      folderId: folder.id,
      file,
      path: join(dir, rel),
      name: rel,
      size: file.size,
      sent: 0,
      state: 'queued',
      error: null,
      resumedFrom: null,
      started: 0,
      ended: 0,
      fresh: 0, // bytes sent in this page's life, for the rate
    });
  }
  changed();
  pump();
}

export function cancel(tr) {
  if (!active(tr)) return;
  if (tr.xhr) tr.xhr.abort();
  localStorage.removeItem(tr.key);
  update(tr, { state: 'cancelled', ended: Date.now() });
  pump();
}

export function retry(tr) {
  if (tr.state !== 'failed' && tr.state !== 'cancelled') return;
  update(tr, { state: 'queued', error: null });
  pump();
}

export function clearEnded(folderId) {
  transfers = transfers.filter((tr) => tr.folderId !== folderId || active(tr));
  changed();
}

// Bytes a second over the upload's own time.
export function rate(tr) {
  const end = tr.ended || Date.now();
  return tr.started && end > tr.started ? (tr.fresh / (end - tr.started)) * 1000 : 0;
}

function pump() {
  const running = transfers.filter((tr) => tr.state === 'uploading' || tr.state === 'retrying').length;
  const next = transfers.filter((tr) => tr.state === 'queued').slice(0, Math.max(0, PARALLEL - running));
  for (const tr of next) run(tr);
}

window.addEventListener('beforeunload', (event) => {
  if (transfers.some(active)) {
    event.preventDefault();
    event.returnValue = '';
  }
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(tr) {
  update(tr, { state: 'uploading', started: Date.now(), ended: 0, fresh: 0 });
  tr.key = KEY + [tr.folderId, tr.path, tr.size, tr.file.lastModified].join(':');
  try {
    let offset = await begin(tr);
    let failures = 0;
    while (offset < tr.size || tr.size === 0) {
      if (tr.state === 'cancelled') return;
      try {
        offset = await patch(tr, offset);
        failures = 0;
        if (tr.size === 0) break;
      } catch (e) {
        if (tr.state === 'cancelled') return;
        if (!(e instanceof Lost) || ++failures > RETRIES) throw e;
        // The connection went: wait, then ask the server where it stands.
        update(tr, { state: 'retrying', error: e });
        await sleep(Math.min(16000, 500 * 2 ** failures));
        const at = await head(tr).catch((err) => (err instanceof Lost ? null : Promise.reject(err)));
        if (at !== null) offset = at;
        if (tr.state === 'cancelled') return;
        update(tr, { state: 'uploading', sent: offset });
      }
    }
    localStorage.removeItem(tr.key);
    update(tr, { state: 'done', sent: tr.size, ended: Date.now(), error: null });
    for (const fn of finishers) fn(tr);
  } catch (e) {
    if (tr.state !== 'cancelled') update(tr, { state: 'failed', error: e, ended: Date.now() });
  } finally {
    tr.xhr = null;
    pump();
  }
}

// Where to start: an unfinished upload of this very file goes on from the
// server's offset; anything else gets a new token.
async function begin(tr) {
  const saved = readSaved(tr.key);
  if (saved) {
    tr.target = saved;
    try {
      const offset = await head(tr);
      update(tr, { sent: offset, resumedFrom: offset });
      return offset;
    } catch (e) {
      // Expired or refused (or the server forgot it): start over.
      localStorage.removeItem(tr.key);
    }
  }
  const { token, url } = await requestUpload({ id: tr.folderId }, tr.path, tr.size);
  tr.target = url + '?token=' + encodeURIComponent(token);
  try {
    localStorage.setItem(tr.key, JSON.stringify({ target: tr.target, at: Date.now() }));
  } catch (e) {
    // A full or refused localStorage only costs the resume after a reload.
  }
  return 0;
}

function readSaved(key) {
  try {
    const saved = JSON.parse(localStorage.getItem(key) || 'null');
    return saved && saved.target;
  } catch (e) {
    return null;
  }
}

// The connection broke (or never came): worth another try.
class Lost extends Error {}

async function head(tr) {
  let res;
  try {
    res = await fetch(tr.target, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' }, cache: 'no-store' });
  } catch (e) {
    throw new Lost(e.message);
  }
  if (!res.ok) throw new ApiError(res.status, res.statusText, `HEAD ${res.status}`);
  return Number(res.headers.get('Upload-Offset')) || 0;
}

// Sends one chunk at offset; the server's new offset.
function patch(tr, offset) {
  return new Promise((resolve, reject) => {
    const end = Math.min(tr.size, offset + CHUNK);
    const xhr = new XMLHttpRequest();
    tr.xhr = xhr;
    xhr.open('PATCH', tr.target);
    xhr.setRequestHeader('Tus-Resumable', '1.0.0');
    xhr.setRequestHeader('Upload-Offset', String(offset));
    xhr.setRequestHeader('Content-Type', 'application/offset+octet-stream');
    let last = 0;
    xhr.upload.onprogress = (e) => {
      tr.fresh += e.loaded - last;
      last = e.loaded;
      update(tr, { sent: offset + e.loaded });
    };
    xhr.onload = () => {
      const header = xhr.getResponseHeader('Upload-Offset');
      const at = header === null ? NaN : Number(header);
      if (xhr.status === 204) {
        tr.fresh += end - offset - last;
        resolve(isFinite(at) ? at : end);
      } else if (xhr.status === 409 && isFinite(at)) resolve(at); // the server is elsewhere: go on from there
      else reject(problem(xhr));
    };
    xhr.onerror = () => reject(new Lost('connection lost'));
    xhr.ontimeout = () => reject(new Lost('timed out'));
    xhr.onabort = () => reject(new Lost('aborted'));
    xhr.send(tr.file.slice(offset, end));
  });
}

// The storage-proxy's problem+json as an ApiError with its words.
function problem(xhr) {
  let title = xhr.statusText, detail = '';
  try {
    const body = JSON.parse(xhr.responseText);
    title = body.title || title;
    detail = body.detail || body.msg || '';
  } catch (e) {
    // not JSON: the status says enough
  }
  return new ApiError(xhr.status, title, detail);
}
