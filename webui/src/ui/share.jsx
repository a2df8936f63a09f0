// share - who else reaches a folder, and how. A user's folder is shared by
// invitation (the invitee accepts on the Dashboard or the Data page); a
// project's folder reaches every member with the folder's permission, and its
// administrators give single members another one. Both list who reaches the
// folder so (/folders/_/shared), with their permission to change or end.

import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { Dialog, ErrorNote, Field, Loaded, useApp, useBusy, useLoad } from './common.jsx';
import * as folders from './folders.js';

export function ShareDialog({ folder, onClose }) {
  const { notify } = useApp();
  const project = folder.ownership_type === 'group';
  const shared = useLoad(() => folders.sharedWith(folder), [folder.id]);
  const sent = useLoad(() => (project ? { invitations: [] } : folders.sentInvitations()), [folder.id]);
  const pending = ((sent.data && sent.data.invitations) || []).filter((inv) => inv.vfolder_id === folder.id);
  const [emails, setEmails] = useState('');
  const [perm, setPerm] = useState('ro');
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();

  const act = (fn) =>
    run(async () => {
      setError(null);
      try {
        await fn();
      } catch (err) {
        setError(err);
      }
      shared.reload();
      sent.reload();
    });

  const submit = (e) => {
    e.preventDefault();
    const list = folders.emailList(emails);
    if (!list.length) return;
    act(async () => {
      const done = project
        ? (await folders.shareProject(folder, list, perm)).shared_emails || []
        : (await folders.invite(folder, list, perm)).invited_ids || [];
      const skipped = list.filter((x) => !done.includes(x));
      if (done.length) notify(t(project ? 'share.shared' : 'share.invited', { emails: done.join(', ') }));
      if (skipped.length) setError(new Error(t('share.skipped', { emails: skipped.join(', ') })));
      setEmails('');
    });
  };

  const remove = (row) =>
    act(() =>
      project ? folders.unshareProject(folder, [row.shared_to.email]) : folders.changeShared(folder, row.shared_to.uuid, null),
    );
  const change = (row, next) => act(() => folders.changeShared(folder, row.shared_to.uuid, next));

  return (
    <Dialog title={t('share.title', { name: folder.name })} open onClose={onClose} wide>
      <p class="muted">{t(project ? 'share.project_text' : 'share.user_text')}</p>
      <form class="inline-form" onSubmit={submit}>
        <Field label={t(project ? 'share.member_emails' : 'share.emails')}>
          {(id) => <input id={id} type="text" inputMode="email" required size={32} value={emails} placeholder="someone@example.com" onInput={(e) => setEmails(e.target.value)} />}
        </Field>
        <Field label={t('data.permission')}>
          {(id) => (
            <select id={id} value={perm} onChange={(e) => setPerm(e.target.value)}>
              {folders.PERMS.map((p) => (
                <option value={p} key={p}>
                  {folders.permText(p)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          {t(project ? 'share.share' : 'share.invite')}
        </button>
      </form>
      <ErrorNote error={error} />
      <h3>{t('share.shared_with')}</h3>
      <Loaded state={shared}>
        {(data) =>
          data.shared.length ? (
            <div class="table-wrap">
              <table class="shared">
                <thead>
                  <tr>
                    <th scope="col">{t('share.user')}</th>
                    <th scope="col">{t('data.permission')}</th>
                    <th scope="col">
                      <span class="sr-only">{t('data.controls')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.shared.map((row) => (
                    <tr key={row.shared_to.uuid} data-user={row.shared_to.email}>
                      <td>{row.shared_to.email}</td>
                      <td>
                        <select
                          aria-label={t('share.perm_of', { email: row.shared_to.email })}
                          value={row.perm}
                          disabled={busy}
                          onChange={(e) => change(row, e.target.value)}
                        >
                          {folders.PERMS.map((p) => (
                            <option value={p} key={p}>
                              {folders.permText(p)}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td class="controls">
                        <button type="button" class="small danger" disabled={busy} onClick={() => remove(row)}>
                          {t('share.remove')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p class="empty">{t('share.nobody')}</p>
          )
        }
      </Loaded>
      {!project && pending.length > 0 && (
        <>
          <h3>{t('share.pending')}</h3>
          <ul class="pending">
            {pending.map((inv) => (
              <li key={inv.id} data-invitee={inv.invitee}>
                {inv.invitee} ({folders.permText(inv.perm)}){' '}
                <button type="button" class="small" disabled={busy} onClick={() => act(() => folders.cancelInvitation(inv))}>
                  {t('share.cancel_invitation')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <div class="actions dialog-actions">
        <button type="button" onClick={onClose}>
          {t('action.close')}
        </button>
      </div>
    </Dialog>
  );
}
