// envs - the environment and resource pages: My Environments and its link to
// the launcher, resource presets made, offered, changed and deleted, an image
// alias added and taken away, a resource group made, associated with the
// default domain and deleted, the agent with its slots, and a session that
// must wait, seen in the Scheduler's queue with its place and reason.
// Everything made here is named envs-* and removed before the test ends.

const BUSYBOX = 'tr[data-image$="/busybox:latest"]';

// Polls fn until it answers something truthy; that answer, or an error after ms.
async function until(what, fn, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function gql(api, page, query, variables) {
  const r = await api(page, 'POST', '/admin/gql', { query, variables });
  if (r.status !== 200 || !r.body || r.body.errors) throw new Error(`gql: ${r.status} ${r.text}`);
  return r.body.data;
}

async function sessionStatus(api, page, name) {
  const data = await gql(
    api,
    page,
    'query { compute_session_list(limit: 100, offset: 0, status: "PENDING,SCHEDULED,PREPARING,PULLING,PREPARED,CREATING,RUNNING,RESTARTING,RUNNING_DEGRADED,TERMINATING") { items { name status } } }',
  );
  const s = data.compute_session_list.items.find((x) => x.name === name);
  return s ? s.status : 'GONE';
}

export const tests = [
  [
    'My Environments lists busybox, and its Start link opens the launcher with it chosen',
    async ({ env, login, shot, api, assert }) => {
      const { page: p } = await login(env.user);
      await p.locator('nav.side').getByRole('link', { name: 'My Environments' }).click();
      await p.getByRole('heading', { name: 'My Environments' }).waitFor();
      const row = p.locator(BUSYBOX);
      await row.getByText('Yes').waitFor();
      const ref = await row.getAttribute('data-image');
      await shot(p, 'my-environments');

      await row.getByRole('link', { name: 'Start a session with busybox:latest' }).click();
      await p.waitForURL(/\/sessions\/new\?image=/);
      await p.getByRole('heading', { name: 'Start a session' }).waitFor();
      assert.equal(await p.getByLabel('Image').inputValue(), ref);
      await shot(p, 'launcher-with-busybox');

      // Another installed image, if the agent has one, is chosen the same way
      // (busybox may be first in the list anyway).
      const images = await gql(api, p, 'query { images(is_installed: true) { registry name tag } }');
      const other = images.images.find((i) => !i.name.endsWith('/busybox'));
      if (other) {
        const otherRef = `${other.registry}/${other.name}:${other.tag}`;
        await p.goto(env.web + '/environments');
        await p.locator(`tr[data-image="${otherRef}"]`).getByRole('link').click();
        await p.waitForURL(/\/sessions\/new\?image=/);
        await p.getByLabel('Image').waitFor();
        assert.equal(await p.getByLabel('Image').inputValue(), otherRef);
      }
      // An image no agent has is said so, not silently replaced.
      await p.goto(env.web + '/sessions/new?image=envs-no-such-image');
      await p.getByText('The image envs-no-such-image is not installed on any agent').waitFor();
    },
  ],
  [
    'a superadmin makes a resource preset, the launcher offers it, it is changed and deleted',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.super);
      const launcher = (await login(env.super)).page;
      await p.locator('nav.side').getByRole('link', { name: 'Environments', exact: true }).click();
      await p.getByRole('tab', { name: 'Resource presets' }).click();
      await p.getByRole('button', { name: 'New preset' }).click();
      let dialog = p.getByRole('dialog', { name: 'New preset' });
      await dialog.getByLabel('Name').fill('envs-small');
      await dialog.getByLabel('CPU', { exact: true }).fill('1');
      await dialog.getByLabel('Memory', { exact: true }).fill('256m');
      await dialog.getByLabel('Shared memory').fill('64m');
      await shot(p, 'preset-new');
      await dialog.getByRole('button', { name: 'Create' }).click();
      const row = p.locator('tr[data-preset="envs-small"]');
      await row.getByText('CPU 1 · Memory 256 MiB').waitFor();
      await shot(p, 'presets');

      await launcher.goto(env.web + '/sessions/new');
      const option = launcher.getByLabel('Resource preset').locator('option', { hasText: 'envs-small' });
      await option.waitFor({ state: 'attached' });
      await launcher.getByLabel('Resource preset').selectOption('envs-small');
      await shot(launcher, 'launcher-preset');

      await row.getByRole('button', { name: 'Edit envs-small' }).click();
      dialog = p.getByRole('dialog', { name: 'Edit envs-small' });
      await dialog.getByLabel('CPU', { exact: true }).fill('2');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await row.getByText('CPU 2 · Memory 256 MiB').waitFor();
      await launcher.reload();
      await launcher.getByLabel('Resource preset').locator('option', { hasText: /envs-small — CPU 2/ }).waitFor({ state: 'attached' });

      p.once('dialog', (d) => d.accept());
      await row.getByRole('button', { name: 'Delete envs-small' }).click();
      await row.waitFor({ state: 'detached' });
      await launcher.reload();
      await launcher.getByLabel('Resource preset').waitFor();
      if (await launcher.getByLabel('Resource preset').locator('option', { hasText: 'envs-small' }).count())
        throw new Error('the launcher still offers the deleted preset');
    },
  ],
  [
    'a superadmin gives busybox an alias, sees it listed, and takes it away',
    async ({ env, login, shot }) => {
      const { page: p } = await login(env.super);
      await p.goto(env.web + '/admin/environments');
      const row = p.locator(BUSYBOX);
      await row.getByRole('button', { name: 'Aliases of busybox:latest' }).click();
      const dialog = p.getByRole('dialog', { name: 'Aliases of busybox:latest' });
      await dialog.getByLabel('New alias').fill('envs-bb');
      await dialog.getByRole('button', { name: 'Add alias' }).click();
      await dialog.getByRole('button', { name: 'Remove alias envs-bb' }).waitFor();
      await shot(p, 'alias-dialog');
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await row.locator('code', { hasText: 'envs-bb' }).waitFor();
      await shot(p, 'alias-listed');

      await row.getByRole('button', { name: 'Aliases of busybox:latest' }).click();
      await dialog.getByRole('button', { name: 'Remove alias envs-bb' }).click();
      await dialog.getByRole('button', { name: 'Remove alias envs-bb' }).waitFor({ state: 'detached' });
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await row.locator('code', { hasText: 'envs-bb' }).waitFor({ state: 'detached' });
    },
  ],
  [
    'a superadmin makes a resource group, associates it with the default domain, and deletes it',
    async ({ env, login, shot, api, assert }) => {
      const { page: p } = await login(env.super);
      await p.locator('nav.side').getByRole('link', { name: 'Resources' }).click();
      await p.getByRole('tab', { name: 'Resource groups' }).click();
      await p.getByRole('button', { name: 'New resource group' }).click();
      const dialog = p.getByRole('dialog', { name: 'New resource group' });
      await dialog.getByLabel('Name').fill('envs-group');
      await dialog.getByLabel('Description').fill('made by the browser test');
      await dialog.getByLabel('Scheduler', { exact: true }).selectOption('lifo');
      await dialog.getByLabel('Agent selector').selectOption('dispersed');
      await shot(p, 'group-new');
      await dialog.getByRole('button', { name: 'Create' }).click();
      const row = p.locator('tr[data-group="envs-group"]');
      await row.getByText('made by the browser test').waitFor();
      await row.getByRole('cell', { name: 'lifo', exact: true }).waitFor();
      await row.getByRole('cell', { name: 'dispersed', exact: true }).waitFor();

      await row.getByRole('button', { name: 'Associations of envs-group' }).click();
      const links = p.getByRole('dialog', { name: 'Associations of envs-group' });
      await links.getByRole('group', { name: 'Domains' }).getByRole('checkbox', { name: 'default', exact: true }).check();
      await row.locator('td.domains', { hasText: 'default' }).waitFor();
      await shot(p, 'group-associations');
      await links.getByRole('button', { name: 'Close' }).first().click();
      await shot(p, 'groups');
      const usable = await gql(api, p, 'query { scaling_groups_for_domain(domain: "default") { name } }');
      assert.ok(usable.scaling_groups_for_domain.some((g) => g.name === 'envs-group'), 'associated with the domain');

      p.once('dialog', (d) => d.accept());
      await row.getByRole('button', { name: 'Delete envs-group' }).click();
      await row.waitFor({ state: 'detached' });
      const left = await gql(api, p, 'query { scaling_groups { name } }');
      assert.ok(!left.scaling_groups.some((g) => g.name === 'envs-group'), 'deleted');
    },
  ],
  [
    'Resources shows the test agent ALIVE with its slots, and the storage volumes',
    async ({ env, login, shot, assert }) => {
      const { page: p } = await login(env.super);
      await p.goto(env.web + '/system/resources');
      const row = p.locator('tr[data-agent="agent-ui"]');
      await row.locator('.status', { hasText: 'Alive' }).waitFor();
      const cpu = row.getByRole('meter', { name: 'CPU' });
      assert.equal(await cpu.getAttribute('aria-valuemax'), '2');
      await row.getByRole('meter', { name: 'Memory' }).waitFor();
      await shot(p, 'agents');
      await p.getByRole('tab', { name: 'Storage' }).click();
      await p.locator('tr[data-volume]').first().waitFor();
      await shot(p, 'storage');
    },
  ],
  [
    'the Scheduler shows a session that must wait, with its place and why, live',
    async ({ env, login, shot, api, assert, note }) => {
      const admin = await login(env.super);
      const { page: u } = await login(env.user);
      await admin.page.locator('nav.side').getByRole('link', { name: 'Scheduler' }).click();
      await admin.page.getByRole('heading', { name: 'Scheduler' }).waitFor();

      // The gateway refuses outright what no agent could ever hold (400), so
      // the agent is filled first: a session takes what is free, and the next
      // asks for all of its CPUs.
      const images = await gql(api, u, 'query { images(is_installed: true) { registry name tag } }');
      const bb = images.images.find((i) => i.name.endsWith('/busybox'));
      const image = `${bb.registry}/${bb.name}:${bb.tag}`;
      const agents = await gql(api, admin.page, 'query { agents { id available_slots occupied_slots } }');
      const agent = agents.agents.find((a) => a.id === 'agent-ui');
      const total = Number(JSON.parse(agent.available_slots).cpu);
      const free = total - Number(JSON.parse(agent.occupied_slots).cpu || 0);
      const tooBig = await api(u, 'POST', '/session', {
        name: 'envs-too-big',
        image,
        config: { resources: { cpu: total + 1, mem: '128m' } },
        enqueueOnly: true,
      });
      note(`a session asking for ${total + 1} cpus of an agent with ${total}: ${tooBig.status} ${tooBig.body && tooBig.body.msg}`);
      assert.equal(tooBig.status, 400);

      const started = [];
      try {
        if (free >= 1) {
          const filler = await api(u, 'POST', '/session', {
            name: 'envs-filler',
            image,
            config: { resources: { cpu: free, mem: '128m' } },
            enqueueOnly: true,
          });
          assert.equal(filler.status, 201, filler.text);
          started.push(filler.body.sessionId);
          await until('the filler to run', async () => (await sessionStatus(api, u, 'envs-filler')) === 'RUNNING');
        }
        const waiter = await api(u, 'POST', '/session', {
          name: 'envs-waiter',
          image,
          config: { resources: { cpu: total, mem: '128m' } },
          enqueueOnly: true,
        });
        assert.equal(waiter.status, 201, waiter.text);
        started.push(waiter.body.sessionId);

        // The page was open before the session existed: it comes by itself.
        const queue = admin.page.locator('[data-queue="default"]');
        const row = queue.locator('tr[data-session="envs-waiter"]');
        await row.waitFor();
        await row.getByText(env.user).waitFor();
        await row.getByText(`CPU ${total}`).waitFor();
        // The scheduler's reason comes with its first try.
        await row.locator('td.why', { hasText: 'no-available-instances' }).waitFor({ timeout: 60000 });
        const position = (await row.locator('td.position').textContent()).trim();
        assert.match(position, /^[1-9][0-9]*$/);
        note(`the waiting session is number ${position} in the default queue: ${(await row.locator('td.why').innerText()).replace(/\n/g, ' / ')}`);
        await shot(admin.page, 'scheduler');

        // Cancelled from the queue, it leaves the page without a reload.
        admin.page.once('dialog', (d) => d.accept());
        await row.getByRole('button', { name: 'Cancel envs-waiter' }).click();
        await row.waitFor({ state: 'detached', timeout: 60000 });
        await shot(admin.page, 'scheduler-after');
      } finally {
        for (const id of started) await api(u, 'DELETE', `/session/${id}`);
        await until('the sessions to end', async () => {
          const statuses = await Promise.all(['envs-filler', 'envs-waiter'].map((n) => sessionStatus(api, u, n)));
          return statuses.every((s) => s === 'GONE');
        });
      }
    },
  ],
];
