// model-store - the Model Store (Backend.AI 24.03+): the model folders of the
// "model-store" project as cards (title, task, category, license, minimum
// resources), a search over their words, and a card's dialog with its README
// (rendered without HTML, ui/markdown.jsx), "Clone to my folders" (asks a
// name; POST /folders/{id}/clone) and "Deploy", which opens the Serving
// page's create dialog with the card's folder chosen. A card whose
// definition is broken or missing is shown with what is wrong, and cannot
// be deployed. The list asks no README (up to 256 KiB a card, each read
// from its storage-proxy): a card's dialog asks its own.

import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { t } from '../i18n.js';
import { navigate } from '../router.js';
import { Dialog, ErrorNote, Field, FormActions, Loaded, useApp, useBusy, useLoad } from '../ui/common.jsx';
import { cloneFolder } from '../ui/folders.js';
import { Readme } from '../ui/markdown.jsx';
import { ServiceDialog } from '../ui/service-dialog.jsx';

const CARD_FIELDS = `id row_id name author title version created_at modified_at description task category
  architecture framework label license min_resource error_msg vfolder { id name host }`;

// Every card: one page as Backend.AI's web UI asks it.
async function listCards() {
  const r = await api.gql(`query { model_cards(first: 200, order: "title") { count edges { node { ${CARD_FIELDS} } } } }`);
  return ((r.model_cards || {}).edges || []).map((e) => e.node);
}

// One card's README, when its dialog opens: { readme, readme_filetype }.
async function loadReadme(id) {
  const r = await api.gql(`query($id: String!) { model_card(id: $id) { readme readme_filetype } }`, { id });
  return r.model_card || {};
}

// min_resource is a JSON string ({"cpu": 2, "mem": "4g"}): as "cpu 2 · mem 4g".
export function minResources(card) {
  let slots = {};
  try {
    slots = JSON.parse(card.min_resource || '{}') || {};
  } catch {
    slots = {};
  }
  return Object.entries(slots)
    .map(([k, v]) => `${k} ${v}`)
    .join(' · ');
}

// Whether a card has every word of query in its words.
function matches(card, query) {
  const words = [card.title, card.name, card.task, card.category, card.description, card.author, ...(card.label || []), ...(card.framework || [])]
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => words.includes(w));
}

export default function ModelStore() {
  const { notify } = useApp();
  const list = useLoad(listCards, []);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(null);
  const [deploying, setDeploying] = useState(null);

  const deployed = (made) => {
    setDeploying(null);
    notify(t('serving.created', { name: made.name }));
    navigate('/serving/' + made.endpoint_id);
  };

  return (
    <section class="page">
      <div class="page-head">
        <h1>{t('nav.model_store')}</h1>
        <div class="actions">
          <button type="button" onClick={list.reload}>
            {t('action.refresh')}
          </button>
        </div>
      </div>
      <p class="muted">{t('store.intro')}</p>
      <div class="toolbar">
        <label>
          {t('store.search')}
          <input type="search" name="search" value={query} onInput={(e) => setQuery(e.target.value)} />
        </label>
      </div>
      <Loaded state={list}>
        {(cards) => {
          const shown = cards.filter((c) => matches(c, query));
          if (!cards.length) return <p class="empty">{t('store.none')}</p>;
          if (!shown.length) return <p class="empty">{t('store.no_match', { query })}</p>;
          return (
            <ul class="model-cards">
              {shown.map((card) => (
                <li key={card.id}>
                  <CardTile card={card} onOpen={() => setOpen(card)} />
                </li>
              ))}
            </ul>
          );
        }}
      </Loaded>
      <CardDialog
        card={open}
        onClose={() => setOpen(null)}
        onDeploy={(card) => {
          setOpen(null);
          setDeploying({ id: card.vfolder.id, name: card.vfolder.name });
        }}
      />
      <ServiceDialog open={!!deploying} model={deploying} onClose={() => setDeploying(null)} onCreated={deployed} />
    </section>
  );
}

