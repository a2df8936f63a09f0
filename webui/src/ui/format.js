// format - numbers, sizes, times and resource slots as people read them.

import { t } from '../i18n.js';

export function bytes(n) {
  n = Number(n);
  if (!isFinite(n)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let i = 0;
  while (Math.abs(n) >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return (i === 0 ? n.toFixed(0) : n.toFixed(n < 10 ? 2 : n < 100 ? 1 : 0)) + ' ' + units[i];
}

// "3g", "512m", "1073741824" -> bytes
export function parseBytes(text) {
  const m = /^\s*([0-9.]+)\s*([kmgtp]?)i?b?\s*$/i.exec(String(text));
  if (!m) return NaN;
  const scale = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40, p: 2 ** 50 }[m[2].toLowerCase()];
  return Math.round(parseFloat(m[1]) * scale);
}

export function duration(ms) {
  if (!isFinite(ms) || ms < 0) return '—';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${m}m`;
  if (m) return `${m}m ${s % 60}s`;
  return `${s % 60}s`;
}

export function when(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return isNaN(d) ? String(iso) : d.toLocaleString();
}

// A slot's amount for people: memory in bytes, CPU in cores, the rest as numbers.
export function slot(name, value) {
  if (value === undefined || value === null || value === '') return '—';
  if (name === 'mem' || name.endsWith('.mem') || name === 'shmem') return bytes(value);
  const n = Number(value);
  if (!isFinite(n)) return String(value);
  return String(Math.round(n * 100) / 100);
}

export function slotName(name) {
  const key = 'slot.' + name;
  const text = t(key);
  return text === key ? name : text;
}

// occupied_slots arrive as a JSON string or an object.
export function slots(value) {
  if (!value) return {};
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) || {};
    } catch (e) {
      return {};
    }
  }
  return value;
}

export function slotsText(value) {
  const s = slots(value);
  return Object.keys(s)
    .filter((k) => Number(s[k]) !== 0)
    .map((k) => `${slotName(k)} ${slot(k, s[k])}`)
    .join(' · ');
}
