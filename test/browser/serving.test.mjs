// serving - a model service made and used from the web UI: a model folder
// whose model-definition.yaml starts a tiny OpenAI-compatible server (a stdlib
// Python program in the folder, run by the jupyter image's python3: /health,
// GET /v1/models, POST /v1/chat/completions streaming a few server-sent
// events, or one JSON answer for its "tiny-json" model), the service created
// from the Serving page until HEALTHY with a URL on the wsproxy, a token
// generated, and Chat sending a message to two cards side by side: one
// streamed answer growing piece by piece, one answered whole; then scaled to
// two replicas and one taken out of the traffic, given an autoscaling rule
// that is then deleted, and deleted. The page calls
// the URL from another origin, so the wsproxy's CORS is on the way.

const FOLDER = 'ui-model';
const SERVICE = 'ui-chat-svc';

const DEFINITION = `models:
  - name: tiny-chat
    model_path: /models
    service:
      start_command: ["python3", "/models/server.py", "8000"]
      port: 8000
      health_check:
        path: /health
        max_retries: 30
        max_wait_time: 2
`;

// Each streamed piece waits PIECE_S, so the page shows a growing answer.
const SERVER = `import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODELS = ["tiny-echo", "tiny-json"]
PIECE_S = 0.4


class Handler(BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/health":
            return self.answer(200, {"status": "ok"})
        if self.path == "/v1/models":
            return self.answer(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in MODELS]})
        self.answer(404, {"error": {"message": "no such path"}})

    def do_POST(self):
        if self.path != "/v1/chat/completions":
            return self.answer(404, {"error": {"message": "no such path"}})
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        said = [m.get("content", "") for m in body.get("messages", []) if m.get("role") == "user"]
        model = body.get("model", MODELS[0])
        words = ("Tiny model %s heard: %s (turn %d)" % (model, said[-1] if said else "", len(said))).split(" ")
        if model == "tiny-json" or not body.get("stream"):
            message = {"role": "assistant", "content": " ".join(words)}
            return self.answer(200, {"object": "chat.completion", "model": model,
                                     "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        for i, word in enumerate(words):
            chunk = {"object": "chat.completion.chunk", "model": model,
                     "choices": [{"index": 0, "delta": {"content": word if i == 0 else " " + word}}]}
            self.wfile.write(("data: %s\\n\\n" % json.dumps(chunk)).encode())
            self.wfile.flush()
            time.sleep(PIECE_S)
        self.wfile.write(b"data: [DONE]\\n\\n")


ThreadingHTTPServer(("0.0.0.0", int(sys.argv[1])), Handler).serve_forever()
`;

// A file into my folder: request-upload, then one tus PATCH to the
// storage-proxy.
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

async function openService(p, env) {
  await p.goto(env.web + '/serving');
  await p.locator(`tr[data-service="${SERVICE}"]`).getByRole('link', { name: SERVICE }).click();
  await p.waitForURL(/\/serving\/[0-9a-f-]{36}$/);
}

