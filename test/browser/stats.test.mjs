// stats - Statistics (charts of my usage after a short session, the period
// switch, the table of the same numbers), the Agent summary (the test agent
// with its bars), and a superadmin's Information (every service healthy),
// Maintenance (recalculate usage, rescan images to the end) and Configurations
// (the resource slots, an announcement that the dashboard then shows).

import fs from 'node:fs';

// The busybox image as the catalogue names it.
async function busybox(api, page) {
  const images = await api(page, 'POST', '/admin/gql', { query: 'query { images(is_installed: true) { registry name tag } }' });
  const img = images.body.data.images.find((i) => i.name.includes('busybox'));
  return `${img.registry}/${img.name}:${img.tag}`;
}

// Polls fn until it returns something truthy (a session's end, a figure).
async function until(fn, what, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error('gave up waiting for ' + what);
    await new Promise((r) => setTimeout(r, 500));
  }
}

export const tests = [
  [
    'usage of a short session shows in the charts, by period, and as a table',
    async ({ env, login, api, shot, assert }) => {
      const { page: p } = await login(env.user);
      // Usage first: a busybox session that runs a moment and ends.
      const created = await api(p, 'POST', '/session', {
        name: 'stats-usage',
        image: await busybox(api, p),
        config: { resources: { cpu: 1, mem: '128m' } },
        enqueueOnly: true,
      });
      assert.equal(created.status, 201, `create: ${created.text}`);
      const state = (q) => api(p, 'POST', '/admin/gql', { query: q }).then((r) => r.body.data.compute_session_list.items);
      const list = (status) =>
        state(`query { compute_session_list(limit: 10, offset: 0, status: "${status}", filter: "name == \\"stats-usage\\"") { items { id status } } }`);
      await until(async () => (await list('RUNNING')).length, 'stats-usage to run');
      const killed = await api(p, 'DELETE', '/session/stats-usage');
      assert.ok(killed.status < 300, `destroy: ${killed.status} ${killed.text}`);
      await until(async () => (await list('TERMINATED')).length, 'stats-usage to end');

      await p.locator('nav.side').getByRole('link', { name: 'Statistics' }).click();
      await p.getByRole('heading', { name: 'Statistics' }).waitFor();
      const sessions = p.locator('figure.chart', { has: p.locator('figcaption', { hasText: 'Sessions' }) });
      await sessions.locator('canvas').waitFor();
      const plot = sessions.locator('.chart-plot');
      assert.equal(await plot.getAttribute('data-points'), '96', 'a day in 15-minute steps');
      assert.ok(Number(await plot.getAttribute('data-max')) >= 1, 'the session shows in the day chart');
      const cpu = p.locator('figure.chart', { has: p.locator('figcaption', { hasText: 'CPU' }) }).locator('.chart-plot');
      assert.ok(Number(await cpu.getAttribute('data-max')) >= 1, 'its core shows in the CPU chart');
      // The same numbers as a table: a row with the session and its core.
      await p.getByText('The numbers as a table').click();
      // (Steps with only disk I/O are rows too: look for the session's.)
      await p.locator('table.stats-table tbody tr').first().waitFor();
      const rows = await p.locator('table.stats-table tbody tr').evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
      assert.ok(
        rows.some((cells) => Number(cells[0]) >= 1 && Number(cells[1]) >= 1),
        `a row with the session and its core: ${rows.map((r) => r.join(' | ')).join('; ')}`,
      );
      await shot(p, 'statistics-day');

      await p.getByRole('tab', { name: 'Week' }).click();
      await p.getByRole('tab', { name: 'Week', selected: true }).waitFor();
      // A week in hours: 168 of them, or 169 where the first and the last are
      // parts of hours; a month in 6 hours, 120 or 121.
      const points = async () => Number(await plot.getAttribute('data-points'));
      await until(async () => [168, 169].includes(await points()), 'a week in hours', 10000);
      assert.ok(Number(await plot.getAttribute('data-max')) >= 1, 'the session shows in the week chart');
      await p.getByRole('tab', { name: 'Month' }).click();
      await until(async () => [120, 121].includes(await points()), 'a month in 6 hours', 10000);
      assert.ok(Number(await plot.getAttribute('data-max')) >= 1, 'the session shows in the month chart');
      await shot(p, 'statistics-month');
      // On a phone the charts take the width, one under the other.
      await p.setViewportSize({ width: 390, height: 844 });
      await p.waitForFunction(() => {
        const c = document.querySelector('figure.chart canvas');
        return c && c.getBoundingClientRect().width < 390;
      });
      await shot(p, 'statistics-phone');
    },
  ],
  [
    'a superadmin sees every user\'s usage, and the period\'s usage per project and per user',
    async ({ env, login, shot, assert }) => {
      const { page: p } = await login(env.super);
      await p.locator('nav.side').getByRole('link', { name: 'Statistics' }).click();
      await p.getByLabel('Usage of').selectOption({ label: 'Every user' });
      const sessions = p
        .locator('figure.chart', { has: p.locator('figcaption', { hasText: 'Sessions' }) })
        .locator('.chart-plot');
      await sessions.locator('canvas').waitFor();
      // The chart redraws when everyone's figures arrive: wait for them.
      await p.waitForFunction((el) => Number(el.getAttribute('data-max')) >= 1, await sessions.elementHandle(), { timeout: 15000 });
      const total = p.locator('table.usage-table tr.total');
      await total.waitFor();
      await p.waitForFunction((el) => Number(el.querySelector('td').textContent) >= 1, await total.elementHandle(), { timeout: 15000 });
      await p.getByLabel('Summed by').selectOption({ label: 'User' });
      await p.locator('table.usage-table tbody th', { hasText: env.user }).waitFor();
      await shot(p, 'statistics-everyone');
      // The same summary as CSV, with the user's row.
      const [download] = await Promise.all([p.waitForEvent('download'), p.getByRole('link', { name: 'Download CSV' }).click()]);
      const csv = fs.readFileSync(await download.path(), 'utf8');
      assert.ok(csv.startsWith('key,name,domain_name,kernels,sessions,'), csv.slice(0, 80));
      assert.ok(csv.includes(env.user), 'the user is in the CSV');
    },
  ],
  [
    'the agent summary shows the test agent with its bars',
    async ({ env, login, api, shot, assert }) => {
      const admin = await login(env.super);
      const agents = await api(admin.page, 'POST', '/admin/gql', { query: 'query { agents(status: "ALIVE") { id } }' });
      const id = agents.body.data.agents[0].id;
      const { page: p } = await login(env.user);
      await p.locator('nav.side').getByRole('link', { name: 'Agent summary' }).click();
      const row = p.locator(`[data-agent="${id}"]`);
      await row.waitFor();
      await row.locator('.status', { hasText: 'Alive' }).waitFor();
      const meters = row.getByRole('meter');
      assert.ok((await meters.count()) >= 2, 'a bar for CPU and one for memory at least');
      await row.getByRole('meter', { name: 'CPU' }).waitFor();
      await row.getByRole('meter', { name: 'Memory' }).waitFor();
      await shot(p, 'agents');
      await p.setViewportSize({ width: 390, height: 844 });
      await shot(p, 'agents-phone');
      // The superadmin's view adds the agent's live figures.
      await admin.page.goto(env.web + '/agents');
      await admin.page.locator(`[data-agent="${id}"]`).getByText(/CPU: [0-9.]+ cores busy/).waitFor();
      await shot(admin.page, 'agents-superadmin');
    },
  ],
  [
    'information: versions, every service healthy, the licence and the build',
    async ({ env, login, shot, assert }) => {
      const { page: p } = await login(env.super);
      await p.locator('nav.side').getByRole('link', { name: 'Information' }).click();
      await p.getByRole('heading', { name: 'Services' }).waitFor();
      await p.getByText('Every service is up.').waitFor();
      const rows = p.locator('table.health tbody tr');
      const count = await rows.count();
      for (const service of ['gateway', 'scheduler', 'agent', 'accounting', 'storage-proxy', 'wsproxy'])
        assert.ok((await p.locator(`tr[data-service="${service}"]`).count()) >= 1, `${service} is listed`);
      for (let i = 0; i < count; i++) assert.equal((await rows.nth(i).locator('.status').textContent()).trim(), 'OK');
      await p.getByText('Apache-2.0', { exact: false }).waitFor();
      await p.getByText('First load: JavaScript (compressed)').waitFor();
      await p.getByText('v6.20220315').waitFor();
      await shot(p, 'information');
    },
  ],
  [
    'maintenance: recalculate usage, and rescan images to the end',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.super);
      await p.locator('nav.side').getByRole('link', { name: 'Maintenance' }).click();
      await p.getByRole('button', { name: 'Recalculate usage' }).click();
      await p.getByText(/Usage recalculated at/).waitFor({ timeout: 60000 });
      await p.getByRole('button', { name: 'Rescan images' }).click();
      await p.getByText(/Rescan finished: rescanned \d+ agents/).waitFor({ timeout: 60000 });
      await p.getByText(/\d+ of \d+ agents answered/).waitFor();
      await shot(p, 'maintenance');
    },
  ],
  [
    'configurations: the resource slots, and an announcement the dashboard shows',
    async ({ env, login, api, shot, assert }) => {
      const { page: p } = await login(env.super);
      await p.locator('nav.side').getByRole('link', { name: 'Configurations' }).click();
      await p.locator('tr[data-slot="cpu"]').waitFor();
      await p.locator('tr[data-slot="mem"]').waitFor();
      await p.getByRole('checkbox', { name: 'Show an announcement on every dashboard' }).check();
      const message = 'stats: maintenance on Sunday, 10:00 UTC';
      await p.getByLabel('Message').fill(message);
      await p.getByRole('button', { name: 'Save' }).click();
      await p.getByText('Announcement saved.').waitFor();
      // Freezing and unfreezing the platform (it refuses new sessions between).
      p.once('dialog', (d) => d.accept());
      await p.getByRole('button', { name: 'Freeze' }).click();
      try {
        await p.locator('[data-manager-status="frozen"]').waitFor();
      } finally {
        await p.getByRole('button', { name: 'Unfreeze' }).click();
      }
      await p.locator('[data-manager-status="running"]').waitFor();
      await shot(p, 'configurations');

      const user = await login(env.user);
      await user.page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await user.page.locator('.announcement').getByText(message).waitFor();
      await shot(user.page, 'announcement');

      await p.getByRole('checkbox', { name: 'Show an announcement on every dashboard' }).uncheck();
      await p.getByRole('button', { name: 'Save' }).click();
      await p.getByText('Announcement saved.').waitFor();
      const off = await api(p, 'GET', '/manager/announcement');
      assert.equal(off.body.enabled, false);
    },
  ],
];
