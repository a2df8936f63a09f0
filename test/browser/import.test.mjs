// import - the Import & Run page against a loopback HTTP server of the test's
// own (the storage-proxy fetches from it: webui_test starts it with
// fetch.allow_private): a notebook imported into a new folder opens the launcher
// with that folder mounted and, with the jupyter image, a session whose page
// offers the notebook in Jupyter, where it opens; a repository's zip is unpacked
// into a new folder, seen in the explorer; an archive with "../evil" fails with
// the storage-proxy's words; a GitHub page is shown as the raw URL it becomes;
// a bare repository served by git http-backend (CGI, run from node here) is
// cloned with git into a new folder, seen in the explorer, and a batch session
// with that folder mounted runs its files.

import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const NOTEBOOK = JSON.stringify({
  cells: [{ cell_type: 'markdown', metadata: {}, source: ['# Imported by Backplane'] }],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5,
});

const CRC = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// A zip of stored entries [[name, text], ...] (a name ending in / is a directory).
function zip(entries) {
  const parts = [];
  const dir = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const data = Buffer.from(text || '');
    const n = Buffer.from(name);
    const crc = crc32(data);
    const mode = name.endsWith('/') ? 0o40755 : 0o100644;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    parts.push(local, n, data);
    dir.push(central, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(dir);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}

const FILES = {
  '/nb/welcome.ipynb': Buffer.from(NOTEBOOK),
  '/demo-main.zip': zip([
    ['demo-main/', ''],
    ['demo-main/README.md', '# demo\n'],
    ['demo-main/src/', ''],
    ['demo-main/src/app.py', 'print("hello")\n'],
  ]),
  '/evil.zip': zip([
    ['fine.txt', 'x'],
    ['../evil', 'evil'],
  ]),
};

let server;
async function serve() {
  if (server) return server.address().port;
  server = http.createServer((req, res) => {
    const body = FILES[req.url.split('?')[0]];
    if (!body) {
      res.writeHead(404).end('no');
      return;
    }
    res.writeHead(200, { 'Content-Length': body.length }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server.address().port;
}

// A bare repository (demo.git: main.py, an executable run.sh, lib/util.py) served
// by git http-backend, run as CGI for each request: its port.
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};
let gitServer;
let gitDir;
async function serveGit() {
  if (gitServer) return gitServer.address().port;
  gitDir = fs.mkdtempSync(path.join(os.tmpdir(), 'backplane-ui-git-'));
  execFileSync(
    'sh',
    [
      '-c',
      "git init -q -b main work && cd work && printf 'print(\"hello from git\")\\n' > main.py && " +
        "printf '#!/bin/sh\\necho run\\n' > run.sh && chmod 755 run.sh && mkdir lib && " +
        "printf 'x = 1\\n' > lib/util.py && git add -A && git commit -qm one && git clone -q --bare . ../demo.git",
    ],
    { cwd: gitDir, env: GIT_ENV },
  );
  gitServer = http.createServer((req, res) => {
    const at = req.url.indexOf('?');
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const child = spawn('git', ['http-backend'], {
        env: {
          ...GIT_ENV,
          GIT_PROJECT_ROOT: gitDir,
          GIT_HTTP_EXPORT_ALL: '1',
          PATH_INFO: at < 0 ? req.url : req.url.slice(0, at),
          QUERY_STRING: at < 0 ? '' : req.url.slice(at + 1),
          REQUEST_METHOD: req.method,
          CONTENT_TYPE: req.headers['content-type'] || '',
          CONTENT_LENGTH: String(body.length),
          REMOTE_ADDR: '127.0.0.1',
          GATEWAY_INTERFACE: 'CGI/1.1',
          SERVER_PROTOCOL: 'HTTP/1.1',
        },
      });
      const out = [];
      child.stdout.on('data', (c) => out.push(c));
      child.on('close', () => {
        const all = Buffer.concat(out);
        let end = all.indexOf('\r\n\r\n');
        let skip = 4;
        if (end < 0) [end, skip] = [all.indexOf('\n\n'), 2];
        const headers = {};
        let status = 200;
        for (const line of all.subarray(0, Math.max(end, 0)).toString().split(/\r?\n/)) {
          const colon = line.indexOf(':');
          if (colon < 0) continue;
          const [k, v] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
          if (k.toLowerCase() === 'status') status = parseInt(v, 10);
          else headers[k] = v;
        }
        const rest = end < 0 ? Buffer.alloc(0) : all.subarray(end + skip);
        res.writeHead(status, { ...headers, 'Content-Length': rest.length }).end(rest);
      });
      child.stdin.end(body);
    });
  });
  await new Promise((resolve) => gitServer.listen(0, '127.0.0.1', resolve));
  return gitServer.address().port;
}

export const tests = [
  [
    'import a notebook into a new folder, then launch it in Jupyter',
    async ({ env, login, shot, assert, note, pending }) => {
      const port = await serve();
      const { context, page: p } = await login(env.user);
      await p.goto(env.web + '/import');
      await p.getByRole('heading', { name: 'Import & Run' }).waitFor();
      // A GitHub page is shown as the raw file it becomes.
      await p.getByLabel('Notebook URL').fill('https://github.com/owner/repo/blob/main/dir/nb.ipynb');
      await p.getByText('Fetched from https://raw.githubusercontent.com/owner/repo/main/dir/nb.ipynb').waitFor();
      assert.equal(await p.getByLabel('File name').inputValue(), 'nb.ipynb');
      await p.getByLabel('Notebook URL').fill(`http://127.0.0.1:${port}/nb/welcome.ipynb`);
      await p.getByLabel('Folder', { exact: true }).selectOption({ label: 'A new folder…' });
      await p.getByLabel('New folder name').first().fill('ui-notebooks');
      await shot(p, 'notebook-form');
      await p.getByRole('button', { name: 'Import and run' }).click();
      // Done: the launcher, with the folder mounted and the notebook to open.
      await p.waitForURL(/\/sessions\/new\?/, { timeout: 30000 });
      await p.locator('[data-open-notebook="ui-notebooks/welcome.ipynb"]').waitFor();
      assert.ok(await p.locator('input[name="mount"][value="ui-notebooks"]').isChecked(), 'the folder is mounted');
      await shot(p, 'launcher');
      if (!env.jupyter) {
        note('no jupyter image: the notebook is not opened in a session here');
        return;
      }
      await p.getByLabel('Session name').fill('ui-import');
      const image = p.getByLabel('Image');
      assert.match(await image.inputValue(), /jupyter/, 'a Jupyter image is chosen');
      await p.getByLabel('Memory', { exact: true }).fill('1g');
      await p.getByRole('button', { name: 'Launch' }).click();
      await p.waitForURL(/\/sessions\/[0-9a-f-]{36}\?open=/);
      await p.locator('h1 .status', { hasText: 'Running' }).waitFor({ timeout: 90000 });
      const link = p.locator('a[data-notebook-link]');
      await link.waitFor({ timeout: 60000 });
      assert.match(decodeURIComponent(await link.getAttribute('href')), /\/notebooks\/ui-notebooks\/welcome\.ipynb$/);
      await shot(p, 'session-notebook-link');
      const [tab] = await Promise.all([context.waitForEvent('page'), link.click()]);
      await tab.waitForLoadState('domcontentloaded');
      // The notebook's first page sometimes never renders its cells (one
      // run in five here, 2026-11-26; the cause is not found yet: the file
      // is in the folder and the route open); a person reloads it. Said and
      // shot, so that it is seen.
      const heading = tab.getByRole('heading', { name: 'Imported by Backplane' });
      try {
        await heading.waitFor({ timeout: 30000 });
      } catch (err) {
        note('the notebook rendered its cells only after a reload of the page; it waited on:');
        pending();
        await shot(tab, 'jupyter-before-reload');
        await tab.reload();
        await heading.waitFor({ timeout: 60000 });
      }
      await shot(tab, 'jupyter-notebook');
      p.once('dialog', (d) => d.accept());
      await p.getByRole('button', { name: 'Terminate' }).click();
      await p.locator('h1 .status', { hasText: 'Terminated' }).waitFor({ timeout: 60000 });
    },
  ],
  [
    'import a repository archive into a new folder',
    async ({ env, login, shot, assert }) => {
      const port = await serve();
      const { page: p } = await login(env.user);
      await p.goto(env.web + '/import');
      await p.getByLabel('Repository URL').fill(`http://127.0.0.1:${port}/demo-main.zip`);
      assert.equal(await p.locator('input[name="repo-folder"]').inputValue(), 'demo-main');
      await p.locator('input[name="repo-folder"]').fill('ui-repo');
      await p.getByRole('button', { name: 'Import into a new folder' }).click();
      await p.locator('[data-import-result="done"]').waitFor({ timeout: 30000 });
      await p.getByText('entries unpacked').waitFor();
      await shot(p, 'repository-done');
      await p.getByRole('link', { name: 'Open the folder ui-repo' }).click();
      await p.getByRole('link', { name: 'demo-main' }).click();
      await p.getByText('README.md').waitFor();
      await p.getByText('src', { exact: true }).waitFor();
      await shot(p, 'repository-explorer');
    },
  ],
  [
    'an archive with ../evil fails with the reason',
    async ({ env, login, shot }) => {
      const port = await serve();
      const { page: p } = await login(env.user);
      await p.goto(env.web + '/import');
      await p.getByLabel('Repository URL').fill(`http://127.0.0.1:${port}/evil.zip`);
      await p.locator('input[name="repo-folder"]').fill('ui-evil');
      await p.getByRole('button', { name: 'Import into a new folder' }).click();
      await p.locator('[data-import-result="failed"]').waitFor({ timeout: 30000 });
      await p.getByText('refused archive').waitFor();
      await shot(p, 'repository-refused');
      server.close();
      server = null;
    },
  ],
  [
    'import a git repository from a loopback URL and run it',
    async ({ env, login, shot, assert }) => {
      const port = await serveGit();
      const { page: p } = await login(env.user);
      try {
        await p.goto(env.web + '/import');
        await p.getByLabel('Repository URL').fill(`http://127.0.0.1:${port}/demo.git`);
        // A .git URL is cloned with git; the folder is named after it.
        assert.ok(await p.getByLabel('Clone with git').isChecked(), 'a .git URL is cloned with git');
        assert.equal(await p.locator('input[name="repo-folder"]').inputValue(), 'demo');
        await p.locator('input[name="repo-folder"]').fill('ui-git');
        await shot(p, 'git-form');
        await p.getByRole('button', { name: 'Import into a new folder' }).click();
        await p.locator('[data-import-result="done"]').waitFor({ timeout: 30000 });
        await p.getByText(/cloned main at [0-9a-f]{7}: 3 files/).waitFor();
        await shot(p, 'git-done');
        await p.getByRole('link', { name: 'Open the folder ui-git' }).click();
        await p.getByRole('link', { name: 'demo' }).click();
        await p.getByText('main.py').waitFor();
        await p.getByText('run.sh').waitFor();
        await p.getByText('lib', { exact: true }).waitFor();
        await shot(p, 'git-explorer');
        // A batch session with the folder mounted runs the clone's files.
        await p.goto(env.web + '/sessions/new?type=batch&mount=ui-git');
        assert.ok(await p.locator('input[name="mount"][value="ui-git"]').isChecked(), 'the folder is mounted');
        await p.getByLabel('Session name').fill('ui-git-run');
        const image = p.getByLabel('Image');
        await image.selectOption(await image.locator('option', { hasText: 'busybox' }).first().getAttribute('value'));
        await p.getByLabel('Memory', { exact: true }).fill('128m');
        await p.getByLabel('Command').fill("sh -c 'cat /home/work/ui-git/demo/main.py; /home/work/ui-git/demo/run.sh; sleep 300'");
        await p.getByRole('button', { name: 'Launch' }).click();
        await p.waitForURL(/\/sessions\/[0-9a-f-]{36}/);
        await p.locator('h1 .status', { hasText: 'Running' }).waitFor({ timeout: 90000 });
        await p.getByRole('button', { name: 'Show logs' }).click();
        const logs = p.locator('pre.logs');
        for (let i = 0; i < 20 && !/hello from git[\s\S]*run/.test((await logs.textContent()) || ''); i++) {
          await new Promise((r) => setTimeout(r, 1000));
          await p.getByRole('button', { name: 'Refresh' }).click();
        }
        assert.match(await logs.textContent(), /print\("hello from git"\)\s+run/, 'the session read main.py and ran run.sh');
        await shot(p, 'git-session');
        p.once('dialog', (d) => d.accept());
        await p.getByRole('button', { name: 'Terminate' }).click();
        await p.locator('h1 .status', { hasText: 'Terminated' }).waitFor({ timeout: 60000 });
      } finally {
        gitServer.close();
        gitServer = null;
        fs.rmSync(gitDir, { recursive: true, force: true });
      }
    },
  ],
];
