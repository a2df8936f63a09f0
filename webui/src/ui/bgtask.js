// bgtask - follows one of the gateway's background tasks on
// /events/background-task: onUpdate({current, total, message}) while it runs,
// then onEnd({result, message}) once, result 'done', 'failed', 'cancelled' or
// 'lost' (the stream broke before the end). Returns a function that stops
// following.

import * as api from '../api.js';

const FINAL = { bgtask_done: 'done', bgtask_failed: 'failed', bgtask_cancelled: 'cancelled' };

export function followTask(id, onUpdate, onEnd) {
  let es = new EventSource('/func/events/background-task' + api.qs({ task_id: id }));
  const close = () => {
    if (es) es.close();
    es = null;
  };
  const read = (e) => {
    try {
      return JSON.parse(e.data);
    } catch (err) {
      return {};
    }
  };
  es.addEventListener('bgtask_updated', (e) => {
    const d = read(e);
    onUpdate({ current: d.current_progress || 0, total: d.total_progress || 0, message: d.message || '' });
  });
  for (const name of Object.keys(FINAL))
    es.addEventListener(name, (e) => {
      const d = read(e);
      close();
      onEnd({ result: FINAL[name], message: d.message || '' });
    });
  es.addEventListener('server_close', close);
  es.onerror = () => {
    if (!es) return;
    close();
    onEnd({ result: 'lost', message: '' });
  };
  return close;
}
