// chat - talk to my model services: one card per service (two side by side
// to compare them, as Backend.AI's UI does), each with its token and model,
// one message box sending to every card. The answers stream token by token
// from the service's URL (POST /v1/chat/completions with stream: true, read
// as server-sent events); a server that answers JSON at once is shown too.
// Each card's conversation is kept in this tab (sessionStorage).

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { ErrorNote, Field, Loaded, useLoad } from '../ui/common.jsx';
import * as serving from '../ui/serving.js';

const TOKEN_SECONDS = 3600;
const MODELS_DELAY_MS = 300;

const kept = (card, service) => `backplane.chat.${card}.${service}`;
function loadConversation(card, service) {
  try {
    return JSON.parse(sessionStorage.getItem(kept(card, service)) || '[]');
  } catch (e) {
    return [];
  }
}
function keepConversation(card, service, messages) {
  try {
    sessionStorage.setItem(kept(card, service), JSON.stringify(messages));
  } catch (e) {
    // storage full or refused: the conversation lives on in the page
  }
}

export default function Chat({ query }) {
  const list = useLoad(async () => (await serving.listServices()).filter((s) => s.service_endpoint), []);
  const [compare, setCompare] = useState(false);
  const [text, setText] = useState('');
  const [outgoing, setOutgoing] = useState(null); // {seq, text}: to every card
  // The cards still answering: the next message waits for every answer, so
  // each card's conversation takes the same turns.
  const [answering, setAnswering] = useState({});
  const busy = Object.values(answering).some(Boolean);
  const onBusy = useCallback((index, on) => setAnswering((a) => ({ ...a, [index]: on })), []);
  const send = (e) => {
    e.preventDefault();
    if (!text.trim() || busy) return;
    setOutgoing({ seq: (outgoing ? outgoing.seq : 0) + 1, text });
    setText('');
  };
  return (
    <section class="page chat-page">
      <div class="page-head">
        <h1>{t('nav.chat')}</h1>
        <label class="inline">
          <input type="checkbox" checked={compare} onChange={(e) => setCompare(e.target.checked)} /> {t('chat.compare')}
        </label>
      </div>
      <Loaded state={list}>
        {(services) =>
          !services.length ? (
            <p class="empty">
              {t('chat.no_services')} <a href="/serving">{t('nav.serving')}</a>
            </p>
          ) : (
            <>
              <div class={'chat-cards' + (compare ? ' two' : '')}>
                <Card index={0} services={services} initial={query.get('service')} outgoing={outgoing} onBusy={onBusy} />
                {compare && <Card index={1} services={services} outgoing={outgoing} onBusy={onBusy} />}
              </div>
              <form class="chat-input" onSubmit={send}>
                <label class="sr-only" for="chat-message">
                  {t('chat.message')}
                </label>
                <textarea
                  id="chat-message"
                  rows="2"
                  value={text}
                  placeholder={t('chat.placeholder')}
                  onInput={(e) => setText(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && !e.shiftKey) send(e);
                  }}
                />
                <button type="submit" class="primary" disabled={busy}>
                  {t('chat.send')}
                </button>
              </form>
            </>
          )
        }
      </Loaded>
    </section>
  );
}

