// login - email and password, as Backend.AI's web UI logs in, or an access key
// with its secret key (POST /server/login sets an HttpOnly cookie that
// authenticates every later call; the keys are not kept by the page).

import { useState } from 'preact/hooks';
import * as api from '../api.js';
import { languages, t } from '../i18n.js';
import { ErrorNote, Field } from '../ui/common.jsx';

export function Login({ onLogin, lang, onLang }) {
  const [byKey, setByKey] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [accessKey, setAccessKey] = useState('');
  const [secretKey, setSecretKey] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await api.login(byKey ? { access_key: accessKey.trim(), secret_key: secretKey.trim() } : { username: email.trim(), password });
      setSecretKey('');
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
        <p class="muted">{byKey ? t('login.welcome_key') : t('login.welcome')}</p>
        {byKey ? (
          <>
            <Field label={t('login.access_key')}>
              {(id) => <input id={id} name="access_key" autocomplete="username" spellcheck={false} required value={accessKey} onInput={(e) => setAccessKey(e.target.value)} />}
            </Field>
            <Field label={t('login.secret_key')}>
              {(id) => <input id={id} name="secret_key" type="password" autocomplete="current-password" required value={secretKey} onInput={(e) => setSecretKey(e.target.value)} />}
            </Field>
          </>
        ) : (
          <>
            <Field label={t('login.email')}>
              {(id) => <input id={id} name="username" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.target.value)} />}
            </Field>
            <Field label={t('login.password')}>
              {(id) => <input id={id} name="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.target.value)} />}
            </Field>
          </>
        )}
        <ErrorNote error={error} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('login.busy') : t('login.submit')}
        </button>
        <button
          type="button"
          class="link switch"
          onClick={() => {
            setByKey(!byKey);
            setError(null);
          }}
        >
          {byKey ? t('login.use_password') : t('login.use_key')}
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
