// terminal - a shell in the session, in the browser: xterm.js over the
// gateway's terminal WebSocket (GET /stream/session/{id}/pty), keystrokes and
// output base64 in JSON messages, the size following the window.

import { useEffect, useRef, useState } from 'preact/hooks';
import { Terminal } from 'xterm';
import { FitAddon } from 'xterm-addon-fit';
import { t } from '../i18n.js';
import { Status } from '../ui/common.jsx';

const encoder = new TextEncoder();
const decoder = () => new TextDecoder('utf-8', { fatal: false });

function toBase64(bytes) {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

function fromBase64(text) {
  const bin = atob(text);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

export default function TerminalPage({ params }) {
  const host = useRef(null);
  const [state, setState] = useState('CONNECTING');
  const [message, setMessage] = useState('');

  useEffect(() => {
    const term = new Terminal({ cursorBlink: true, fontSize: 14, convertEol: false, scrollback: 5000 });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.open(host.current);
    fit.fit();
    term.focus();
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/func/stream/session/${encodeURIComponent(params.id)}/pty`);
    const utf8 = decoder();
    const send = (message) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(message));
    const resize = () => {
      fit.fit();
      send({ type: 'resize', rows: term.rows, cols: term.cols });
    };
    ws.onopen = () => {
      setState('RUNNING');
      resize();
    };
    ws.onmessage = (e) => {
      let m;
      try {
        m = JSON.parse(e.data);
      } catch (err) {
        return;
      }
      if (m.type === 'out') term.write(utf8.decode(fromBase64(m.data), { stream: true }));
      else if (m.type === 'error') setMessage(m.data);
    };
    ws.onclose = (e) => {
      setState('TERMINATED');
      if (e.reason) setMessage(e.reason);
    };
    const input = term.onData((data) => send({ type: 'stdin', chars: toBase64(encoder.encode(data)) }));
    const binary = term.onBinary((data) => send({ type: 'stdin', chars: btoa(data) }));
    window.addEventListener('resize', resize);
    const ping = setInterval(() => send({ type: 'ping' }), 30000);
    return () => {
      clearInterval(ping);
      window.removeEventListener('resize', resize);
      input.dispose();
      binary.dispose();
      ws.close();
      term.dispose();
    };
  }, [params.id]);

  return (
    <section class="page terminal-page">
      <div class="page-head">
        <h1>
          {t('terminal.title')} <Status status={state === 'CONNECTING' ? 'PREPARING' : state} />
        </h1>
        <a class="button" href={`/sessions/${params.id}`}>
          {t('terminal.back')}
        </a>
      </div>
      {message && (
        <div class="note error" role="alert">
          {message}
        </div>
      )}
      <div class="terminal" ref={host} aria-label={t('terminal.title')} />
    </section>
  );
}
