// run.mjs - the browser tests of Backplane's web UI: every test/browser/*.test.mjs
// (or those BROWSER_ONLY names, comma-separated) in Debian's Chromium, headless,
// driven by playwright-core. webui_test starts the platform and sets the
// environment (BACKPLANE_WEB, the people and their password, BACKPLANE_SHOTS);
// this prints one TAP line per test, and each test leaves a screenshot.
//
// A test file exports tests: [[name, async (ctx) => {...}], ...], run in order;
// a test throws to fail. ctx holds:
//   env          the addresses and people (web, super, user, other, password, ...)
//   login(email) a new browser context logged in through the login page: {context, page}
//   page()       a new, logged-out page in a context of its own
//   shot(page, name)   a screenshot into BACKPLANE_SHOTS/<file>-<name>.png
//   api(page, method, path, body)  a call to /func/<path> with the page's cookie
//   note(text)   a "# text" line in the output (figures for the closing notes)
//   skip(why)    ends the test as skipped here ("ok N - name # SKIP why")
// Contexts a test opened are closed after it, failed or not.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = {
  web: process.env.BACKPLANE_WEB,
  storage: process.env.BACKPLANE_STORAGE,
  wsproxy: process.env.BACKPLANE_WSPROXY,
  super: process.env.BACKPLANE_SUPER,
  user: process.env.BACKPLANE_USER,
  other: process.env.BACKPLANE_OTHER,
  password: process.env.BACKPLANE_PASSWORD,
  shots: process.env.BACKPLANE_SHOTS,
  ui: process.env.BACKPLANE_UI,
  jupyter: process.env.BACKPLANE_JUPYTER === '1',
};

class Skip extends Error {}
const TEST_MS = Number(process.env.BROWSER_TEST_MS || 120000);

const { chromium } = await import(pathToFileURL(path.join(process.env.PLAYWRIGHT_CORE, 'index.mjs')));
fs.mkdirSync(env.shots, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.BACKPLANE_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});

const only = (process.env.BROWSER_ONLY || '').split(',').filter(Boolean);
const files = fs
  .readdirSync(here)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => !only.length || only.some((o) => f.startsWith(o)))
  .sort();

// Ends every live session of every user, as the superadmin through the API.
async function endSessions() {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const call = (method, apiPath, body) =>
      page.evaluate(
        async ([m, p, b]) => {
          const init = { method: m, headers: { Accept: 'application/json', 'Content-Type': 'application/json' } };
          if (b !== undefined) init.body = JSON.stringify(b);
          const res = await fetch(p, init);
          return { status: res.status, body: await res.json().catch(() => null) };
        },
        [method, apiPath, body],
      );
    await page.goto(env.web + '/');
    const login = await call('POST', '/server/login', { username: env.super, password: env.password });
    if (login.status !== 200) throw new Error(`superadmin login: ${login.status}`);
    const list = await call('POST', '/func/admin/gql', {
      query:
        '{ compute_session_list(limit: 100, offset: 0, status: "PENDING,SCHEDULED,PREPARING,PULLING,RUNNING,RESTARTING")' +
        ' { items { session_id name access_key } } }',
    });
    const items = list.body?.data?.compute_session_list?.items || [];
    for (const s of items)
      await call('DELETE', `/func/session/${encodeURIComponent(s.name)}?forced=true&owner_access_key=${s.access_key}`);
    if (items.length) console.log(`# cleanup: ended ${items.length} session(s) the failed test left`);
  } finally {
    await context.close();
  }
}

