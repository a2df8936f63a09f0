// admin - the administration pages, driven as a superadmin does: create a user
// with a password, issue them a keypair (its secret shown once), make a keypair
// resource policy and change it, deactivate a user (whose login the gateway then
// refuses) and reactivate them, modify a user's name and password; and a domain
// admin made through the UI sees their domain's users and the policies, read-only.
//
// The tests run in order and build on each other (one user, made by the first).

const stamp = Date.now().toString(36);
const email = `admin-ui-${stamp}@example.com`;
const adminEmail = `admin-ui-da-${stamp}@example.com`;
const policy = `admin-pol-${stamp}`;
let accessKey = '';

// The users page, narrowed to one email by its search.
async function findUser(p, env, who, tab = 'Active') {
  await p.goto(env.web + '/admin/users');
  await p.getByRole('tab', { name: tab, exact: true }).click();
  await p.getByLabel('Search').fill(who);
  const row = p.locator(`tr[data-user="${who}"]`);
  await row.waitFor();
  return row;
}

// Fills the login page and submits it.
async function logIn(p, env, who, password) {
  await p.goto(env.web + '/');
  await p.getByLabel('Email').fill(who);
  await p.getByLabel('Password').fill(password);
  await p.getByRole('button', { name: 'Log in' }).click();
}

// Creates a user through the Create a user dialog.
async function createUser(p, env, who, { fullName, role }) {
  await p.goto(env.web + '/admin/users');
  await p.getByRole('button', { name: 'Create a user' }).click();
  const d = p.getByRole('dialog');
  await d.getByLabel('Email').fill(who);
  await d.getByLabel('Full name').fill(fullName);
  await d.getByLabel('Password', { exact: true }).fill(env.password);
  if (role) await d.getByLabel('Role').selectOption({ label: role });
  // The domain's first project is ticked for a new user.
  await d.getByRole('checkbox', { name: 'default' }).waitFor();
  return d;
}

