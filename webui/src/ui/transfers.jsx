// transfers - the uploads into one folder: a progress bar each, the bytes and
// the rate, where a resumed one started again, the storage-proxy's words when
// one failed, and cancel or retry.

import { t } from '../i18n.js';
import { errorText } from './common.jsx';
import { bytes } from './format.js';
import * as uploads from './upload.js';

export function Transfers({ folderId }) {
  const list = uploads.useTransfers(folderId);
  if (!list.length) return null;
  const running = list.filter(uploads.active).length;
  return (
    <section class="transfers card" aria-labelledby="transfers-title">
      <div class="transfers-head">
        <h2 id="transfers-title">{running ? t('transfers.running', { n: running }) : t('transfers.title')}</h2>
        {list.length > running && (
          <button type="button" class="small" onClick={() => uploads.clearEnded(folderId)}>
            {t('transfers.clear')}
          </button>
        )}
      </div>
      <ul>
        {list.map((tr) => (
          <Transfer key={tr.id} tr={tr} />
        ))}
      </ul>
    </section>
  );
}

function Transfer({ tr }) {
  const rate = uploads.rate(tr);
  const done = tr.state === 'done';
  return (
    <li
      data-transfer={tr.name}
      data-state={tr.state}
      data-rate={Math.round(rate)}
      data-resumed={tr.resumedFrom === null ? '' : tr.resumedFrom}
      class={'transfer transfer-' + tr.state}
    >
      <div class="transfer-line">
        <span class="transfer-name">{tr.name}</span>
        <span class="small muted">
          {done ? bytes(tr.size) : `${bytes(tr.sent)} / ${bytes(tr.size)}`}
          {rate > 0 && ` · ${bytes(rate)}/s`}
        </span>
      </div>
      <progress max={tr.size || 1} value={tr.size ? tr.sent : done ? 1 : 0} aria-label={t('transfers.progress_of', { name: tr.name })} />
      <div class="transfer-line small">
        <span role="status">
          {t('transfers.state.' + tr.state)}
          {tr.resumedFrom > 0 && ` · ${t('transfers.resumed', { at: bytes(tr.resumedFrom) })}`}
          {tr.error && tr.state !== 'done' && ` · ${errorText(tr.error)}`}
        </span>
        {uploads.active(tr) ? (
          <button type="button" class="small" onClick={() => uploads.cancel(tr)} aria-label={t('transfers.cancel_name', { name: tr.name })}>
            {t('action.cancel')}
          </button>
        ) : (
          (tr.state === 'failed' || tr.state === 'cancelled') && (
            <button type="button" class="small" onClick={() => uploads.retry(tr)} aria-label={t('transfers.retry_name', { name: tr.name })}>
              {t('action.retry')}
            </button>
          )
        )}
      </div>
    </li>
  );
}
