// router - the UI's own paths (/sessions, /data/folder) on the History API.
//
// The web listener answers index.html for any path whose last segment has no dot,
// so every route can be loaded, bookmarked and reloaded. One listener set, one
// current location; components re-render through useLocation().

import { useEffect, useState } from 'preact/hooks';

const listeners = new Set();

function current() {
  return { path: location.pathname, query: new URLSearchParams(location.search) };
}

export function navigate(to, { replace = false } = {}) {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  for (const fn of listeners) fn(current());
}

window.addEventListener('popstate', () => {
  for (const fn of listeners) fn(current());
});

export function useLocation() {
  const [loc, setLoc] = useState(current);
  useEffect(() => {
    listeners.add(setLoc);
    return () => listeners.delete(setLoc);
  }, []);
  return loc;
}

// A click on an <a> with a local href moves without a reload, unless the person
// asked for a new tab or window.
export function onLinkClick(event) {
  const a = event.target.closest && event.target.closest('a[href]');
  if (!a || a.target || a.hasAttribute('download')) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const href = a.getAttribute('href');
  if (!href.startsWith('/') || href.startsWith('//') || href.startsWith('/func/')) return;
  event.preventDefault();
  navigate(href);
}

// Matches a path against a pattern with :params ("/sessions/:id").
export function match(pattern, path) {
  const trim = (x) => x.replace(/\/+$/, '') || '/';
  const p = trim(pattern).split('/'), s = trim(path).split('/');
  if (p.length !== s.length) return null;
  const params = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}
