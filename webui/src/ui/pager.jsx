// pager - Previous and Next through a *_list, PAGE_SIZE items a page.

import { t } from '../i18n.js';
import { PAGE_SIZE } from './admin.js';

export function Pager({ offset, total, onOffset }) {
  if (total <= PAGE_SIZE) return null;
  return (
    <nav class="pager" aria-label={t('pager.label')}>
      <button type="button" class="small" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - PAGE_SIZE))}>
        {t('pager.previous')}
      </button>
      <span>{t('pager.range', { from: offset + 1, to: Math.min(total, offset + PAGE_SIZE), total })}</span>
      <button type="button" class="small" disabled={offset + PAGE_SIZE >= total} onClick={() => onOffset(offset + PAGE_SIZE)}>
        {t('pager.next')}
      </button>
    </nav>
  );
}
