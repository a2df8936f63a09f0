// images - the image catalogue as both environment pages show it: the query,
// the reference the launcher and the mutations take, and the table.

import * as api from '../api.js';
import { t } from '../i18n.js';
import { bytes, slot, slotName } from './format.js';

const FIELDS = `id reference registry name tag architecture aliases size_bytes installed
  supported_accelerators resource_limits { key min max }`;

// Every image the caller may use (a superadmin: every image), installed or not.
export async function listImages() {
  const data = await api.gql(`query { images { ${FIELDS} } }`);
  return data.images || [];
}

// "local.backplane/library/busybox:latest": what the launcher's image list and
// the alias and forget mutations name an image by.
export function imageRef(img) {
  return `${img.registry}/${img.name}:${img.tag}`;
}

// "busybox:latest": the last part of the name, as people know it.
export function shortName(img) {
  const parts = img.name.split('/');
  return `${parts[parts.length - 1]}:${img.tag}`;
}

// The minimums an image declares (its ai.backend.resource.min.* labels), as
// "CPU 1 · Memory 64 MiB".
export function minimumsText(img) {
  return (img.resource_limits || [])
    .filter((l) => l.min !== null && l.min !== undefined && l.min !== '' && Number(l.min) !== 0)
    .map((l) => `${slotName(l.key)} ${slot(l.key, l.min)}`)
    .join(' · ');
}

// The images whose name, tag or alias holds the text.
export function matching(images, text) {
  const needle = text.trim().toLowerCase();
  if (!needle) return images;
  return images.filter((img) =>
    [imageRef(img), ...(img.aliases || [])].some((s) => s.toLowerCase().includes(needle)),
  );
}

// The table of images; controls(img) renders the last cell of a row when given.
export function ImageTable({ images, controls, controlsLabel }) {
  if (!images.length) return <p class="empty">{t('envs.none')}</p>;
  return (
    <div class="table-wrap">
      <table class="images">
        <thead>
          <tr>
            <th scope="col">{t('envs.name')}</th>
            <th scope="col">{t('envs.aliases')}</th>
            <th scope="col">{t('envs.architecture')}</th>
            <th scope="col">{t('envs.size')}</th>
            <th scope="col">{t('envs.minimums')}</th>
            <th scope="col">{t('envs.accelerators')}</th>
            <th scope="col">{t('envs.installed')}</th>
            {controls && (
              <th scope="col">
                <span class="sr-only">{controlsLabel || t('sessions.controls')}</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {images.map((img) => (
            <tr key={img.id} data-image={imageRef(img)}>
              <td>
                <strong>{shortName(img)}</strong>
                <div class="muted small">{img.registry + '/' + img.name}</div>
              </td>
              <td>
                {(img.aliases || []).length ? (
                  <ul class="tags">
                    {img.aliases.map((a) => (
                      <li key={a}>
                        <code>{a}</code>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <span class="muted">—</span>
                )}
              </td>
              <td>{img.architecture}</td>
              <td class="num">{img.size_bytes ? bytes(img.size_bytes) : '—'}</td>
              <td class="small">{minimumsText(img) || '—'}</td>
              <td>{(img.supported_accelerators || []).join(', ') || <span class="muted">—</span>}</td>
              <td>
                <span class={'status ' + (img.installed ? 'status-running' : '')}>
                  {img.installed ? t('envs.installed_yes') : t('envs.installed_no')}
                </span>
              </td>
              {controls && <td class="controls">{controls(img)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
