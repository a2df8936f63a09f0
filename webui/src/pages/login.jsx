// login - email and password, as Backend.AI's web UI logs in (POST /server/login
// sets an HttpOnly cookie that authenticates every later call).

import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { languages, t } from '../i18n.js';
import { ErrorNote, Field } from '../ui/common.jsx';

export function Login({ onLogin, lang, onLang }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await api.login(email.trim(), password);
      const check = await api.loginCheck();
      onLogin(check.data);
    } catch (e) {
      setError(e.status === 429 ? { ...e, title: '', detail: t('login.too_many') } : e);
      setBusy(false);
    }
  };

  return (
    <div class="login">
      <form class="card" onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">Backplane</h1>
        <p class="muted">{t('login.welcome')}</p>
        <Field label={t('login.email')}>
          {(id) => <input id={id} name="username" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label={t('login.password')}>
          {(id) => <input id={id} name="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.target.value)} />}
        </Field>
        <ErrorNote error={error} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('login.busy') : t('login.submit')}
        </button>
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
      </form>
    </div>
  );
}
