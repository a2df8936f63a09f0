// data - the Data pages through the UI: a folder made, a 20 MiB file uploaded
// with its progress bar (timed), listed, downloaded and compared byte for
// byte; directories, rename, move and delete; a whole folder uploaded; an
// upload cut off by closing the page that resumes where the server stood,
// and one whose connection drops; a folder shared read-only with another
// person, who accepts and finds it under "Shared with me"; a folder renamed,
// cloned, put in the trash, restored and deleted for good.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FOLDER = 'data-ui-main';
const MiB = 2 ** 20;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'data-ui-'));

// A file of size random bytes under tmp; its path and sha256.
function randomFile(name, size) {
  const file = path.join(tmp, name);
  const fd = fs.openSync(file, 'w');
  for (let left = size; left > 0; left -= MiB) fs.writeSync(fd, crypto.randomBytes(Math.min(MiB, left)));
  fs.closeSync(fd);
  return { file, sha: sha256(file), size };
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

const row = (p, name) => p.locator(`tr[data-folder="${name}"]`);
const fileRow = (p, name) => p.locator(`tr[data-file="${name}"]`);
const transfer = (p, name) => p.locator(`li[data-transfer="${name}"]`);

async function openData(p, tab) {
  await p.locator('nav.side').getByRole('link', { name: 'Data' }).click();
  await p.getByRole('heading', { name: 'Data', exact: true }).waitFor();
  if (tab) await p.getByRole('tab', { name: tab }).click();
}

async function openFolder(p, name) {
  await openData(p);
  await row(p, name).getByRole('link', { name }).click();
  await p.locator('nav.crumbs').getByText(name).waitFor();
}

// Downloads name from the open explorer; the downloaded file's sha256.
async function downloadSha(p, name) {
  const [download] = await Promise.all([
    p.waitForEvent('download', { timeout: 60000 }),
    fileRow(p, name).getByRole('button', { name: `Download ${name}` }).click(),
  ]);
  const saved = await download.path();
  return sha256(saved);
}

// The bytes an upload has sent so far, from its progress bar.
const sent = (p, name) => transfer(p, name).locator('progress').evaluate((e) => e.value);

export const tests = [
  [
    'create a folder',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.user);
      await openData(p);
      await p.getByRole('button', { name: 'New folder' }).click();
      const dialog = p.getByRole('dialog', { name: 'New folder' });
      await dialog.getByLabel('Name').fill(FOLDER);
      await dialog.getByLabel('Quota').fill('1g');
      await shot(p, 'create-dialog');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await row(p, FOLDER).getByText('Ready').waitFor();
      await row(p, FOLDER).getByText('of 1.00 GiB').waitFor();
      await shot(p, 'folders');
      await p.setViewportSize({ width: 390, height: 800 });
      await shot(p, 'folders-phone');
    },
  ],
  [
    'upload a 20 MiB file with a progress bar, list it, download it: the same bytes',
    async ({ env, login, shot, note, assert }) => {
      const { page: p } = await login(env.user);
      const big = randomFile('big-20m.bin', 20 * MiB);
      await openFolder(p, FOLDER);
      const started = Date.now();
      await p.getByLabel('Upload files').setInputFiles(big.file);
      await p.getByRole('progressbar', { name: 'Upload of big-20m.bin' }).waitFor();
      await transfer(p, 'big-20m.bin').and(p.locator('[data-state="done"]')).waitFor({ timeout: 90000 });
      const seconds = (Date.now() - started) / 1000;
      const rate = Number(await transfer(p, 'big-20m.bin').getAttribute('data-rate'));
      note(
        `upload of 20 MiB through the UI (tus to the storage-proxy): ${(20 / seconds).toFixed(1)} MiB/s from choosing the file to done ` +
          `(${seconds.toFixed(2)} s), ${(rate / MiB).toFixed(1)} MiB/s as the page measured its bytes`,
      );
      await fileRow(p, 'big-20m.bin').getByText('20.0 MiB').waitFor();
      await shot(p, 'uploaded');
      assert.equal(await downloadSha(p, 'big-20m.bin'), big.sha, 'the downloaded bytes are the uploaded ones');
    },
  ],
  [
    'make a directory, rename, move and delete a file',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.user);
      await openFolder(p, FOLDER);
      await p.getByRole('button', { name: 'New directory' }).click();
      await p.getByLabel('Directory name').fill('docs');
      await p.getByRole('button', { name: 'Make' }).click();
      await fileRow(p, 'docs').waitFor();
      await p.getByLabel('Upload files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, folder\n') });
      await fileRow(p, 'notes.txt').waitFor();
      // Rename.
      await fileRow(p, 'notes.txt').getByRole('button', { name: 'Rename notes.txt' }).click();
      await p.getByLabel('New name').fill('renamed.txt');
      await p.getByRole('dialog').getByRole('button', { name: 'Rename' }).click();
      await fileRow(p, 'renamed.txt').waitFor();
      await fileRow(p, 'notes.txt').waitFor({ state: 'detached' });
      // Move into docs, and find it there by the directory's link.
      await fileRow(p, 'renamed.txt').getByRole('button', { name: 'Move renamed.txt' }).click();
      await p.getByLabel('Move into').fill('/docs');
      await p.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
      await fileRow(p, 'renamed.txt').waitFor({ state: 'detached' });
      await fileRow(p, 'docs').getByRole('link', { name: 'docs' }).click();
      await p.locator('nav.crumbs [aria-current="page"]', { hasText: 'docs' }).waitFor();
      await fileRow(p, 'renamed.txt').waitFor();
      await shot(p, 'directory');
      // Back to the top of the folder ("/"), and found there by the breadcrumbs.
      await fileRow(p, 'renamed.txt').getByRole('button', { name: 'Move renamed.txt' }).click();
      await p.getByLabel('Move into').fill('/');
      await p.getByRole('dialog').getByRole('button', { name: 'Move' }).click();
      await p.getByText('This directory is empty.').waitFor();
      await p.locator('nav.crumbs').getByRole('link', { name: FOLDER }).click();
      await fileRow(p, 'docs').waitFor();
      // Delete.
      p.once('dialog', (d) => d.accept());
      await fileRow(p, 'renamed.txt').getByRole('button', { name: 'Delete renamed.txt' }).click();
      await fileRow(p, 'renamed.txt').waitFor({ state: 'detached' });
      await p.setViewportSize({ width: 390, height: 800 });
      await shot(p, 'explorer-phone');
    },
  ],
  [
    'upload a whole folder',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.user);
      const dir = path.join(tmp, 'tree');
      fs.mkdirSync(path.join(dir, 'inner'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
      fs.writeFileSync(path.join(dir, 'inner', 'b.txt'), 'b\n');
      await openFolder(p, FOLDER);
      await p.getByLabel('Upload a folder').setInputFiles(dir);
      await transfer(p, 'tree/inner/b.txt').and(p.locator('[data-state="done"]')).waitFor();
      await transfer(p, 'tree/a.txt').and(p.locator('[data-state="done"]')).waitFor();
      await fileRow(p, 'tree').getByRole('link', { name: 'tree' }).click();
      await fileRow(p, 'a.txt').waitFor();
      await fileRow(p, 'inner').getByRole('link', { name: 'inner' }).click();
      await fileRow(p, 'b.txt').waitFor();
      await shot(p, 'folder-uploaded');
    },
  ],
  [
    'an upload cut off by closing the page resumes from where the server stood',
    async ({ env, login, shot, note, assert }) => {
      const { context, page: p } = await login(env.user);
      const file = randomFile('resume-48m.bin', 48 * MiB);
      await openFolder(p, FOLDER);
      // A slow line, so the page closes half way through.
      const cdp = await context.newCDPSession(p);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 6 * MiB });
      await p.getByLabel('Upload files').setInputFiles(file.file);
      await p.waitForFunction(
        () => {
          const bar = document.querySelector('li[data-transfer="resume-48m.bin"] progress');
          return bar && bar.value >= 20 * 2 ** 20;
        },
        null,
        { timeout: 60000 },
      );
      const before = await sent(p, 'resume-48m.bin');
      await p.close();

      // The same file again, in a new page of the same browser.
      const q = await context.newPage();
      await q.goto(env.web + '/data');
      await openFolder(q, FOLDER);
      await q.getByLabel('Upload files').setInputFiles(file.file);
      await transfer(q, 'resume-48m.bin').and(q.locator('[data-state="done"]')).waitFor({ timeout: 90000 });
      const resumed = Number(await transfer(q, 'resume-48m.bin').getAttribute('data-resumed'));
      note(`resume after closing the page: ${(before / MiB).toFixed(1)} MiB sent before, the server had ${(resumed / MiB).toFixed(1)} MiB and the upload went on from there`);
      assert.ok(resumed > 0, 'the upload resumed from a server offset above 0');
      await transfer(q, 'resume-48m.bin').getByText('resumed at').waitFor();
      await shot(q, 'resumed');
      assert.equal(await downloadSha(q, 'resume-48m.bin'), file.sha, 'the resumed upload holds the same bytes');
    },
  ],
  [
    'an upload whose connection drops goes on by itself',
    async ({ env, login, shot, note, assert }) => {
      const { context, page: p } = await login(env.user);
      const file = randomFile('drop-32m.bin', 32 * MiB);
      await openFolder(p, FOLDER);
      const cdp = await context.newCDPSession(p);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 6 * MiB });
      await p.getByLabel('Upload files').setInputFiles(file.file);
      await p.waitForFunction(() => {
        const bar = document.querySelector('li[data-transfer="drop-32m.bin"] progress');
        return bar && bar.value >= 10 * 2 ** 20;
      });
      await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await transfer(p, 'drop-32m.bin').and(p.locator('[data-state="retrying"]')).waitFor();
      await shot(p, 'retrying');
      const at = await sent(p, 'drop-32m.bin');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      await transfer(p, 'drop-32m.bin').and(p.locator('[data-state="done"]')).waitFor({ timeout: 90000 });
      note(`a dropped connection: the upload stood at ${(at / MiB).toFixed(1)} MiB when the line went, and finished by itself once it came back`);
      assert.equal(await downloadSha(p, 'drop-32m.bin'), file.sha, 'the bytes are the same after the drop');
    },
  ],
  [
    'share a folder read-only: the other person accepts and finds it under "Shared with me"',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.user);
      await openData(p);
      await row(p, FOLDER).getByRole('button', { name: 'Share' }).click();
      const dialog = p.getByRole('dialog', { name: `Share ${FOLDER}` });
      await dialog.getByLabel('Invite by email').fill(env.other);
      await dialog.getByLabel('Permission').selectOption({ label: 'Read only' });
      await dialog.getByRole('button', { name: 'Invite' }).click();
      await dialog.locator(`li[data-invitee="${env.other}"]`).waitFor();
      await shot(p, 'share-dialog');
      await dialog.getByRole('button', { name: 'Close' }).last().click();

      const { page: o } = await login(env.other);
      await openData(o);
      const invitation = o.locator(`li[data-invitation="${FOLDER}"]`);
      await invitation.waitFor();
      await shot(o, 'invitation');
      await invitation.getByRole('button', { name: 'Accept' }).click();
      await invitation.waitFor({ state: 'detached' });
      await o.getByRole('tab', { name: /Shared with me/ }).click();
      await row(o, FOLDER).getByText('Read only').waitFor();
      await row(o, FOLDER).getByText(env.user).waitFor();
      await shot(o, 'shared-with-me');
      // Read only: its files are listed, nothing offers to change them.
      await row(o, FOLDER).getByRole('link', { name: FOLDER }).click();
      await fileRow(o, 'big-20m.bin').waitFor();
      await o.getByLabel('Upload files').waitFor({ state: 'detached' });
      await fileRow(o, 'big-20m.bin').getByRole('button', { name: 'Delete big-20m.bin' }).waitFor({ state: 'detached' });

      // The owner sees whom it is shared with.
      await p.reload();
      await row(p, FOLDER).getByRole('button', { name: 'Share' }).click();
      await dialog.locator(`tr[data-user="${env.other}"]`).getByLabel(`Permission of ${env.other}`).waitFor();
      await shot(p, 'shared-with');
    },
  ],
  [
    "a project's folder: an administrator makes it and gives one member more",
    async ({ env, login, shot }) => {
      const { page: s } = await login(env.super);
      await openData(s);
      await s.getByRole('button', { name: 'New folder' }).click();
      const dialog = s.getByRole('dialog', { name: 'New folder' });
      await dialog.getByLabel('Name').fill('data-ui-project');
      await dialog.getByLabel(/Project folder of/).check();
      await dialog.getByLabel('Permission').selectOption({ label: 'Read only' });
      await dialog.getByRole('button', { name: 'Create' }).click();
      await s.getByRole('tab', { name: /Project folders/ }).waitFor();
      await row(s, 'data-ui-project').getByText('Project', { exact: true }).waitFor();
      await row(s, 'data-ui-project').getByRole('button', { name: 'Share' }).click();
      const share = s.getByRole('dialog', { name: 'Share data-ui-project' });
      await share.getByLabel('Members by email').fill(env.other);
      await share.getByLabel('Permission', { exact: true }).selectOption({ label: 'Read & write' });
      await share.getByRole('button', { name: 'Give permission' }).click();
      await share.locator(`tr[data-user="${env.other}"]`).waitFor();
      await shot(s, 'project-share');

      // The member reaches it with more than the folder's own permission.
      const { page: o } = await login(env.other);
      await openData(o, /Project folders/);
      await row(o, 'data-ui-project').getByText('Read & write').waitFor();
      await shot(o, 'project-member');

      // Taken back.
      await share.locator(`tr[data-user="${env.other}"]`).getByRole('button', { name: 'Remove' }).click();
      await share.getByText('Nobody yet.').waitFor();
      await o.reload();
      await row(o, 'data-ui-project').getByText('Read only').waitFor();
    },
  ],
  [
    'rename, clone, trash, restore and delete a folder for good',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.user);
      await openData(p);
      await p.getByRole('button', { name: 'New folder' }).click();
      const dialog = p.getByRole('dialog', { name: 'New folder' });
      await dialog.getByLabel('Name').fill('data-ui-temp');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await row(p, 'data-ui-temp').waitFor();
      // Settings: a new name, cloneable.
      await row(p, 'data-ui-temp').getByRole('button', { name: 'Settings' }).click();
      const settings = p.getByRole('dialog', { name: 'Settings of data-ui-temp' });
      await settings.getByLabel('Name').fill('data-ui-renamed');
      await settings.getByLabel('Others who reach it may clone it').check();
      await settings.getByRole('button', { name: 'Save' }).click();
      await row(p, 'data-ui-renamed').getByText('cloneable').waitFor();
      // Clone; the copy turns ready.
      await row(p, 'data-ui-renamed').getByRole('button', { name: 'Clone' }).click();
      const clone = p.getByRole('dialog', { name: 'Clone data-ui-renamed' });
      await clone.getByLabel('Name of the copy').fill('data-ui-clone');
      await clone.getByRole('button', { name: 'Clone' }).click();
      await row(p, 'data-ui-clone').getByText('Ready').waitFor({ timeout: 60000 });
      // Into the trash, back, into it again and gone for good.
      p.on('dialog', (d) => d.accept());
      await row(p, 'data-ui-renamed').getByRole('button', { name: 'Delete' }).click();
      await row(p, 'data-ui-renamed').waitFor({ state: 'detached' });
      await p.getByRole('tab', { name: /Trash/ }).click();
      await row(p, 'data-ui-renamed').getByText('In the trash').waitFor();
      await shot(p, 'trash');
      await row(p, 'data-ui-renamed').getByRole('button', { name: 'Restore' }).click();
      await row(p, 'data-ui-renamed').waitFor({ state: 'detached' });
      await p.getByRole('tab', { name: /My folders/ }).click();
      await row(p, 'data-ui-renamed').getByRole('button', { name: 'Delete' }).click();
      await p.getByRole('tab', { name: /Trash/ }).click();
      await row(p, 'data-ui-renamed').getByRole('button', { name: 'Delete forever' }).click();
      await row(p, 'data-ui-renamed').waitFor({ state: 'detached' });
      await p.getByText('The trash is empty.').waitFor();
    },
  ],
];