let count = 0, failed = 0;
for (const file of files) {
  const { tests } = await import(pathToFileURL(path.join(here, file)));
  const prefix = file.replace(/\.test\.mjs$/, '');
  // This file's screenshots of an earlier run go, so what is there is this run's.
  for (const old of fs.readdirSync(env.shots)) if (old.startsWith(prefix + '-')) fs.rmSync(path.join(env.shots, old), { force: true });
  for (const [name, fn] of tests) {
    count++;
    const contexts = [];
    const newContext = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
      context.setDefaultTimeout(30000);
      // A tab that a page opens (an app through the wsproxy) is watched too.
      context.on('page', (page) => watch(page));
      contexts.push(context);
      return context;
    };
    const errors = [], appErrors = [];
    // What each page asked for and never got, or got as a failure: printed
    // when a test fails, so a stuck page says which request it waits on.
    const pending = new Map(), failures = [];
    const waiting = (indent) => {
      for (const [r, at] of pending) console.log(`#${indent}unanswered after ${Date.now() - at} ms: ${r.method()} ${r.url()}`);
      for (const f of failures) console.log(`#${indent}failed request: ${f}`);
    };
    const watch = (page) => {
      // A script error of our web UI fails the test; one of an app's own page
      // (Jupyter's) is only printed when the test fails.
      page.on('pageerror', (e) => {
        if (new URL(page.url()).host === new URL(env.web).host) errors.push(e.message);
        else appErrors.push(`${page.url()}: ${e.message}`);
      });
      page.on('console', (m) => {
        if (m.type() === 'error' && new URL(page.url()).host !== new URL(env.web).host) appErrors.push(`${page.url()}: console: ${m.text()}`);
      });
      page.on('request', (r) => pending.set(r, Date.now()));
      page.on('requestfinished', (r) => pending.delete(r));
      page.on('requestfailed', (r) => {
        pending.delete(r);
        failures.push(`${r.method()} ${r.url()}: ${r.failure() && r.failure().errorText}`);
      });
    };
    const ctx = {
      env,
      assert,
      note: (text) => console.log('# ' + String(text).replace(/\n/g, '\n# ')),
      // Prints what the test's pages wait on and what failed, so far.
      pending: () => waiting('   '),
      skip: (why) => {
        throw new Skip(why);
      },
      page: async () => {
        return (await newContext()).newPage();
      },
      login: async (email, options = {}) => {
        const context = await newContext();
        const page = await context.newPage();
        await page.goto(env.web + (options.path || '/'));
        // Twice in many runs the page stayed blank (its style sheet came, its
        // script never ran): what it waited on is printed, and one reload
        // follows, so that a page that never comes up still fails.
        if (!(await page.getByLabel('Email').waitFor({ timeout: 10000 }).then(() => true, () => false))) {
          console.log('# the login page did not come up in 10 s; reloading it once');
          waiting('   ');
          await page.reload();
        }
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(env.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.locator('nav.side').waitFor();
        return { context, page };
      },
      shot: (page, shotName) =>
        page.screenshot({ path: path.join(env.shots, `${prefix}-${shotName}.png`), fullPage: true }),
      api: (page, method, apiPath, body) =>
        page.evaluate(
          async ([m, p, b]) => {
            const init = { method: m, headers: { Accept: 'application/json' } };
            if (b !== undefined) {
              init.body = JSON.stringify(b);
              init.headers['Content-Type'] = 'application/json';
            }
            const res = await fetch('/func' + p, init);
            const text = await res.text();
            let json = null;
            try {
              json = JSON.parse(text);
            } catch (e) {
              json = null;
            }
            return { status: res.status, body: json, text };
          },
          [method, apiPath, body],
        ),
    };
    const started = Date.now();
    let error = null;
    try {
      await Promise.race([
        fn(ctx),
        new Promise((_, reject) => setTimeout(() => reject(new Error(`timed out after ${TEST_MS} ms`)), TEST_MS)),
      ]);
      if (errors.length) throw new Error('script errors on the page: ' + errors.join('; '));
    } catch (e) {
      error = e;
    }
    const ms = Date.now() - started;
    if (error instanceof Skip) console.log(`ok ${count} - ${prefix}: ${name} # SKIP ${error.message}`);
    else if (error) {
      failed++;
      // What the browser showed when it failed.
      for (const [i, context] of contexts.entries())
        for (const [j, page] of context.pages().entries())
          await page
            .screenshot({ path: path.join(env.shots, `${prefix}-FAILED-${count}-${i}-${j}.png`), fullPage: true })
            .catch(() => {});
      console.log(`not ok ${count} - ${prefix}: ${name} (${ms} ms)`);
      console.log('# ' + String(error.stack || error).replace(/\n/g, '\n# '));
      waiting(' ');
      for (const e of errors) console.log(`# script error on the page: ${e}`);
      for (const e of appErrors) console.log(`# script error on an app's page: ${e}`);
    } else console.log(`ok ${count} - ${prefix}: ${name} (${ms} ms)`);
    for (const context of contexts) await context.close().catch(() => {});
    // A test that failed half-way may leave sessions holding the test
    // agent's two cores: they end here, so that the tests after it are not
    // failed by its leftovers too.
    if (error && !(error instanceof Skip)) await endSessions().catch((e) => console.log(`# cleanup: ${e}`));
  }
}
await browser.close();
console.log(`1..${count}`);
process.exit(failed ? 1 : 0);
