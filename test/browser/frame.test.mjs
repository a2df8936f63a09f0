// frame - logging in and out, what a first load costs, the menu by role (and the
// 403 of pages a role may not use), the language switch, the gateway's words
// on a failed login, and hostile text shown as text.

import fs from 'node:fs';
import path from 'node:path';

export const tests = [
  [
    'first load: the login page, its size and time',
    async ({ env, page, shot, note, assert }) => {
      const p = await page();
      const started = Date.now();
      await p.goto(env.web + '/');
      await p.getByLabel('Email').waitFor();
      const interactive = Date.now() - started;
      const timing = await p.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const js = performance
          .getEntriesByType('resource')
          .filter((r) => r.name.endsWith('.js'))
          .reduce((sum, r) => sum + r.transferSize, 0);
        return { domContentLoaded: Math.round(nav.domContentLoadedEventEnd), js };
      });
      const sizes = JSON.parse(fs.readFileSync(path.join(env.ui, 'sizes.json'), 'utf8'));
      note(
        `first load: login form interactive in ${interactive} ms (DOMContentLoaded ${timing.domContentLoaded} ms), ` +
          `${timing.js} bytes of JavaScript over the wire, ${sizes.first_load.js_gzip} bytes compressed in the build`,
      );
      assert.ok(sizes.first_load.js_gzip < 300 * 1024, 'the first load stays under 300 KB of compressed JavaScript');
      await shot(p, 'login');
    },
  ],
  [
    'a wrong password is refused with the gateway\'s words',
    async ({ env, page, shot }) => {
      const p = await page();
      await p.goto(env.web + '/');
      await p.getByLabel('Email').fill(env.user);
      await p.getByLabel('Password').fill('not-the-password');
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.getByRole('alert').getByText('User credential mismatch.').waitFor();
      await shot(p, 'login-refused');
    },
  ],
  [
    'log in and out',
    async ({ env, login, shot, assert }) => {
      const { page: p } = await login(env.user);
      await p.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await p.getByRole('button', { name: env.user }).waitFor();
      await shot(p, 'dashboard');
      await p.getByRole('button', { name: env.user }).click();
      await p.getByRole('menuitem', { name: 'Log out' }).click();
      await p.getByRole('button', { name: 'Log in' }).waitFor();
      // The cookie is gone: a reload shows the login again.
      await p.reload();
      await p.getByRole('button', { name: 'Log in' }).waitFor();
      const check = await p.evaluate(() => fetch('/server/login-check').then((r) => r.json()));
      assert.equal(check.authenticated, false);
    },
  ],
  [
    'log in with an access key and its secret key',
    async ({ env, login, page, shot, api, assert }) => {
      const me = await login(env.user);
      const keys = await api(me.page, 'POST', '/admin/gql', { query: 'query { keypair { access_key secret_key } }' });
      const { access_key, secret_key } = keys.body.data.keypair;
      assert.ok(access_key && secret_key, 'the user reads their own keypair');
      const p = await page();
      await p.goto(env.web + '/');
      await p.getByRole('button', { name: 'Use an access key instead' }).click();
      await p.getByLabel('Access key').fill(access_key);
      await p.getByLabel('Secret key').fill(secret_key.slice(0, -1) + (secret_key.endsWith('x') ? 'y' : 'x'));
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.getByRole('alert').getByText('User credential mismatch.').waitFor();
      await p.getByLabel('Secret key').fill(secret_key);
      await shot(p, 'keypair-login');
      await p.getByRole('button', { name: 'Log in' }).click();
      await p.getByRole('button', { name: env.user }).waitFor();
    },
  ],
  [
    'a forged or expired cookie shows the login, not a page',
    async ({ env, page, assert }) => {
      const p = await page();
      await p.context().addCookies([{ name: 'backplane_session', value: 'f'.repeat(64), url: env.web }]);
      await p.goto(env.web + '/sessions');
      await p.getByRole('button', { name: 'Log in' }).waitFor();
      const status = await p.evaluate(() => fetch('/func/folders').then((r) => r.status));
      assert.equal(status, 401);
    },
  ],
  [
    'the gateway lost while a page is open: the page says so and recovers by itself',
    async ({ env, login, shot }) => {
      const { context, page: p } = await login(env.user);
      await p.locator('nav.side').getByRole('link', { name: 'Sessions' }).click();
      await p.getByRole('heading', { name: 'Sessions' }).waitFor();
      await context.setOffline(true);
      await p.getByRole('tab', { name: 'Finished' }).click();
      await p.locator('.banner').getByText('The gateway cannot be reached').waitFor();
      await shot(p, 'unreachable');
      await context.setOffline(false);
      // No click, no reload: the banner goes away and the list comes back.
      await p.locator('.banner').waitFor({ state: 'detached', timeout: 20000 });
      await p.getByRole('tab', { name: 'All' }).click();
      await p.locator('table.sessions, p.empty').first().waitFor();
    },
  ],
  [
    'a plain user sees no admin pages, and their routes answer 403',
    async ({ env, login, shot, assert }) => {
      const { page: p } = await login(env.user);
      const nav = p.locator('nav.side');
      await nav.getByRole('link', { name: 'Sessions' }).waitFor();
      assert.equal(await nav.getByText('Administration').count(), 0);
      for (const route of ['/admin/users', '/system/information']) {
        const response = await p.goto(env.web + route);
        assert.equal(response.status(), 403, route);
        await p.getByRole('heading', { name: 'Not allowed' }).waitFor();
      }
      await shot(p, 'forbidden');
      const gql = await p.evaluate(() =>
        fetch('/func/admin/gql', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ query: 'mutation { create_domain(name: "x", props: {}) { ok msg } }' }),
        }).then((r) => r.json()),
      );
      const made = gql.data && gql.data.create_domain && gql.data.create_domain.ok;
      assert.ok(!made && (gql.errors || gql.data), `the API refuses an administrator's mutation too: ${JSON.stringify(gql)}`);
    },
  ],
  [
    'the language switch changes the words, and is kept',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.user);
      await p.getByLabel('Language').first().selectOption('ko');
      await p.locator('nav.side').getByRole('link', { name: '세션' }).waitFor();
      await shot(p, 'korean');
      await p.reload();
      await p.locator('nav.side').getByRole('link', { name: '세션' }).waitFor();
      await p.getByLabel('언어').first().selectOption('en');
      await p.locator('nav.side').getByRole('link', { name: 'Sessions' }).waitFor();
    },
  ],
  [
    'a script in an announcement and in a session name is shown as text, never run',
    async ({ env, login, shot, api, assert }) => {
      const hostile = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
      const admin = await login(env.super);
      const set = await api(admin.page, 'POST', '/manager/announcement', { enabled: true, message: hostile });
      assert.ok(set.status < 300, `announcement: ${set.status} ${set.text}`);
      const { page: p } = await login(env.user);
      await p.getByText(hostile, { exact: true }).waitFor();
      await p.goto(env.web + '/sessions/new');
      await p.getByLabel('Session name').fill(hostile);
      await p.getByRole('button', { name: 'Launch' }).click();
      await p.getByRole('alert').getByText(hostile, { exact: false }).waitFor();
      await shot(p, 'hostile-text');
      assert.equal(await p.evaluate(() => window.__pwned), undefined);
      await api(admin.page, 'POST', '/manager/announcement', { enabled: false, message: '' });
    },
  ],
];