function Card({ index, services, initial, outgoing, onBusy }) {
  const first = services.find((s) => s.id === initial) || services[Math.min(index, services.length - 1)];
  const [serviceId, setServiceId] = useState(first.id);
  const service = services.find((s) => s.id === serviceId) || first;
  const [token, setToken] = useState('');
  const [model, setModel] = useState('');
  const [models, setModels] = useState([]);
  const [messages, setMessages] = useState(() => loadConversation(index, first.id));
  const [error, setError] = useState(null);
  const [streaming, setStreaming] = useState(false);
  const abort = useRef(null);
  const seen = useRef(outgoing ? outgoing.seq : 0);

  useEffect(() => setMessages(loadConversation(index, service.id)), [service.id]);
  useEffect(() => keepConversation(index, service.id, messages), [messages]);
  useEffect(() => onBusy(index, streaming), [streaming]);
  useEffect(
    () => () => {
      if (abort.current) abort.current.abort();
      onBusy(index, false);
    },
    [],
  );

  // The models the service serves, once it can be asked (public, or a
  // token), asked a moment after the token stops changing (typed or pasted).
  useEffect(() => {
    setModels([]);
    if (!service.is_public && !token) return;
    let live = true;
    const timer = setTimeout(
      () =>
        serving.listModels(service.service_endpoint, token).then(
          (ids) => {
            if (!live) return;
            setError(null);
            setModels(ids);
            if (ids.length && !ids.includes(model)) setModel(ids[0]);
          },
          (e) => live && setError(e),
        ),
      MODELS_DELAY_MS,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [service.id, token]);

  const generate = async () => {
    setError(null);
    try {
      setToken(await serving.makeToken(service.id, TOKEN_SECONDS));
    } catch (e) {
      setError(e);
    }
  };

  const ask = async (text) => {
    if (streaming) return;
    setError(null);
    const history = [...messages, { role: 'user', content: text }];
    setMessages([...history, { role: 'assistant', content: '' }]);
    setStreaming(true);
    abort.current = new AbortController();
    try {
      await serving.chat(
        service.service_endpoint,
        token,
        model || 'default',
        history,
        (delta) =>
          setMessages((m) => {
            const last = m[m.length - 1];
            return [...m.slice(0, -1), { ...last, content: last.content + delta }];
          }),
        abort.current.signal,
      );
    } catch (e) {
      if (e.name !== 'AbortError') setError(e);
      setMessages((m) => (m.length && m[m.length - 1].role === 'assistant' && !m[m.length - 1].content ? m.slice(0, -1) : m));
    } finally {
      setStreaming(false);
    }
  };

  useEffect(() => {
    if (!outgoing || outgoing.seq === seen.current) return;
    seen.current = outgoing.seq;
    ask(outgoing.text);
  }, [outgoing]);

  return (
    <div class="card chat-card" data-card={index}>
      <div class="row">
        <Field label={t('chat.service')}>
          {(id) => (
            <select id={id} value={service.id} onChange={(e) => setServiceId(e.target.value)}>
              {services.map((s) => (
                <option value={s.id} key={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('chat.model')}>
          {(id) =>
            models.length ? (
              <select id={id} value={model} onChange={(e) => setModel(e.target.value)}>
                {models.map((m) => (
                  <option value={m} key={m}>
                    {m}
                  </option>
                ))}
              </select>
            ) : (
              <input id={id} value={model} placeholder="default" onInput={(e) => setModel(e.target.value)} />
            )
          }
        </Field>
      </div>
      {!service.is_public && (
        <div class="row token-row">
          <Field label={t('chat.token')}>
            {(id) => <input id={id} type="password" autocomplete="off" value={token} onInput={(e) => setToken(e.target.value.trim())} />}
          </Field>
          <button type="button" onClick={generate}>
            {t('serving.generate_token')}
          </button>
        </div>
      )}
      <p class="muted small">
        <code>{service.service_endpoint}</code>
      </p>
      <ErrorNote error={error} />
      <ol class="conversation" aria-live="polite">
        {messages.map((m, i) => (
          <li key={i} class={'message ' + m.role}>
            <span class="who">{t('chat.role.' + m.role)}</span>
            <div class="text">{m.content || (streaming && i === messages.length - 1 ? '…' : '')}</div>
          </li>
        ))}
      </ol>
      <div class="actions">
        {streaming && (
          <button type="button" onClick={() => abort.current && abort.current.abort()}>
            {t('chat.stop')}
          </button>
        )}
        <button type="button" disabled={streaming || !messages.length} onClick={() => setMessages([])}>
          {t('chat.clear')}
        </button>
      </div>
    </div>
  );
}
