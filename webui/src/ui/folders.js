// folders - the /folders calls the Data pages make, and how a folder is read:
// which tab it belongs in, who owns it, what its permission means.
//
// A folder is named by its id in every call (the gateway takes a name or an
// id, and a person may reach two folders of one name: their own and one shared
// with them).

import * as api from '../api.js';
import { t } from '../i18n.js';

const at = (folder) => '/folders/' + encodeURIComponent(folder.id || folder);

export const listFolders = () => api.get('/folders');
export const folderInfo = (id) => api.get(at(id));
export const hosts = (groupId) => api.get('/folders/_/hosts' + api.qs({ group_id: groupId }));

export const createFolder = (body) => api.post('/folders', body);
export const renameFolder = (f, name) => api.post(at(f) + '/rename', { new_name: name });
export const updateOptions = (f, body) => api.post(at(f) + '/update-options', body);
export const setQuota = (f, size) => api.post('/folders/_/quota', { id: f.id, input: { size_bytes: size } });
export const cloneFolder = (f, body) => api.post(at(f) + '/clone', body);
export const trashFolder = (f) => api.del(at(f));
export const restoreFolder = (f) => api.post('/folders/restore-from-trash-bin', { id: f.id });
export const purgeFolder = (f) => api.post('/folders/delete-from-trash-bin', { id: f.id });
export const leaveFolder = (f) => api.post(at(f) + '/leave', {});

// Sharing: invitations for a user's folder, member permissions for a
// project's; /folders/_/shared lists who reaches it so, and changes that.
export const invite = (f, emails, perm) => api.post(at(f) + '/invite', { perm, emails });
export const sentInvitations = () => api.get('/folders/invitations/list-sent');
export const cancelInvitation = (inv) => api.del('/folders/invitations/delete', { inv_id: inv.id });
export const sharedWith = (f) => api.get('/folders/_/shared' + api.qs({ vfolder_id: f.id }));
export const changeShared = (f, user, perm) => api.post('/folders/_/shared', { vfolder: f.id, user, perm });
export const shareProject = (f, emails, permission) => api.post(at(f) + '/share', { permission, emails });
export const unshareProject = (f, emails) => api.del(at(f) + '/unshare', { emails });

// Files.
export const listFiles = (f, path, cursor) => api.get(at(f) + '/files' + api.qs({ path, cursor }));
export const mkdir = (f, path) => api.post(at(f) + '/mkdir', { path, parents: true });
export const renameFile = (f, path, name) => api.post(at(f) + '/rename-file', { target_path: path, new_name: name });
export const moveFile = (f, src, dst) => api.post(at(f) + '/move-file', { src, dst });
export const deleteFiles = (f, files) => api.post(at(f) + '/delete-files', { files, recursive: true });
export const requestUpload = (f, path, size) => api.post(at(f) + '/request-upload', { path, size });
export const requestDownload = (f, path) => api.post(at(f) + '/request-download', { path });

// The tab a folder belongs in: in the trash whatever it is, else a
// project's, else mine or shared with me.
export function tabOf(folder) {
  if (folder.status === 'delete-pending') return 'trash';
  if (folder.ownership_type === 'group') return 'project';
  return folder.is_owner ? 'mine' : 'shared';
}

export function ownerOf(folder) {
  return folder.ownership_type === 'group' ? folder.group_name || folder.group : folder.user_email || folder.creator || '—';
}

export const PERMS = ['ro', 'rw', 'wd'];
export const permText = (perm) => t('folder.perm.' + perm);

// Joins path parts of a folder ("" is its root).
export function join(...parts) {
  return parts
    .filter((p) => p !== undefined && p !== null && p !== '')
    .join('/')
    .replace(/\/+/g, '/')
    .replace(/^\/|\/$/g, '');
}

export function parent(path) {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

// "a, b c" -> ["a", "b", "c"]
export function emailList(text) {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

// Starts a browser download of a file: the storage-proxy answers it as an
// attachment, so the page stays where it is.
export async function download(folder, path) {
  const { token, url } = await requestDownload(folder, path);
  const a = document.createElement('a');
  a.href = url + '?token=' + encodeURIComponent(token);
  a.rel = 'noopener';
  a.download = path.split('/').pop();
  document.body.appendChild(a);
  a.click();
  a.remove();
}

// Import & Run: the folder's storage-proxy fetches url into path ({url, path,
// unzip, strip_top}); answers {task_id} of a background task (ui/bgtask.js).
export const importUrl = (f, body) => api.post(at(f) + '/import', body);