export const tests = [
  [
    'create a model service from the Serving page and see it HEALTHY with a URL',
    async ({ env, login, shot, skip, api, assert }) => {
      if (!env.jupyter) skip('no jupyter image on this machine (its python3 runs the model)');
      const { page: p } = await login(env.user);
      const made = await api(p, 'POST', '/folders', { name: FOLDER, usage_mode: 'model' });
      assert.equal(made.status, 201, made.text);
      await upload(api, p, env, FOLDER, 'model-definition.yaml', DEFINITION);
      await upload(api, p, env, FOLDER, 'server.py', SERVER);

      await p.locator('nav.side').getByRole('link', { name: 'Serving' }).click();
      await p.getByRole('heading', { name: 'Serving', exact: true }).waitFor();
      await p.getByRole('button', { name: 'Start a service' }).click();
      const dialog = p.getByRole('dialog', { name: 'Start a service' });
      await dialog.getByLabel('Service name').fill(SERVICE);
      const model = dialog.getByLabel('Model folder');
      await model.selectOption({ label: FOLDER });
      const image = dialog.getByLabel('Image');
      await image.selectOption(await image.locator('option', { hasText: 'jupyter' }).first().getAttribute('value'));
      await dialog.getByLabel('Memory per replica').fill('1g');
      // The runtime variants the gateway offers; the folder's definition by default.
      const runtime = dialog.getByLabel('Runtime variant');
      assert.deepEqual(await runtime.locator('option').allTextContents(), ['vLLM', 'NVIDIA NIM', 'Predefined Image Command', 'Custom (Default)']);
      assert.equal(await runtime.inputValue(), 'custom');
      await shot(p, 'create-dialog');
      await dialog.getByRole('button', { name: 'Create' }).click();
      await p.waitForURL(/\/serving\/[0-9a-f-]{36}$/);
      await p.locator('h1 .status').waitFor();
      await shot(p, 'provisioning');
      // The page follows by itself: no reload from here.
      await p.locator('h1 .status', { hasText: 'Healthy' }).waitFor({ timeout: 100000 });
      await p.locator('dd[data-field="url"] code').waitFor({ timeout: 30000 });
      const url = await p.locator('dd[data-field="url"] code').textContent();
      assert.match(url, /^http:\/\/[^/]+:\d+/, 'the URL is the wsproxy port of the service');
      assert.notEqual(new URL(url).host, new URL(env.web).host, 'the model is reached on the wsproxy, not the web listener');
      await p.locator('table.routes tbody tr').first().getByText('Healthy').waitFor();
      await shot(p, 'healthy');
      await p.goto(env.web + '/serving');
      await p.locator(`tr[data-service="${SERVICE}"]`).getByText('Healthy', { exact: true }).waitFor();
      await p.locator(`tr[data-service="${SERVICE}"]`).getByText('1 healthy of 1').waitFor();
      await shot(p, 'list');
      // A second service of the same name: the gateway's refusal, in its words.
      await p.getByRole('button', { name: 'Start a service' }).click();
      const again = p.getByRole('dialog', { name: 'Start a service' });
      await again.getByLabel('Service name').fill(SERVICE);
      await again.getByRole('button', { name: 'Create' }).click();
      await again.locator('.note.error').getByText('Cannot create multiple services with same name').waitFor();
      await shot(p, 'refused');
      await again.getByRole('button', { name: 'Cancel' }).click();
    },
  ],
  [
    'generate a token, then chat: a streamed answer beside a whole one',
    async ({ env, login, shot, skip, assert, note }) => {
      if (!env.jupyter) skip('no jupyter image on this machine (its python3 runs the model)');
      const { page: p } = await login(env.user);
      await openService(p, env);
      await p.getByRole('button', { name: 'Generate a token' }).click();
      const token = (await p.locator('code[data-field="token"]').textContent()).trim();
      assert.ok(token.length > 40, 'a token is shown');
      await shot(p, 'token');

      await p.locator('.page-head').getByRole('link', { name: 'Chat' }).click();
      await p.waitForURL(/\/chat\?service=/);
      const one = p.locator('[data-card="0"]');
      await one.getByLabel('Token').fill(token);
      // The models come from the service's /v1/models, with the token.
      await one.getByLabel('Model').locator('option', { hasText: 'tiny-echo' }).waitFor({ state: 'attached' });
      await p.getByLabel('Compare two side by side').check();
      const two = p.locator('[data-card="1"]');
      await two.getByRole('button', { name: 'Generate a token' }).click();
      await two.getByLabel('Model').locator('option', { hasText: 'tiny-json' }).waitFor({ state: 'attached' });
      await two.getByLabel('Model').selectOption('tiny-json');

      await p.getByLabel('Message').fill('hello there');
      await p.getByRole('button', { name: 'Send' }).click();
      const streamed = one.locator('.message.assistant .text').last();
      const whole = 'Tiny model tiny-echo heard: hello there (turn 1)';
      // Piece by piece: a part of the answer shows before the whole of it.
      const partial = await p.waitForFunction(
        ([el, all]) => el && el.textContent.length > 0 && el.textContent !== all && all.startsWith(el.textContent) && el.textContent,
        [await streamed.elementHandle(), whole],
        { polling: 50 },
      );
      note(`a streamed answer, part way: "${await partial.jsonValue()}"`);
      await shot(p, 'streaming');
      await streamed.getByText(whole, { exact: true }).waitFor();
      await two.locator('.message.assistant .text').getByText('Tiny model tiny-json heard: hello there (turn 1)', { exact: true }).waitFor();
      await one.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
      await shot(p, 'answered');

      // A second turn carries the first (the server counts the user's turns),
      // and the conversation outlives a reload of the page (sessionStorage).
      await p.getByLabel('Message').fill('again');
      await p.getByRole('button', { name: 'Send' }).click();
      await one.locator('.message.assistant .text').getByText('Tiny model tiny-echo heard: again (turn 2)', { exact: true }).waitFor();
      await p.reload();
      await p.locator('[data-card="0"] .message.assistant .text').getByText('heard: again (turn 2)').waitFor();
      await shot(p, 'kept');
    },
  ],
  [
    'scale to two replicas from the service page, and take one out of the traffic',
    async ({ env, login, shot, skip }) => {
      if (!env.jupyter) skip('no jupyter image on this machine (its python3 runs the model)');
      const { page: p } = await login(env.user);
      await openService(p, env);
      await p.getByLabel('Replicas wanted').fill('2');
      await p.getByRole('button', { name: 'Scale' }).click();
      // The page follows the new replica until it is healthy, by itself.
      const rows = p.locator('table.routes tbody tr');
      await rows.nth(1).waitFor();
      await p.getByText('2 healthy of 2').waitFor({ timeout: 100000 });
      await shot(p, 'scaled');
      p.once('dialog', (d) => d.accept('0'));
      await rows.first().getByRole('button', { name: 'Traffic' }).click();
      await rows.first().locator('td').nth(3).getByText('0', { exact: true }).waitFor();
      await shot(p, 'traffic');
    },
  ],
  [
    'add an autoscaling rule on the service page, see it listed, and delete it',
    async ({ env, login, shot, skip, assert }) => {
      if (!env.jupyter) skip('no jupyter image on this machine (its python3 runs the model)');
      const { page: p } = await login(env.user);
      await openService(p, env);
      await p.getByRole('heading', { name: 'Autoscaling rules' }).waitFor();
      await p.getByText('No autoscaling rules').waitFor();
      await p.getByRole('button', { name: 'Add a rule' }).click();
      const form = p.getByRole('form', { name: 'Autoscaling rule' });
      await form.getByLabel('Metric').selectOption({ label: 'Requests per second' });
      await form.getByLabel('Comparison').selectOption({ label: '>' });
      // A threshold that is no number: the gateway's refusal, in its words.
      await form.getByLabel('Threshold').fill('lots');
      await form.getByRole('button', { name: 'Add rule' }).click();
      await p.locator('.note.error').getByText('Cannot convert').waitFor();
      await form.getByLabel('Threshold').fill('1000');
      await form.getByLabel('Step').fill('1');
      await form.getByLabel('Cool-down (seconds)').fill('120');
      await form.getByLabel('Minimum replicas').fill('1');
      await form.getByLabel('Maximum replicas').fill('3');
      await shot(p, 'rule-form');
      await form.getByRole('button', { name: 'Add rule' }).click();
      const row = p.locator('table.rules tbody tr');
      await row.first().waitFor();
      assert.equal(await row.count(), 1);
      await row.first().getByText('Requests per second').waitFor();
      await row.first().getByText('> 1000').waitFor();
      await row.first().getByText('1 – 3').waitFor();
      await row.first().getByText('never').waitFor();
      await shot(p, 'rule-added');
      p.once('dialog', (d) => d.accept());
      await row.first().getByRole('button', { name: 'Delete' }).click();
      await p.getByText('No autoscaling rules').waitFor();
      await shot(p, 'rule-deleted');
    },
  ],
  [
    'delete the service from its page',
    async ({ env, login, shot, skip }) => {
      if (!env.jupyter) skip('no jupyter image on this machine (its python3 runs the model)');
      const { page: p } = await login(env.user);
      await openService(p, env);
      p.once('dialog', (d) => d.accept());
      await p.getByRole('button', { name: 'Delete' }).click();
      await p.waitForURL(/\/serving$/);
      await p.locator(`tr[data-service="${SERVICE}"]`).waitFor({ state: 'detached', timeout: 60000 });
      await shot(p, 'deleted');
    },
  ],
];
