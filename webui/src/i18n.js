// i18n - the UI's words, from one catalogue (strings.js), in the person's language.
//
// t('key', {n: 3}) looks the key up in the chosen language, falls back to English,
// and fills {name} placeholders. The choice is kept in localStorage; the frame
// re-renders everything when it changes.

import { catalogue } from './strings.js';

export const languages = [
  ['en', 'English'],
  ['ko', '한국어'],
  ['ja', '日本語'],
];

function initial() {
  const saved = localStorage.getItem('backplane.lang');
  if (saved && catalogue[saved]) return saved;
  const nav = (navigator.language || 'en').slice(0, 2);
  return catalogue[nav] ? nav : 'en';
}

let lang = initial();
document.documentElement.lang = lang;

export function getLang() {
  return lang;
}

export function setLang(next) {
  if (!catalogue[next]) return;
  lang = next;
  localStorage.setItem('backplane.lang', next);
  document.documentElement.lang = next;
}

export function t(key, params) {
  let text = (catalogue[lang] && catalogue[lang][key]) ?? catalogue.en[key];
  if (text === undefined) return key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  return text;
}
