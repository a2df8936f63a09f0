// environments - the images I may start sessions from, each with what it
// needs at least and a link to the launcher with it chosen.

import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { Loaded, useLoad } from '../ui/common.jsx';
import { ImageTable, imageRef, listImages, matching, shortName } from '../ui/images.jsx';

export default function Environments() {
  const state = useLoad(listImages, []);
  const [filter, setFilter] = useState('');
  return (
    <section class="page">
      <h1>{t('nav.environments')}</h1>
      <p class="muted">{t('envs.intro')}</p>
      <div class="toolbar">
        <label>
          {t('envs.filter')}
          <input type="search" value={filter} onInput={(e) => setFilter(e.target.value)} />
        </label>
      </div>
      <Loaded state={state}>
        {(images) => (
          <ImageTable
            images={matching(images, filter)}
            controls={(img) =>
              img.installed ? (
                <a
                  class="button small"
                  href={'/sessions/new?image=' + encodeURIComponent(imageRef(img))}
                  aria-label={t('envs.start_with', { name: shortName(img) })}
                >
                  {t('envs.start')}
                </a>
              ) : (
                <span class="muted small">{t('envs.not_startable')}</span>
              )
            }
          />
        )}
      </Loaded>
    </section>
  );
}