function CardTile({ card, onOpen }) {
  const min = minResources(card);
  return (
    <article class={'model-card' + (card.error_msg ? ' broken' : '')} data-card={card.name}>
      <h2>
        <button type="button" class="link" onClick={onOpen}>
          {card.title || card.name}
        </button>
      </h2>
      {card.error_msg ? (
        <p class="note warn small">{t('store.broken')}</p>
      ) : (
        <>
          {card.description && <p class="small">{card.description}</p>}
          <dl class="facts small">
            {card.task && (
              <>
                <dt>{t('store.task')}</dt>
                <dd>{card.task}</dd>
              </>
            )}
            {card.category && (
              <>
                <dt>{t('store.category')}</dt>
                <dd>{card.category}</dd>
              </>
            )}
            {card.license && (
              <>
                <dt>{t('store.license')}</dt>
                <dd>{card.license}</dd>
              </>
            )}
            {min && (
              <>
                <dt>{t('store.min_resource')}</dt>
                <dd>{min}</dd>
              </>
            )}
          </dl>
        </>
      )}
    </article>
  );
}

function CardDialog({ card, onClose, onDeploy }) {
  return (
    <Dialog title={card ? card.title || card.name : ''} open={!!card} onClose={onClose} wide>
      {card && <CardBody card={card} onClose={onClose} onDeploy={onDeploy} />}
    </Dialog>
  );
}

function CardBody({ card, onClose, onDeploy }) {
  const { notify } = useApp();
  const [cloning, setCloning] = useState(false);
  const [name, setName] = useState(card.vfolder.name + '-copy');
  const [error, setError] = useState(null);
  const [busy, run] = useBusy();
  const readme = useLoad(() => loadReadme(card.id), [card.id]);
  const min = minResources(card);

  const clone = (e) => {
    e.preventDefault();
    setError(null);
    run(async () => {
      try {
        await cloneFolder({ id: card.row_id }, { target_name: name.trim(), usage_mode: 'model', permission: 'rw' });
        notify(t('store.cloned', { name: name.trim() }));
        setCloning(false);
        onClose();
      } catch (err) {
        setError(err);
      }
    });
  };

  const facts = [
    ['store.author', card.author],
    ['store.version', card.version],
    ['store.task', card.task],
    ['store.category', card.category],
    ['store.architecture', card.architecture],
    ['store.framework', (card.framework || []).join(', ')],
    ['store.labels', (card.label || []).join(', ')],
    ['store.license', card.license],
    ['store.min_resource', min],
    ['store.folder', card.vfolder.name],
    ['store.modified', card.modified_at],
  ].filter(([, v]) => v);

  return (
    <div class="card-detail">
      {card.error_msg && (
        <div class="note warn" role="alert">
          <strong>{t('store.broken')}</strong>
          <pre class="small">{card.error_msg}</pre>
        </div>
      )}
      {card.description && <p>{card.description}</p>}
      <dl class="facts">
        {facts.map(([k, v]) => (
          <Fragment key={k}>
            <dt>{t(k)}</dt>
            <dd>{v}</dd>
          </Fragment>
        ))}
      </dl>
      <h3>{t('store.readme')}</h3>
      <Loaded state={readme}>
        {(r) => (r.readme ? <Readme text={r.readme} filetype={r.readme_filetype} /> : <p class="muted">{t('store.no_readme')}</p>)}
      </Loaded>
      <ErrorNote error={error} />
      {cloning ? (
        <form onSubmit={clone} class="clone-form">
          <Field label={t('store.clone_name')} hint={t('store.clone_hint')}>
            {(id) => <input id={id} name="clone_name" required value={name} onInput={(e) => setName(e.target.value)} autocomplete="off" />}
          </Field>
          <FormActions busy={busy} label={t('store.clone_submit')} onCancel={() => setCloning(false)} />
        </form>
      ) : (
        <div class="actions dialog-actions">
          <button type="button" onClick={() => setCloning(true)}>
            {t('store.clone')}
          </button>
          <button type="button" class="primary" disabled={!!card.error_msg} onClick={() => onDeploy(card)}>
            {t('store.deploy')}
          </button>
        </div>
      )}
    </div>
  );
}
