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
import * as environments from './pages/environments.jsx';

const now = (module) => () => Promise.resolve(module);

export const routes = [
  { path: '/', menu: 'nav.dashboard', icon: '◧', role: 'user', load: now(dashboard) },
  { path: '/sessions', menu: 'nav.sessions', icon: '▶', role: 'user', load: now(sessions) },
  { path: '/sessions/new', role: 'user', load: now(launcher) },
  { path: '/sessions/:id', role: 'user', load: now(session) },
  { path: '/sessions/:id/terminal', role: 'user', load: () => import('./pages/terminal.jsx') },
  // The Data pages (folders, their dialogs, the explorer and its uploader)
  // load on first use.
  { path: '/data', menu: 'nav.data', icon: '▣', role: 'user', load: () => import('./pages/data.jsx') },
  { path: '/data/:folder', role: 'user', load: () => import('./pages/explorer.jsx') },
  // Model services and the chat with them: loaded on first use.
  { path: '/serving', menu: 'nav.serving', icon: '⇄', role: 'user', load: () => import('./pages/serving.jsx') },
  { path: '/serving/:id', role: 'user', load: () => import('./pages/service.jsx') },
  // The model store: its cards, and the README renderer, on first use.
  { path: '/model-store', menu: 'nav.model_store', icon: '◈', role: 'user', load: () => import('./pages/model-store.jsx') },
  // Import & Run: a notebook or a repository fetched into a folder.
  { path: '/import', menu: 'nav.import', icon: '⇣', role: 'user', load: () => import('./pages/import.jsx') },
  { path: '/chat', menu: 'nav.chat', icon: '✎', role: 'user', load: () => import('./pages/chat.jsx') },
  { path: '/environments', menu: 'nav.environments', icon: '◫', role: 'user', load: now(environments) },
  { path: '/account', role: 'user', load: now(account) },
  // Charts: uPlot comes with this page's chunk, never on a first load.
  { path: '/statistics', menu: 'nav.statistics', icon: '▤', role: 'user', load: () => import('./pages/statistics.jsx') },
  { path: '/agents', menu: 'nav.agents', icon: '▦', role: 'user', load: () => import('./pages/agents.jsx') },
  // The administrators' pages load on first use: most people never open them.
  { path: '/admin/users', menu: 'nav.users', icon: '☺', role: 'admin', load: () => import('./pages/users.jsx') },
  { path: '/admin/credentials', menu: 'nav.credentials', icon: '⚷', role: 'admin', load: () => import('./pages/credentials.jsx') },
  { path: '/admin/policies', menu: 'nav.policies', icon: '⚖', role: 'admin', load: () => import('./pages/policies.jsx') },
  { path: '/admin/environments', menu: 'nav.admin_environments', icon: '◫', role: 'admin', load: () => import('./pages/admin-environments.jsx') },
  { path: '/admin/scheduler', menu: 'nav.scheduler', icon: '≡', role: 'admin', load: () => import('./pages/scheduler.jsx') },
  // A superadmin's pages: loaded on first use, as few open them.
  { path: '/system/information', menu: 'nav.information', icon: 'ℹ\uFE0E', role: 'superadmin', load: () => import('./pages/information.jsx') },
  { path: '/system/maintenance', menu: 'nav.maintenance', icon: '⟳', role: 'superadmin', load: () => import('./pages/maintenance.jsx') },
  { path: '/system/configurations', menu: 'nav.configurations', icon: '\u2699\uFE0E', role: 'superadmin', load: () => import('./pages/configurations.jsx') },
  { path: '/system/resources', menu: 'nav.resources', icon: '▥', role: 'superadmin', load: () => import('./pages/resources.jsx') },
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
