// store - the Model Store page: the superadmin puts two model folders in the
// model-store project (one with metadata and a README that tries to inject
// HTML, one whose definition is not YAML, one with a README and no
// definition); a user finds them as cards (the list asks no README; a
// card's dialog asks its own), searches, opens a card (the README is
// rendered as text: no element of the file's own), clones it into a folder
// of hers and deploys it, which opens the Serving page's create dialog with
// the store's folder chosen. The card without a definition shows its README
// and why it cannot be deployed, with Deploy disabled.

const GOOD = 'store-llama';
const BROKEN = 'store-broken';
const BARE = 'store-bare';
const CLONE = 'my-store-llama';

const DEFINITION = `models:
  - name: tiny-llama
    model_path: /models
    service:
      start_command: ["python3", "-m", "http.server", "8000"]
      port: 8000
    metadata:
      author: Backplane
      title: Tiny Llama
      version: "0.1"
      description: A small chat model for the tests.
      task: text-generation
      category: LLM
      license: apache-2.0
      framework: [vllm]
      label: [chat, small]
      min_resource: {cpu: 1, mem: 1g}
`;

const README = `# Tiny Llama

A **small** model. See [the docs](https://example.com/docs) or [this](javascript:alert(1)).

<script>window.__pwned = true</script><img src=x onerror="window.__pwned = true">

- one
- two
`;

async function upload(api, p, env, folder, name, text) {
  const bytes = Buffer.from(text);
  const r = await api(p, 'POST', `/folders/${folder}/request-upload`, { path: name, size: bytes.length });
  if (r.status !== 200) throw new Error(`request-upload ${name}: ${r.status} ${r.text}`);
  const res = await fetch(`http://${env.storage}/upload?token=${encodeURIComponent(r.body.token)}`, {
    method: 'PATCH',
    headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    body: bytes,
  });
  if (res.status !== 204) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
}