export const tests = [
  [
    'create a user with a password through the Users page; they log in',
    async ({ env, login, page, shot, assert }) => {
      const { page: p } = await login(env.super);
      await p.locator('nav.side').getByRole('link', { name: 'Users' }).click();
      await p.getByRole('heading', { name: 'Users' }).waitFor();
      const d = await createUser(p, env, email, { fullName: 'Ada Admin-UI' });
      await shot(p, 'user-create');
      await d.getByRole('button', { name: 'Create', exact: true }).click();
      await p.getByRole('status').getByText(`User ${email} created.`).waitFor();
      const row = await findUser(p, env, email);
      await row.getByText('Ada Admin-UI').waitFor();
      assert.match(await row.textContent(), /Active/);
      assert.match(await row.textContent(), /default/, 'in the default project');
      await shot(p, 'users');
      // The new person logs in with that password.
      const q = await page();
      await logIn(q, env, email, env.password);
      await q.getByRole('heading', { name: 'Dashboard' }).waitFor();
    },
  ],
  [
    'issue that user a keypair: the secret key is shown once, the key is listed',
    async ({ env, login, shot, assert }) => {
      const { page: p } = await login(env.super);
      await p.locator('nav.side').getByRole('link', { name: 'Credentials' }).click();
      await p.getByRole('heading', { name: 'Credentials' }).waitFor();
      await p.getByRole('button', { name: 'Add a keypair' }).click();
      const d = p.getByRole('dialog');
      await d.getByLabel('User (email)').fill(email);
      await d.getByLabel('Resource policy').selectOption('default');
      await d.getByLabel('Rate limit').fill('600');
      await d.getByRole('button', { name: 'Create', exact: true }).click();
      const shown = p.getByRole('dialog', { name: 'Keypair created' });
      await shown.getByText('it is not shown again').waitFor();
      accessKey = (await shown.getByTestId('new-access-key').textContent()).trim();
      const secret = (await shown.getByTestId('new-secret-key').textContent()).trim();
      assert.match(accessKey, /^AKIA[A-Z0-9]{16}$/);
      assert.ok(secret.length >= 40, `a secret key: ${secret}`);
      await shot(p, 'keypair-created');
      await shown.getByRole('button', { name: 'Done' }).click();
      const row = p.locator(`tr[data-access-key="${accessKey}"]`);
      await row.waitFor();
      assert.match(await row.textContent(), new RegExp(email.replace(/[.]/g, '\\.')));
      assert.match(await row.textContent(), /600/);
      assert.ok(!(await p.textContent('main')).includes(secret), 'the secret is not on the page any more');
      await shot(p, 'credentials');
      // The Users page lists the user's keypairs: the first one and this one.
      const user = await findUser(p, env, email);
      await user.getByRole('button', { name: `Keypairs of ${email}` }).click();
      const list = p.getByRole('dialog', { name: `Keypairs of ${email}` });
      await list.locator(`tr[data-access-key="${accessKey}"]`).waitFor();
      assert.equal(await list.locator('tbody tr').count(), 2);
      await shot(p, 'user-keypairs');
    },
  ],
  [
    'a keypair resource policy: create it, change its concurrent sessions, give it to a keypair',
    async ({ env, login, shot, api, assert }) => {
      const { page: p } = await login(env.super);
      await p.locator('nav.side').getByRole('link', { name: 'Resource policies' }).click();
      await p.getByRole('heading', { name: 'Resource policies' }).waitFor();
      await p.getByRole('button', { name: 'Create a policy' }).click();
      let d = p.getByRole('dialog');
      await d.getByLabel('Name', { exact: true }).fill(policy);
      const running = d.getByRole('group', { name: 'Resources of running sessions' });
      await running.getByRole('textbox', { name: 'CPU (cores)' }).fill('2');
      await running.getByRole('textbox', { name: 'Memory' }).fill('2g');
      await d.getByRole('textbox', { name: 'Sessions at once' }).fill('3');
      await shot(p, 'policy-create');
      await d.getByRole('button', { name: 'Create', exact: true }).click();
      const row = p.locator(`tr[data-policy="${policy}"]`);
      await row.getByText('2.00 GiB').waitFor();
      assert.match(await row.textContent(), /at once3/);

      // Change the concurrent sessions, and clear memory to no limit.
      await row.getByRole('button', { name: `Edit ${policy}` }).click();
      d = p.getByRole('dialog');
      await d.getByRole('textbox', { name: 'Sessions at once' }).fill('7');
      await d
        .getByRole('group', { name: 'Resources of running sessions' })
        .getByRole('button', { name: 'No limit for Memory' })
        .click();
      await d.getByRole('button', { name: 'Save' }).click();
      await row.getByText('at once7').waitFor();
      assert.ok(!(await row.textContent()).includes('GiB'), 'memory has no limit now');
      await shot(p, 'policies');
      const stored = await api(p, 'POST', '/admin/gql', {
        query: 'query($n: String) { keypair_resource_policy(name: $n) { max_concurrent_sessions total_resource_slots } }',
        variables: { n: policy },
      });
      const kp = stored.body.data.keypair_resource_policy;
      assert.equal(kp.max_concurrent_sessions, 7);
      assert.deepEqual(JSON.parse(kp.total_resource_slots), { cpu: '2' });

      // The keypair of the second test takes the policy.
      await p.goto(env.web + '/admin/credentials?email=' + encodeURIComponent(email));
      const key = p.locator(`tr[data-access-key="${accessKey}"]`);
      await key.getByRole('button', { name: `Edit ${accessKey}` }).click();
      d = p.getByRole('dialog');
      await d.getByLabel('Resource policy').selectOption(policy);
      await d.getByRole('button', { name: 'Save' }).click();
      await key.getByText(policy).waitFor();

      // A user policy, made and deleted.
      await p.goto(env.web + '/admin/policies');
      await p.getByRole('tab', { name: 'User' }).click();
      await p.getByRole('button', { name: 'Create a policy' }).click();
      d = p.getByRole('dialog', { name: 'New user resource policy' });
      await d.getByLabel('Name', { exact: true }).fill(policy + '-u');
      await d.getByRole('textbox', { name: 'Quota of a folder' }).fill('1g');
      await d.getByRole('button', { name: 'Create', exact: true }).click();
      const user = p.locator(`tr[data-policy="${policy}-u"]`);
      await user.getByText('1.00 GiB').waitFor();
      await shot(p, 'user-policies');
      p.once('dialog', (dialog) => dialog.accept());
      await user.getByRole('button', { name: `Delete ${policy}-u` }).click();
      await p.getByRole('status').getByText(`Policy ${policy}-u deleted.`).waitFor();
      // The list is fetched again after the toast: the row goes then.
      await user.waitFor({ state: 'detached' });
      assert.equal(await user.count(), 0);
    },
  ],
  [
    'a deactivated user cannot log in (the gateway says why); reactivated, they can',
    async ({ env, login, page, shot, assert }) => {
      const { page: p } = await login(env.super);
      let row = await findUser(p, env, email);
      await row.getByRole('button', { name: `Deactivate ${email}` }).click();
      await p.getByRole('status').getByText(`${email} is inactive`).waitFor();
      row = await findUser(p, env, email, 'Inactive');
      assert.match(await row.textContent(), /Inactive/);
      await shot(p, 'users-inactive');

      const q = await page();
      await logIn(q, env, email, env.password);
      await q.getByRole('alert').getByText('The user is not active.').waitFor();
      await shot(q, 'login-inactive');

      await row.getByRole('button', { name: `Activate ${email}` }).click();
      await p.getByRole('status').getByText(`${email} is active again.`).waitFor();
      const { page: r } = await login(email);
      await r.getByRole('heading', { name: 'Dashboard' }).waitFor();
    },
  ],
  [
    'a domain admin made through the UI sees their domain\'s users, and the policies read-only',
    async ({ env, login, shot, assert }) => {
      const { page: p } = await login(env.super);
      const d = await createUser(p, env, adminEmail, { fullName: 'Dom Admin-UI', role: 'Domain admin' });
      await d.getByRole('button', { name: 'Create', exact: true }).click();
      await p.getByRole('status').getByText(`User ${adminEmail} created.`).waitFor();

      const { page: a } = await login(adminEmail);
      const nav = a.locator('nav.side');
      await nav.getByText('Administration').waitFor();
      await nav.getByRole('link', { name: 'Users' }).click();
      await a.locator(`tr[data-user="${env.user}"]`).waitFor();
      await a.locator(`tr[data-user="${email}"]`).waitFor();
      assert.equal(await a.getByRole('columnheader', { name: 'Domain' }).count(), 0, 'one domain: no domain column');
      await shot(a, 'domain-admin-users');
      // A domain admin makes no superadmins.
      await a.getByRole('button', { name: 'Create a user' }).click();
      const roles = await a.getByRole('dialog').getByLabel('Role').locator('option').allTextContents();
      assert.deepEqual(roles, ['Domain admin', 'Monitor', 'User']);
      await a.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      await nav.getByRole('link', { name: 'Resource policies' }).click();
      await a.getByText('Only a superadmin changes resource policies.').waitFor();
      await a.locator(`tr[data-policy="${policy}"]`).waitFor();
      assert.equal(await a.getByRole('button', { name: 'Create a policy' }).count(), 0);
      assert.equal(await a.getByRole('button', { name: `Edit ${policy}` }).count(), 0);
      await shot(a, 'domain-admin-policies');
    },
  ],
  [
    'modify a user: a new full name and a new password, which then logs them in',
    async ({ env, login, page, shot }) => {
      const { page: p } = await login(env.super);
      const row = await findUser(p, env, email);
      await row.getByRole('button', { name: `Edit ${email}` }).click();
      const d = p.getByRole('dialog', { name: `Modify ${email}` });
      await d.getByLabel('Full name').fill('Ada Renamed');
      await d.getByLabel('New password').fill('pw-admin-789');
      await shot(p, 'user-modify');
      await d.getByRole('button', { name: 'Save' }).click();
      await row.getByText('Ada Renamed').waitFor();

      const q = await page();
      await logIn(q, env, email, 'pw-admin-789');
      await q.getByRole('heading', { name: 'Dashboard' }).waitFor();
      const old = await page();
      await logIn(old, env, email, env.password);
      await old.getByRole('alert').getByText('User credential mismatch.').waitFor();
    },
  ],
];
