// limits - limits as people edit and read them: a field with a "no limit"
// clear (empty means no limit), resource slots edited one slot at a time with
// memory in units, and the words for a limit in a table.

import { t } from '../i18n.js';
import { bytes, duration, slotName } from './format.js';

const INFINITE = /^inf(inite|inity)?$/i;
const UNITS = [
  ['p', 2 ** 50],
  ['t', 2 ** 40],
  ['g', 2 ** 30],
  ['m', 2 ** 20],
  ['k', 2 ** 10],
];

// Bytes as the shortest exact text ("8g", "512m", "1000000"): an untouched
// field written back must keep its value to the byte.
export function bytesInput(n) {
  n = Number(n);
  if (!isFinite(n) || n <= 0) return String(n);
  for (const [unit, scale] of UNITS) if (n % scale === 0) return n / scale + unit;
  return String(n);
}

// "8g", "8 GiB", "512m", "1073741824" -> bytes; NaN when it is none of those.
export function parseSize(text) {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgtp]?)(i?b)?\s*$/i.exec(String(text));
  if (!m) return NaN;
  const scale = m[2] ? UNITS.find(([u]) => u === m[2].toLowerCase())[1] : 1;
  return Math.round(parseFloat(m[1]) * scale);
}

// One limit: its input and a button that clears it to "no limit".
// kind: 'count' (a decimal, for slots), 'int', 'seconds' or 'bytes'.
export function LimitField({ id, label, kind, value, onInput, noLimit = true }) {
  const hint = kind === 'bytes' ? t('limit.bytes_hint') : kind === 'seconds' && value && isFinite(value) ? duration(Number(value) * 1000) : '';
  return (
    <div class="field limit">
      <label for={id}>{label}</label>
      <div class="limit-row">
        <input
          id={id}
          type="text"
          inputMode={kind === 'bytes' ? 'text' : kind === 'count' ? 'decimal' : 'numeric'}
          value={value}
          placeholder={noLimit ? t('limit.none') : ''}
          onInput={(e) => onInput(e.target.value)}
        />
        {noLimit && (
          <button type="button" class="small" disabled={value === ''} onClick={() => onInput('')} aria-label={t('limit.clear_named', { name: label })}>
            {t('limit.clear')}
          </button>
        )}
      </div>
      {hint && <small>{hint}</small>}
    </div>
  );
}

// The slots of a policy, one LimitField each: those the platform knows
// (/config/resource-slots, {name: 'count'|'bytes'}) and any other the policy
// already names, so none is lost by an edit. id prefixes the inputs' ids.
export function SlotsEditor({ id, legend, kinds, value, onChange }) {
  const names = [...new Set([...Object.keys(kinds), ...Object.keys(value)])];
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div class="row">
        {names.map((name) => (
          <LimitField
            key={name}
            id={`${id}-${name}`}
            label={slotName(name) + (kinds[name] === 'bytes' ? '' : name === 'cpu' ? ` (${t('limit.cores')})` : '')}
            kind={kinds[name] === 'bytes' ? 'bytes' : 'count'}
            value={value[name] ?? ''}
            onInput={(text) => onChange({ ...value, [name]: text })}
          />
        ))}
      </div>
    </fieldset>
  );
}

const isBytes = (kinds, name) => kinds[name] === 'bytes' || name === 'mem' || name.endsWith('.mem');

// A stored slot map as the editor's texts: '' for no limit. Under
// default_for_unspecified LIMITED a slot the map leaves out allows none.
export function slotTexts(stored, kinds, limited) {
  const texts = {};
  for (const name of new Set([...Object.keys(kinds), ...Object.keys(stored)])) {
    const v = stored[name];
    if (v === undefined || v === null) texts[name] = limited ? '0' : '';
    else if (INFINITE.test(String(v))) texts[name] = '';
    else texts[name] = isBytes(kinds, name) ? bytesInput(v) : String(v);
  }
  return texts;
}

// The editor's texts as the map to store: an empty slot is left out (no limit),
// or "Infinity" where a left-out slot would allow none. Throws an Error that
// names the slot when a text is not an amount.
export function slotMap(texts, kinds, limited) {
  const out = {};
  for (const [name, raw] of Object.entries(texts)) {
    const text = String(raw).trim();
    if (!text) {
      if (limited) out[name] = 'Infinity';
      continue;
    }
    if (isBytes(kinds, name)) {
      const n = parseSize(text);
      if (!isFinite(n)) throw new Error(t('limit.bad_size', { name: slotName(name), text }));
      out[name] = String(n);
    } else {
      const n = Number(text);
      if (!isFinite(n) || n < 0) throw new Error(t('limit.bad_amount', { name: slotName(name), text }));
      out[name] = text;
    }
  }
  return out;
}

// One slot's limit for people: ∞ for no limit, memory in units.
export function slotAmount(name, v) {
  return INFINITE.test(String(v)) ? '∞' : name === 'mem' || name.endsWith('.mem') ? bytes(v) : String(v);
}

// A slot map for a table cell: "CPU 4 · Memory 8 GiB".
export function slotsSummary(stored, limited) {
  const parts = Object.entries(stored).map(([name, v]) => `${slotName(name)} ${slotAmount(name, v)}`);
  if (!parts.length) return limited ? t('limit.nothing') : t('limit.none');
  return parts.join(' · ');
}

// An integer limit for a table cell; at or below zero, or null, is no limit.
export function limitText(value, kind) {
  if (value === null || value === undefined || Number(value) <= 0) return t('limit.none');
  if (kind === 'bytes') return bytes(value);
  if (kind === 'seconds') return duration(Number(value) * 1000);
  return String(value);
}

// A limit's editor text: '' for no limit.
export function limitInput(value, kind) {
  if (value === null || value === undefined || Number(value) <= 0) return '';
  return kind === 'bytes' ? bytesInput(value) : String(value);
}

// An editor text as the integer to store: '' is none (the field's "no limit"
// value); throws an Error naming the field when it is not a whole number.
export function limitValue(text, kind, none, label) {
  const s = String(text).trim();
  if (!s) return none;
  const n = kind === 'bytes' ? parseSize(s) : Number(s);
  if (!Number.isInteger(n) || n < 0) throw new Error(t(kind === 'bytes' ? 'limit.bad_size' : 'limit.bad_amount', { name: label, text: s }));
  return n;
}
