// events - the session lifecycle as it happens, from the gateway's event stream
// (GET /events/session, server-sent events), shared by every page that listens.
//
// One EventSource while anyone listens, closed when the last one leaves; the
// browser reconnects it by itself after a lost connection. A page fetches its
// data before the stream is open, so an event between the two would be lost
// (a session that starts then stays PENDING on the page): listeners are told
// (onReconnect) each time the stream opens, the first time too, and when
// they join a stream already open, so they fetch what they may have missed.

import { useEffect, useRef } from 'preact/hooks';

const NAMES = [
  'session_enqueued', 'session_scheduled', 'session_preparing', 'session_pulling',
  'session_started', 'session_terminating', 'session_terminated', 'session_cancelled',
  'session_success', 'session_failure', 'session_restarting',
  'kernel_preparing', 'kernel_pulling', 'kernel_creating', 'kernel_started',
  'kernel_terminating', 'kernel_terminated', 'kernel_cancelled',
];

const listeners = new Set();
let source = null;

function open() {
  source = new EventSource('/func/events/session?sessionName=*&group=*');
  for (const name of NAMES)
    source.addEventListener(name, (e) => {
      let data = {};
      try {
        data = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      for (const l of listeners) l.onEvent && l.onEvent(name, data);
    });
  source.onopen = () => {
    for (const l of listeners) l.onReconnect && l.onReconnect();
  };
  // The browser gives up on a stream answered with an error (a 401 after
  // the login ended, a 503): open a new one a little later while anyone
  // listens, or the pages would hear nothing again.
  source.onerror = () => {
    if (!source || source.readyState !== EventSource.CLOSED) return;
    source = null;
    setTimeout(() => {
      if (!source && listeners.size) open();
    }, 3000);
  };
}

export function subscribe(listener) {
  listeners.add(listener);
  if (!source) open();
  else if (source.readyState === EventSource.OPEN)
    setTimeout(() => listeners.has(listener) && listener.onReconnect && listener.onReconnect(), 0);
  return () => {
    listeners.delete(listener);
    if (!listeners.size && source) {
      source.close();
      source = null;
    }
  };
}

// Calls onEvent(name, data) for every session event while mounted.
export function useSessionEvents(onEvent, onReconnect) {
  const ref = useRef({});
  ref.current = { onEvent, onReconnect };
  useEffect(
    () =>
      subscribe({
        onEvent: (n, d) => ref.current.onEvent && ref.current.onEvent(n, d),
        onReconnect: () => ref.current.onReconnect && ref.current.onReconnect(),
      }),
    [],
  );
}

// What a lifecycle event says about the session's status.
export const statusOf = {
  session_enqueued: 'PENDING',
  session_scheduled: 'SCHEDULED',
  session_preparing: 'PREPARING',
  session_pulling: 'PULLING',
  session_started: 'RUNNING',
  session_restarting: 'RESTARTING',
  session_terminating: 'TERMINATING',
  session_terminated: 'TERMINATED',
  session_cancelled: 'CANCELLED',
};
