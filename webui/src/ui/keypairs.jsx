// keypairs - a table of keypairs, for the Credentials page (with its controls)
// and a user's keypairs on the Users page (compact, read-only).

import { t } from '../i18n.js';
import { Status } from './common.jsx';
import { day } from './admin.js';
import { when } from './format.js';

export const KEYPAIR_FIELDS =
  'access_key user_id is_active is_admin resource_policy rate_limit created_at last_used user_info { full_name }';

export function KeypairTable({ items, compact, controls }) {
  if (!items.length) return <p class="empty">{t('keypairs.none')}</p>;
  return (
    <div class="table-wrap">
      <table class="keypairs">
        <thead>
          <tr>
            <th scope="col">{t('keypairs.access_key')}</th>
            {!compact && <th scope="col">{t('keypairs.user')}</th>}
            <th scope="col">{t('keypairs.status')}</th>
            <th scope="col">{t('keypairs.policy')}</th>
            <th scope="col">{t('keypairs.rate_limit')}</th>
            <th scope="col">{t('keypairs.created_at')}</th>
            <th scope="col">{t('keypairs.last_used')}</th>
            {controls && (
              <th scope="col">
                <span class="sr-only">{t('sessions.controls')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {items.map((k) => (
            <tr key={k.access_key} data-access-key={k.access_key} data-user={k.user_id}>
              <th scope="row">
                <code>{k.access_key}</code>
                {k.is_admin && <div class="muted small">{t('keypairs.admin')}</div>}
              </th>
              {!compact && (
                <td>
                  {k.user_id}
                  {k.user_info && k.user_info.full_name && <div class="muted small">{k.user_info.full_name}</div>}
                </td>
              )}
              <td>
                <Status status={k.is_active ? 'active' : 'inactive'} />
              </td>
              <td>{k.resource_policy}</td>
              <td>{k.rate_limit}</td>
              <td class="small" title={when(k.created_at)}>
                {day(k.created_at)}
              </td>
              <td class="small" title={k.last_used ? when(k.last_used) : undefined}>
                {k.last_used ? day(k.last_used) : t('keypairs.never')}
              </td>
              {controls && <td class="controls">{controls(k)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
