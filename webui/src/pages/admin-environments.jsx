// admin-environments - the image catalogue with what administrators do to it
// (aliases, forgetting an image), and the resource presets people launch
// sessions from. The gateway lets only a superadmin change either; a domain
// administrator sees them as they are.
//
// An image's minimum resources come from its labels (ai.backend.resource.min.*)
// as its agents report them; the gateway has no call that changes them, so they
// are shown, not edited.

import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { attempt, Dialog, ErrorNote, Field, Loaded, Tabs, useApp, useBusy, useLoad } from '../ui/common.jsx';
import { ImageTable, imageRef, listImages, matching, shortName } from '../ui/images.jsx';
import { mutate } from '../ui/mutation.js';
import { Presets } from '../ui/presets.jsx';

export default function AdminEnvironments({ query }) {
  const { me } = useApp();
  const [tab, setTab] = useState(query.get('tab') === 'presets' ? 'presets' : 'images');
  const superadmin = me.role === 'superadmin';
  return (
    <section class="page">
      <h1>{t('nav.admin_environments')}</h1>
      <div class="toolbar">
        <Tabs label={t('nav.admin_environments')} value={tab} onChange={setTab} tabs={['images', 'presets'].map((key) => [key, t('envs.tab.' + key)])} />
      </div>
      {!superadmin && <p class="note info">{t('envs.read_only')}</p>}
      {tab === 'images' ? <Images superadmin={superadmin} /> : <Presets superadmin={superadmin} />}
    </section>
  );
}

function Images({ superadmin }) {
  const { notify } = useApp();
  const state = useLoad(listImages, []);
  const [filter, setFilter] = useState('');
  const [aliasing, setAliasing] = useState(null); // the image whose aliases are edited
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();

  const forget = (img) =>
    run(() =>
      attempt(setError, () => mutate('forget_image', 'mutation($r: String!, $a: String) { forget_image(reference: $r, architecture: $a) { ok msg } }', {
          r: imageRef(img),
          a: img.architecture,
        }), {
        ask: t('envs.confirm_forget', { name: shortName(img), arch: img.architecture }),
        done: t('envs.forgotten', { name: shortName(img) }),
        notify,
        then: state.reload,
      }),
    );

  return (
    <>
      <p class="muted">{t('envs.minimums_read_only')}</p>
      <div class="toolbar">
        <label>
          {t('envs.filter')}
          <input type="search" value={filter} onInput={(e) => setFilter(e.target.value)} />
        </label>
      </div>
      <ErrorNote error={error} />
      <Loaded state={state}>
        {(images) => (
          <ImageTable
            images={matching(images, filter)}
            controls={
              superadmin &&
              ((img) => (
                <>
                  <button type="button" class="small" onClick={() => setAliasing(img)} aria-label={t('envs.aliases_of', { name: shortName(img) })}>
                    {t('envs.edit_aliases')}
                  </button>
                  <button type="button" class="small danger" disabled={busy} onClick={() => forget(img)} aria-label={t('envs.forget_name', { name: shortName(img) })}>
                    {t('envs.forget')}
                  </button>
                </>
              ))
            }
          />
        )}
      </Loaded>
      {aliasing && (
        <Aliases
          image={(state.data || []).find((i) => i.id === aliasing.id) || aliasing}
          onChanged={state.reload}
          onClose={() => setAliasing(null)}
        />
      )}
    </>
  );
}

function Aliases({ image, onChanged, onClose }) {
  const { notify } = useApp();
  const [alias, setAlias] = useState('');
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const act = (fn) =>
    run(async () => {
      setError(null);
      try {
        await fn();
        onChanged();
      } catch (e) {
        setError(e);
      }
    });
  const add = (e) => {
    e.preventDefault();
    act(async () => {
      await mutate('alias_image', 'mutation($alias: String!, $target: String!) { alias_image(alias: $alias, target: $target) { ok msg } }', {
        alias: alias.trim(),
        target: imageRef(image),
      });
      notify(t('envs.alias_added', { alias: alias.trim() }));
      setAlias('');
    });
  };
  const remove = (a) =>
    act(async () => {
      await mutate('dealias_image', 'mutation($alias: String!) { dealias_image(alias: $alias) { ok msg } }', { alias: a });
      notify(t('envs.alias_removed', { alias: a }));
    });
  return (
    <Dialog title={t('envs.aliases_of', { name: shortName(image) })} open onClose={onClose}>
      <p class="muted small">{t('envs.alias_hint')}</p>
      {(image.aliases || []).length ? (
        <ul class="plain-list">
          {image.aliases.map((a) => (
            <li key={a}>
              <code>{a}</code>{' '}
              <button type="button" class="small danger" disabled={busy} onClick={() => remove(a)} aria-label={t('envs.remove_alias', { alias: a })}>
                {t('envs.remove')}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="empty">{t('envs.no_aliases')}</p>
      )}
      <form class="inline-form" onSubmit={add}>
        <Field label={t('envs.new_alias')}>
          {(id) => <input id={id} value={alias} required pattern="\S+" onInput={(e) => setAlias(e.target.value)} autocomplete="off" />}
        </Field>
        <button type="submit" class="primary" disabled={busy || !alias.trim()}>
          {t('envs.add_alias')}
        </button>
      </form>
      <ErrorNote error={error} />
    </Dialog>
  );
}
