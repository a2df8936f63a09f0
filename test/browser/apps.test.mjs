// apps - a session's apps opened from its page, through the wsproxy as Backend.AI's
// web UI opens them (start-service, then the wsproxy's add, then the app at the
// root of its own port): Jupyter in a jupyter-image session, the web terminal in a
// busybox one.

async function launch(p, env, name, imageText, mem) {
  await p.goto(env.web + '/sessions/new');
  await p.getByLabel('Session name').fill(name);
  const image = p.getByLabel('Image');
  await image.selectOption(await image.locator('option', { hasText: imageText }).first().getAttribute('value'));
  await p.getByLabel('Memory', { exact: true }).fill(mem);
  await p.getByRole('button', { name: 'Launch' }).click();
  await p.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
  await p.locator('h1 .status', { hasText: 'Running' }).waitFor({ timeout: 90000 });
}

// Clicks the app's button and returns the tab it opened, once loaded.
async function openApp(context, p, app) {
  const [tab] = await Promise.all([context.waitForEvent('page'), p.locator(`button[data-app="${app}"]`).click()]);
  await tab.waitForURL((url) => url.protocol === 'http:' && !url.pathname.startsWith('/__wsproxy'), { timeout: 60000 });
  await tab.waitForLoadState('domcontentloaded');
  return tab;
}

export const tests = [
  [
    'open the Jupyter app of a Jupyter-image session',
    async ({ env, login, shot, skip, assert, note, pending }) => {
      if (!env.jupyter) skip('no jupyter image on this machine');
      const { context, page: p } = await login(env.user);
      await launch(p, env, 'ui-notebook', 'jupyter', '1g');
      await p.locator('button[data-app="jupyter"]').waitFor();
      await shot(p, 'session-apps');
      const tab = await openApp(context, p, 'jupyter');
      assert.notEqual(new URL(tab.url()).host, new URL(env.web).host, 'the app is served by the wsproxy, not the web listener');
      // Jupyter's own file browser, with its kernels' "New" menu. Its first
      // page once stayed hidden (its scripts never showed it) in a CI run
      // (2026-11-26, not seen in 77 tries here): a person reloads it. Said,
      // with what it waited on, and shot.
      const browser = tab.locator('#notebook_list, #filelist, .jp-DirListing, #ipython-main-app').first();
      try {
        await browser.waitFor({ timeout: 30000 });
      } catch (err) {
        note('the Jupyter page showed itself only after a reload; it waited on:');
        pending();
        await shot(tab, 'jupyter-before-reload');
        await tab.reload();
        await browser.waitFor({ timeout: 60000 });
      }
      await shot(tab, 'jupyter');
      p.once('dialog', (d) => d.accept());
      await p.getByRole('button', { name: 'Terminate' }).click();
      await p.locator('h1 .status', { hasText: 'Terminated' }).waitFor({ timeout: 60000 });
    },
  ],
  [
    'open the web terminal app of a busybox session',
    async ({ env, login, shot }) => {
      const { context, page: p } = await login(env.user);
      await launch(p, env, 'ui-ttyd', 'busybox', '128m');
      const tab = await openApp(context, p, 'ttyd');
      await tab.locator('.xterm-screen').waitFor();
      await tab.locator('.xterm-rows').getByText('$', { exact: false }).first().waitFor();
      await tab.locator('.xterm-screen').click();
      await tab.keyboard.type('echo app-$((6*7))\n');
      await tab.locator('.xterm-rows').getByText('app-42', { exact: true }).waitFor();
      await shot(tab, 'ttyd');
      p.once('dialog', (d) => d.accept());
      await p.getByRole('button', { name: 'Terminate' }).click();
      await p.locator('h1 .status', { hasText: 'Terminated' }).waitFor({ timeout: 60000 });
    },
  ],
];
