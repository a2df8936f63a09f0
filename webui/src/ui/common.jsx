// common - the pieces every page is built from: loading with an answer or an
// error (never an endless spinner), the error note with the server's words,
// dialogs, labelled fields, usage bars and status badges.

import { createContext } from 'preact';
import { useCallback, useContext, useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';

// What the frame knows and every page may read: me ({access_key, role, email,
// user_id, domain_name}), projects ([{id, name}]), project (the chosen one),
// notify(text, kind) for short messages.
export const AppContext = createContext(null);
export const useApp = () => useContext(AppContext);

// Runs load() now and whenever deps change; {data, error, loading, reload}.
// A slow answer shows a spinner, a failed one the error, and a late answer of an
// earlier load never overwrites a newer one.
export function useLoad(load, deps) {
  const [state, setState] = useState({ data: undefined, error: null, loading: true });
  const seq = useRef(0);
  const run = useCallback(() => {
    const mine = ++seq.current;
    setState((s) => ({ ...s, loading: true }));
    Promise.resolve()
      .then(load)
      .then(
        (data) => mine === seq.current && setState({ data, error: null, loading: false }),
        (error) => mine === seq.current && setState((s) => ({ data: s.data, error, loading: false })),
      );
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

export function errorText(error) {
  if (!error) return '';
  if (error.status === 0) return t('error.unreachable');
  // The detail says what happened in words ("The user is not active."); the
  // title is the kind of error, shown when there is no detail.
  return error.detail || error.title || error.message;
}

export function ErrorNote({ error, onRetry }) {
  if (!error) return null;
  return (
    <div class="note error" role="alert">
      <span>{errorText(error)}</span>
      {onRetry && (
        <button type="button" class="link" onClick={onRetry}>
          {t('action.retry')}
        </button>
      )}
    </div>
  );
}

export function Loading({ what }) {
  return (
    <div class="loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" /> {what || t('state.loading')}
    </div>
  );
}

// A page's body for a useLoad state: the spinner while nothing is there yet,
// the error (with a retry) when it failed, else children(data).
export function Loaded({ state, children }) {
  if (state.data === undefined && state.loading) return <Loading />;
  if (state.data === undefined && state.error) return <ErrorNote error={state.error} onRetry={state.reload} />;
  return (
    <>
      {state.error && <ErrorNote error={state.error} onRetry={state.reload} />}
      {children(state.data)}
    </>
  );
}

// A modal dialog on <dialog>: focus moves in, Escape closes, focus returns.
export function Dialog({ title, open, onClose, children, wide }) {
  const ref = useRef(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} class={wide ? 'wide' : ''} aria-label={title} onClose={onClose} onCancel={onClose}>
      {open && (
        <>
          <header>
            <h2>{title}</h2>
            <button type="button" class="icon" aria-label={t('action.close')} onClick={onClose}>
              ×
            </button>
          </header>
          {children}
        </>
      )}
    </dialog>
  );
}

// A row of tabs choosing one value: tabs is [[value, what it shows], ...].
export function Tabs({ label, value, onChange, tabs }) {
  return (
    <div role="tablist" aria-label={label}>
      {tabs.map(([key, text]) => (
        <button type="button" role="tab" key={String(key)} aria-selected={value === key} onClick={() => onChange(key)}>
          {text}
        </button>
      ))}
    </div>
  );
}

// A form's buttons: submit, off while busy, and cancel.
export function FormActions({ busy, label, onCancel }) {
  return (
    <div class="actions dialog-actions">
      <button type="submit" class="primary" disabled={busy}>
        {label}
      </button>
      <button type="button" onClick={onCancel}>
        {t('action.cancel')}
      </button>
    </div>
  );
}

let fieldSeq = 0;
// A labelled form field around one input: <Field label=...>{(id) => <input id={id}/>}</Field>
export function Field({ label, hint, children }) {
  const id = useRef('f' + ++fieldSeq).current;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(id)}
      {hint && <small>{hint}</small>}
    </div>
  );
}

// used of limit, as a bar with its numbers.
export function Bar({ label, used, limit, text }) {
  const finite = isFinite(limit) && limit > 0;
  const ratio = finite ? Math.min(1, Math.max(0, used / limit)) : 0;
  return (
    <div class="bar" role="meter" aria-label={label} aria-valuemin="0" aria-valuemax={finite ? limit : undefined} aria-valuenow={used}>
      <div class="bar-head">
        <span>{label}</span>
        <span>{text}</span>
      </div>
      <div class="bar-track">
        <div class={'bar-fill' + (ratio > 0.9 ? ' high' : '')} style={{ width: `${ratio * 100}%` }} />
      </div>
    </div>
  );
}

export function Status({ status }) {
  const s = String(status || '').toUpperCase();
  return <span class={'status status-' + s.toLowerCase()}>{t('status.' + s) === 'status.' + s ? s : t('status.' + s)}</span>;
}

// The body of an action a person asks for (delete, forget, cancel): asked to
// confirm when ask is given, its failure kept with setError for an ErrorNote,
// its success told with done and followed by then (a reload, say).
export async function attempt(setError, fn, { ask, done, notify, then } = {}) {
  if (ask && !confirm(ask)) return;
  setError(null);
  try {
    await fn();
    if (done && notify) notify(done);
    if (then) then();
  } catch (e) {
    setError(e);
  }
}

// Confirmation that never runs the action twice; resolves after it.
export function useBusy() {
  const [busy, setBusy] = useState(false);
  const run = async (fn) => {
    if (busy) return;
    setBusy(true);
    try {
      return await fn();
    } finally {
      setBusy(false);
    }
  };
  return [busy, run];
}