export const tests = [
  [
    'the superadmin puts three model folders in the store',
    async ({ env, login, api, assert }) => {
      const { page: p } = await login(env.super);
      const groups = await api(p, 'POST', '/admin/gql', { query: '{ groups { id name } }' });
      const store = (groups.body.data.groups || []).find((g) => g.name === 'model-store');
      assert.ok(store, 'the gateway made the model-store project');
      for (const name of [GOOD, BROKEN, BARE]) {
        const made = await api(p, 'POST', '/folders', { name, usage_mode: 'model', group: store.id, cloneable: true });
        assert.equal(made.status, 201, made.text);
      }
      await upload(api, p, env, GOOD, 'model-definition.yaml', DEFINITION);
      await upload(api, p, env, GOOD, 'README.md', README);
      await upload(api, p, env, BROKEN, 'model-definition.yaml', 'models:\n  - name: [broken\n');
      await upload(api, p, env, BARE, 'README.txt', 'Notes without a definition.\n');
    },
  ],
  [
    'a user searches the store, opens a card and reads its README safely',
    async ({ env, login, shot, assert }) => {
      const { page: p } = await login(env.user);
      const asked = [];
      p.on('request', (r) => {
        const body = r.postData() || '';
        if (body.includes('model_card')) asked.push(body);
      });
      await p.locator('nav.side').getByRole('link', { name: 'Model Store' }).click();
      await p.getByRole('heading', { name: 'Model Store', exact: true }).waitFor();
      const good = p.locator(`article[data-card="tiny-llama"]`);
      await good.getByRole('button', { name: 'Tiny Llama' }).waitFor();
      await good.getByText('text-generation').waitFor();
      await good.getByText('apache-2.0').waitFor();
      await good.getByText('cpu 1 · mem 1g').waitFor();
      await p.locator(`article[data-card="${BROKEN}"]`).getByText("This model's definition cannot be read.").waitFor();
      await shot(p, 'cards');
      const lists = asked.filter((b) => b.includes('model_cards'));
      assert.ok(lists.length > 0, 'the page lists the cards');
      assert.ok(!lists.some((b) => b.includes('readme')), 'the list asks no README');

      await p.getByLabel('Search').fill('whisper');
      await p.getByText('No model matches "whisper".').waitFor();
      await p.getByLabel('Search').fill('llm chat');
      await good.waitFor();
      assert.equal(await p.locator(`article[data-card="${BROKEN}"]`).count(), 0, 'the search leaves out what does not match');
      await shot(p, 'search');

      await good.getByRole('button', { name: 'Tiny Llama' }).click();
      const dialog = p.getByRole('dialog', { name: 'Tiny Llama' });
      await dialog.locator('.readme h3', { hasText: 'Tiny Llama' }).waitFor();
      await dialog.locator('.readme strong', { hasText: 'small' }).waitFor();
      await dialog.locator('.readme li', { hasText: 'two' }).waitFor();
      assert.ok(
        asked.some((b) => b.includes('model_card(') && b.includes('readme')),
        "the dialog asks the card's README",
      );
      // The file's HTML is text: shown, never made into elements.
      await dialog.locator('.readme').getByText('<script>window.__pwned = true</script>', { exact: false }).waitFor();
      assert.equal(await dialog.locator('.readme script, .readme img').count(), 0, 'no element from the README');
      assert.equal(await p.evaluate(() => window.__pwned), undefined, 'nothing of the README ran');
      assert.equal(await dialog.locator('.readme a').count(), 1, 'only the http(s) link is a link');
      assert.equal(await dialog.locator('.readme a').getAttribute('href'), 'https://example.com/docs');
      await dialog.getByText('Backplane', { exact: true }).waitFor();
      await shot(p, 'card');
    },
  ],
  [
    'the user clones a card into her folders and deploys it',
    async ({ env, login, shot, api, assert }) => {
      const { page: p } = await login(env.user);
      await p.goto(env.web + '/model-store');
      await p.locator('article[data-card="tiny-llama"]').getByRole('button', { name: 'Tiny Llama' }).click();
      const dialog = p.getByRole('dialog', { name: 'Tiny Llama' });
      await dialog.getByRole('button', { name: 'Clone to my folders' }).click();
      await dialog.getByLabel('Name of the new folder').fill('../evil');
      await dialog.getByRole('button', { name: 'Clone', exact: true }).click();
      await dialog.locator('.note.error').waitFor();
      await shot(p, 'clone-refused');
      await dialog.getByLabel('Name of the new folder').fill(CLONE);
      await dialog.getByRole('button', { name: 'Clone', exact: true }).click();
      await p.getByText(`Cloning into your folder ${CLONE}`).waitFor();
      let info;
      for (let i = 0; i < 100; i++) {
        info = await api(p, 'GET', `/folders/${CLONE}`);
        if (info.status === 200 && info.body.status === 'ready') break;
        await p.waitForTimeout(100);
      }
      assert.equal(info.body.status, 'ready', info.text);
      assert.equal(info.body.usage_mode, 'model');
      await shot(p, 'cloned');

      await p.locator('article[data-card="tiny-llama"]').getByRole('button', { name: 'Tiny Llama' }).click();
      await p.getByRole('dialog', { name: 'Tiny Llama' }).getByRole('button', { name: 'Deploy' }).click();
      const create = p.getByRole('dialog', { name: 'Start a service' });
      await create.getByLabel('Service name').waitFor();
      const chosen = await create.getByLabel('Model folder').evaluate((s) => s.options[s.selectedIndex].textContent);
      assert.equal(chosen, GOOD, 'the store folder is chosen');
      await shot(p, 'deploy');
      await create.getByRole('button', { name: 'Cancel' }).click();
    },
  ],
  [
    'a card without a definition shows its README and cannot be deployed',
    async ({ env, login, shot, assert }) => {
      const { page: p } = await login(env.user);
      await p.goto(env.web + '/model-store');
      await p.locator(`article[data-card="${BARE}"]`).getByRole('button', { name: BARE }).click();
      const dialog = p.getByRole('dialog', { name: BARE });
      await dialog.getByText('model-definition.yaml not found').waitFor();
      await dialog.locator('.readme').getByText('Notes without a definition.').waitFor();
      assert.ok(await dialog.getByRole('button', { name: 'Deploy' }).isDisabled(), 'Deploy is disabled');
      await shot(p, 'no-definition');
    },
  ],
];
