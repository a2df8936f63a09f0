// main - the UI's entry: who is logged in, the frame around every page, and the
// page the path names.

import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import * as api from './api.js';
import { getLang, languages, setLang, t } from './i18n.js';
import { allowed, prefixRole, routes } from './pages.js';
import { match, navigate, onLinkClick, useLocation } from './router.js';
import { AppContext, ErrorNote, Loading } from './ui/common.jsx';
import { Login } from './pages/login.jsx';
// The terminal's and the charts' own sheets ride in app.css: a lazily loaded
// chunk's CSS would not be loaded with it.
import 'xterm/css/xterm.css';
import 'uplot/dist/uPlot.min.css';
import './style.css';

// The projects (groups) of the person, for the project selector.
async function loadProjects(me) {
  const data = await api.gql(
    'query($email: String) { user(email: $email) { groups { id name } } }',
    { email: me.email },
  );
  return (data.user && data.user.groups) || [];
}

function Page({ loc, me }) {
  const found = useMemo(() => {
    for (const route of routes) {
      const params = match(route.path, loc.path);
      if (params) return { route, params };
    }
    return null;
  }, [loc.path]);
  const [module, setModule] = useState(null);
  const [error, setError] = useState(null);
  useEffect(() => {
    setModule(null);
    setError(null);
    if (found && allowed(found.route, me.role))
      found.route.load().then((m) => setModule(() => m.default), setError);
  }, [found]);
  if (!found) {
    const needs = prefixRole(loc.path);
    if (!allowed({ role: needs }, me.role)) return <Forbidden />;
    return (
      <section class="page">
        <h1>{t('page.not_found')}</h1>
        <p>{t('page.not_found_text')}</p>
      </section>
    );
  }
  if (!allowed(found.route, me.role)) return <Forbidden />;
  if (error) return <ErrorNote error={error} />;
  if (!module) return <Loading />;
  const Component = module;
  return <Component params={found.params} query={loc.query} />;
}

function Forbidden() {
  return (
    <section class="page">
      <h1>{t('page.forbidden')}</h1>
      <p>{t('page.forbidden_text')}</p>
    </section>
  );
}

function Frame({ me, onLogout, lang, onLang }) {
  const loc = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [userOpen, setUserOpen] = useState(false);
  const [projects, setProjects] = useState([]);
  const [project, setProject] = useState(localStorage.getItem('backplane.project') || '');
  const [down, setDown] = useState(false);
  const [notice, setNotice] = useState(null);

  useEffect(() => {
    loadProjects(me).then((list) => {
      setProjects(list);
      if (!list.find((p) => p.name === project) && list.length) setProject(list[0].name);
    }, () => {});
  }, [me.email]);
  useEffect(() => {
    if (project) localStorage.setItem('backplane.project', project);
  }, [project]);

  // The gateway unreachable: say so, look again every few seconds, and take the
  // banner back when it answers (any page's next call also does).
  useEffect(() => api.onHealth((ok) => setDown(!ok)), []);
  useEffect(() => {
    if (!down) return;
    const timer = setInterval(() => api.loginCheck().catch(() => {}), 3000);
    return () => clearInterval(timer);
  }, [down]);
  useEffect(() => setMenuOpen(false), [loc.path]);

  const notify = (text, kind = 'info') => {
    setNotice({ text, kind, at: Date.now() });
  };
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 5000);
    return () => clearTimeout(timer);
  }, [notice]);

  const ctx = { me, projects, project, setProject, notify };
  const menu = routes.filter((r) => r.menu && allowed(r, me.role));
  const sections = [
    ['user', menu.filter((r) => r.role === 'user')],
    ['admin', menu.filter((r) => r.role !== 'user')],
  ];
  const active = (path) => (path === '/' ? loc.path === '/' : loc.path === path || loc.path.startsWith(path + '/'));

  return (
    <AppContext.Provider value={ctx}>
      <div class={'frame' + (menuOpen ? ' menu-open' : '')} onClick={onLinkClick}>
        <a class="skip" href="#main">
          {t('frame.skip')}
        </a>
        <header class="top">
          <button type="button" class="icon menu-toggle" aria-label={t('frame.menu')} aria-expanded={menuOpen} onClick={() => setMenuOpen(!menuOpen)}>
            ☰
          </button>
          <a class="brand" href="/">
            Backplane
          </a>
          <label class="project">
            <span class="sr-only">{t('frame.project')}</span>
            <select value={project} onChange={(e) => setProject(e.target.value)} aria-label={t('frame.project')}>
              {projects.map((p) => (
                <option value={p.name} key={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <label class="lang">
            <span class="sr-only">{t('frame.language')}</span>
            <select value={lang} onChange={(e) => onLang(e.target.value)} aria-label={t('frame.language')}>
              {languages.map(([code, name]) => (
                <option value={code} key={code}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <div class="user-menu">
            <button type="button" class="user-button" aria-haspopup="menu" aria-expanded={userOpen} onClick={() => setUserOpen(!userOpen)}>
              {me.email}
            </button>
            {userOpen && (
              <ul role="menu" onClick={() => setUserOpen(false)}>
                <li role="none">
                  <a role="menuitem" href="/account">
                    {t('nav.account')}
                  </a>
                </li>
                <li role="none">
                  <button type="button" role="menuitem" onClick={onLogout}>
                    {t('action.logout')}
                  </button>
                </li>
              </ul>
            )}
          </div>
        </header>
        <nav class="side" aria-label={t('frame.menu')}>
          {sections.map(([name, items]) =>
            items.length ? (
              <ul key={name} aria-label={t('nav.section.' + name)}>
                {name !== 'user' && <li class="section">{t('nav.section.' + name)}</li>}
                {items.map((r) => (
                  <li key={r.path}>
                    <a href={r.path} aria-current={active(r.path) ? 'page' : undefined}>
                      <span aria-hidden="true" class="nav-icon">
                        {r.icon}
                      </span>
                      {t(r.menu)}
                    </a>
                  </li>
                ))}
              </ul>
            ) : null,
          )}
        </nav>
        <main id="main" tabIndex="-1">
          {down && (
            <div class="note error banner" role="alert">
              {t('error.unreachable_banner')}
            </div>
          )}
          {notice && (
            <div class={'note toast ' + notice.kind} role="status">
              {notice.text}
            </div>
          )}
          <Page loc={loc} me={me} key={loc.path} />
        </main>
      </div>
    </AppContext.Provider>
  );
}

function App() {
  const [me, setMe] = useState(undefined); // undefined: asking; null: not logged in
  const [error, setError] = useState(null);
  const [lang, setLangState] = useState(getLang());

  const check = () =>
    api.loginCheck().then(
      (r) => {
        setError(null);
        setMe(r.authenticated ? r.data : null);
      },
      (e) => {
        setError(e);
        setTimeout(check, 3000);
      },
    );
  useEffect(() => {
    check();
  }, []);

  const onLang = (code) => {
    setLang(code);
    setLangState(code);
  };
  const onLogout = async () => {
    try {
      await api.logout();
    } finally {
      setMe(null);
      navigate('/', { replace: true });
    }
  };

  if (me === undefined)
    return error ? (
      <div class="center">
        <ErrorNote error={error} />
      </div>
    ) : (
      <div class="center">
        <Loading />
      </div>
    );
  if (!me) return <Login key={lang} onLogin={(data) => setMe(data)} lang={lang} onLang={onLang} />;
  return <Frame key={lang} me={me} onLogout={onLogout} lang={lang} onLang={onLang} />;
}

render(<App />, document.getElementById('app'));
