// pages - the route table: each page's path, its menu entry, and who may open it.
//
// role is the least role that may: 'user', 'admin' (domain administrators and
// above) or 'superadmin'. The menu shows only what the person's role allows, and
// the web listener answers 403 for /admin/* below admin and /system/* below
// superadmin, so a page a role may not use is neither shown nor served.
// load() imports the page's module; the heavy ones (the terminal's emulator,
// the charts) become chunks of their own that load on first use.

import * as dashboard from './pages/dashboard.jsx';
import * as sessions from './pages/sessions.jsx';
import * as launcher from './pages/launcher.jsx';
import * as session from './pages/session.jsx';
import * as account from './pages/account.jsx';

const now = (module) => () => Promise.resolve(module);

export const routes = [
  { path: '/', menu: 'nav.dashboard', icon: '◧', role: 'user', load: now(dashboard) },
  { path: '/sessions', menu: 'nav.sessions', icon: '▶', role: 'user', load: now(sessions) },
  { path: '/sessions/new', role: 'user', load: now(launcher) },
  { path: '/sessions/:id', role: 'user', load: now(session) },
  { path: '/sessions/:id/terminal', role: 'user', load: () => import('./pages/terminal.jsx') },
  // The Data pages (folders, their dialogs, the explorer and its uploader)
  // load on first use.
  { path: '/data', menu: 'nav.data', icon: '▤', role: 'user', load: () => import('./pages/data.jsx') },
  { path: '/data/:folder', role: 'user', load: () => import('./pages/explorer.jsx') },
  { path: '/account', role: 'user', load: now(account) },
];

const rank = { user: 0, admin: 1, superadmin: 2 };

export function allowed(route, role) {
  return (rank[role] ?? 0) >= rank[route.role];
}

// The least role a path needs by its prefix, as the web listener decides it.
export function prefixRole(path) {
  if (path === '/system' || path.startsWith('/system/')) return 'superadmin';
  if (path === '/admin' || path.startsWith('/admin/')) return 'admin';
  return 'user';
}
