// sessions - the launcher starts a busybox session that turns RUNNING in the list
// and on its page without a reload (also when the page's event stream opens only
// after the session started), its terminal runs a command, it ends from the list;
// and the list of 1,000 sessions, timed as it renders.

export const tests = [
  [
    'launch a busybox session and see it turn RUNNING without a reload',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.user);
      await p.locator('nav.side').getByRole('link', { name: 'Sessions' }).click();
      await p.getByRole('link', { name: 'Start a session' }).click();
      await p.getByLabel('Session name').fill('ui-first');
      const image = p.getByLabel('Image');
      await image.selectOption(await image.locator('option', { hasText: 'busybox' }).first().getAttribute('value'));

      await p.getByLabel('Memory', { exact: true }).fill('128m');
      await shot(p, 'launcher');
      await p.getByRole('button', { name: 'Launch' }).click();
      await p.waitForURL(/\/sessions\/[0-9a-f-]{36}$/);
      // Whatever it showed first, it shows Running without a reload.
      await p.locator('h1 .status', { hasText: 'Running' }).waitFor({ timeout: 60000 });
      await shot(p, 'running');
      await p.locator('nav.side').getByRole('link', { name: 'Sessions' }).click();
      await p.locator('tr[data-session="ui-first"] .status', { hasText: 'Running' }).waitFor();
      await shot(p, 'list');
    },
  ],
  [
    'the list follows a session started elsewhere, live',
    async ({ env, login, api, shot }) => {
      const { page: p } = await login(env.user);
      await p.goto(env.web + '/sessions');
      await p.locator('tr[data-session="ui-first"]').waitFor();
      const images = await api(p, 'POST', '/admin/gql', { query: 'query { images(is_installed: true) { registry name tag } }' });
      const img = images.body.data.images.find((i) => i.name.includes('busybox'));
      const created = await api(p, 'POST', '/session', {
        name: 'ui-second',
        image: `${img.registry}/${img.name}:${img.tag}`,
        config: { resources: { cpu: 1, mem: '128m' } },
        enqueueOnly: true,
      });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
      await p.locator('tr[data-session="ui-second"] .status', { hasText: 'Running' }).waitFor({ timeout: 60000 });
      await shot(p, 'live');
      p.once('dialog', (d) => d.accept());
      await p.locator('tr[data-session="ui-second"]').getByRole('button', { name: 'Terminate' }).click();
      await p.locator('tr[data-session="ui-second"]').waitFor({ state: 'detached', timeout: 60000 });
    },
  ],
  [
    'a session page shows Running though its event stream opened after the start',
    async ({ env, login, api, shot }) => {
      const { page: p } = await login(env.user);
      await p.goto(env.web + '/sessions');
      const images = await api(p, 'POST', '/admin/gql', { query: 'query { images(is_installed: true) { registry name tag } }' });
      const img = images.body.data.images.find((i) => i.name.includes('busybox'));
      // A batch session that may start only 3 s from now, so the page finds it
      // PENDING; the page's stream answers only 8 s late, so its
      // session_started goes by before the page listens.
      await p.route('**/func/events/session*', async (route) => {
        await new Promise((r) => setTimeout(r, 8000));
        await route.continue().catch(() => {});
      });
      const created = await api(p, 'POST', '/session', {
        name: 'ui-late-stream',
        image: `${img.registry}/${img.name}:${img.tag}`,
        type: 'batch',
        startupCommand: 'sleep 120',
        startsAt: '3s',
        config: { resources: { cpu: 1, mem: '128m' } },
        enqueueOnly: true,
      });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
      await p.goto(env.web + '/sessions/' + created.body.sessionId);
      await p.locator('h1 .status', { hasText: 'Pending' }).waitFor({ timeout: 3000 });
      await p.locator('h1 .status', { hasText: 'Running' }).waitFor({ timeout: 30000 });
      await shot(p, 'late-stream');
      await p.unroute('**/func/events/session*');
      const ended = await api(p, 'DELETE', '/session/ui-late-stream');
      if (ended.status !== 200 && ended.status !== 204) throw new Error(`destroy: ${ended.status} ${ended.text}`);
    },
  ],
  [
    'run a command in the terminal and read its output',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.user);
      await p.goto(env.web + '/sessions');
      await p.locator('tr[data-session="ui-first"]').getByRole('link', { name: 'Terminal' }).click();
      await p.locator('.xterm-screen').waitFor();
      await p.locator('h1 .status', { hasText: 'Running' }).waitFor();
      await p.locator('.xterm-rows').getByText('$', { exact: false }).first().waitFor();
      await p.locator('.xterm-screen').click();
      await p.keyboard.type('echo answer-$((6*7))\n');
      await p.locator('.xterm-rows').getByText('answer-42', { exact: true }).waitFor();
      await shot(p, 'terminal');
    },
  ],
  [
    'the session page shows its logs and ends it',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.user);
      await p.goto(env.web + '/sessions');
      await p.locator('tr[data-session="ui-first"]').getByRole('link', { name: 'ui-first' }).click();
      // Its usage, from accounting's live figures.
      await p.getByRole('heading', { name: 'Usage' }).waitFor({ timeout: 20000 });
      await p.getByRole('meter', { name: 'Memory' }).waitFor();
      await p.getByRole('button', { name: 'Show logs' }).click();
      await p.locator('pre.logs').waitFor();
      p.once('dialog', (d) => d.accept());
      await p.getByRole('button', { name: 'Terminate' }).click();
      await p.locator('h1 .status', { hasText: 'Terminated' }).waitFor({ timeout: 60000 });
      // The scheduler's history, in order, each with its time.
      const history = await p.locator('ol.history li .status').allInnerTexts();
      for (const s of ['Pending', 'Running', 'Terminating', 'Terminated'])
        if (!history.includes(s)) throw new Error(`no ${s} in the history: ${history.join(', ')}`);
      if (history.indexOf('Pending') > history.indexOf('Running') || history[history.length - 1] !== 'Terminated')
        throw new Error(`the history is out of order: ${history.join(', ')}`);
      await shot(p, 'terminated');
    },
  ],
  [
    'a list of 1,000 sessions renders (timed)',
    async ({ env, login, note, assert }) => {
      const { page: p } = await login(env.user);
      // The list's own rendering, measured on a made-up page of 1,000 sessions
      // that the browser answers for the gateway.
      const now = Date.now();
      const items = Array.from({ length: 1000 }, (_, i) => ({
        id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        name: `bulk-${i}`,
        type: 'INTERACTIVE',
        image: 'local.backplane/library/busybox:latest',
        status: i % 3 ? 'RUNNING' : 'PENDING',
        status_info: i % 3 ? '' : 'no-available-instances',
        created_at: new Date(now - i * 60000).toISOString(),
        terminated_at: null,
        occupied_slots: '{"cpu":"1","mem":"134217728"}',
        agent: 'agent-ui',
        access_key: 'AKIA',
        user_email: env.user,
      }));
      await p.route('**/func/admin/gql', async (route) => {
        const body = route.request().postDataJSON();
        if (!body.query.includes('compute_session_list')) return route.continue();
        await route.fulfill({ json: { data: { compute_session_list: { total_count: 1000, items } } } });
      });
      await p.evaluate(() => performance.mark('nav'));
      const started = Date.now();
      await p.locator('nav.side').getByRole('link', { name: 'Sessions' }).click();
      await p.locator('tr[data-session="bulk-999"]').waitFor();
      const ms = Date.now() - started;
      const render = await p.evaluate(() => {
        const m = performance.getEntriesByName('sessions:render');
        return m.length ? Math.round(m[m.length - 1].duration) : -1;
      });
      note(`the session list of 1,000 sessions: ${render} ms from its data to the page, ${ms} ms from the click to the last row`);
      assert.equal(await p.locator('table.sessions tbody tr').count(), 1000);
    },
  ],
];
