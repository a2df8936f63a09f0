// invitations - folder invitations I received, to accept or decline: on the
// Dashboard and on the Data page. Shows nothing when there are none.

import { useEffect, useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { ErrorNote, useApp, useLoad } from './common.jsx';
import { permText } from './folders.js';

// onAnswered(accepted) runs after an answer went through (the Data page lists
// the folder then).
export function Invitations({ onAnswered }) {
  const { notify } = useApp();
  const state = useLoad(() => api.get('/folders/invitations/list'), []);
  const [error, setError] = useState(null);
  const list = (state.data && state.data.invitations) || [];
  useEffect(() => setError(state.error), [state.error]);
  if (!list.length && !error) return null;
  const answer = async (inv, accept) => {
    setError(null);
    try {
      if (accept) await api.post('/folders/invitations/accept', { inv_id: inv.id });
      else await api.del('/folders/invitations/delete', { inv_id: inv.id });
      notify(accept ? t('dashboard.invitation_accepted', { name: inv.vfolder_name }) : t('dashboard.invitation_declined'));
      state.reload();
      if (onAnswered) onAnswered(accept);
    } catch (e) {
      setError(e);
    }
  };
  return (
    <section aria-labelledby="inv-title">
      <h2 id="inv-title">{t('dashboard.invitations')}</h2>
      <ErrorNote error={error} />
      <ul class="invitations">
        {list.map((inv) => (
          <li key={inv.id} data-invitation={inv.vfolder_name}>
            {t('dashboard.invitation', { from: inv.inviter, name: inv.vfolder_name, perm: permText(inv.perm) })}{' '}
            <button type="button" class="primary small" onClick={() => answer(inv, true)}>
              {t('action.accept')}
            </button>{' '}
            <button type="button" class="small" onClick={() => answer(inv, false)}>
              {t('action.decline')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
