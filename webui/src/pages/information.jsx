// information - what this installation is: the versions the gateway answers on
// GET /, every service's health from /healthz (one line per service peer, as
// the gateway's fan-out over the bus found it), the licence, and this web UI's
// version and what its build costs (sizes.json, written by webui/build.mjs).

/* global __WEBUI_VERSION__, __WEBUI_LIBRARIES__ */
import * as api from '../api.js';
import { t } from '../i18n.js';
import { Loaded, useLoad } from '../ui/common.jsx';
import { bytes, duration } from '../ui/format.js';

export default function Information() {
  const versions = useLoad(() => api.get('/'), []);
  const health = useLoad(() => api.healthz(), []);
  const sizes = useLoad(() => api.uiFile('sizes.json'), []);
  return (
    <section class="page">
      <h1>{t('nav.information')}</h1>
      <div class="grid2">
        <section class="card" aria-labelledby="ver-title">
          <h2 id="ver-title">{t('info.versions')}</h2>
          <Loaded state={versions}>
            {(v) => (
              <dl class="facts">
                <dt>{t('info.backplane')}</dt>
                <dd>{v.backplane}</dd>
                <dt>{t('info.api')}</dt>
                <dd>{v.version}</dd>
                <dt>{t('info.manager')}</dt>
                <dd>{v.manager}</dd>
                <dt>{t('info.webui')}</dt>
                <dd>{__WEBUI_VERSION__}</dd>
              </dl>
            )}
          </Loaded>
        </section>
        <section class="card" aria-labelledby="lic-title">
          <h2 id="lic-title">{t('info.licence')}</h2>
          <p>{t('info.licence_text')}</p>
          <p>{t('info.libraries')}</p>
          <ul class="libraries">
            {__WEBUI_LIBRARIES__.map((l) => (
              <li key={l.name}>
                {l.name} {l.version} ({l.license})
              </li>
            ))}
          </ul>
          <Loaded state={sizes}>
            {(s) => {
              const notices = Object.keys(s.files).filter((f) => f.endsWith('.LEGAL.txt'));
              return notices.length ? (
                <p>
                  {t('info.notices')}{' '}
                  {notices.map((f) => (
                    <a key={f} href={'/' + f} target="_blank" rel="noopener">
                      {f}
                    </a>
                  ))}
                </p>
              ) : null;
            }}
          </Loaded>
        </section>
      </div>
      <section aria-labelledby="health-title">
        <div class="section-head">
          <h2 id="health-title">{t('info.health')}</h2>
          <button type="button" onClick={health.reload}>
            {t('action.refresh')}
          </button>
        </div>
        <Loaded state={health}>{(h) => <Health h={h} />}</Loaded>
      </section>
      <section aria-labelledby="build-title">
        <h2 id="build-title">{t('info.build')}</h2>
        <Loaded state={sizes}>{(s) => <Sizes s={s} />}</Loaded>
      </section>
    </section>
  );
}

function Health({ h }) {
  const services = [...(h.services || [])].sort((a, b) => a.service.localeCompare(b.service) || a.node.localeCompare(b.node));
  return (
    <>
      <p class={'note ' + (h.status === 'ok' && h.ready ? 'ok' : 'error')} role="status">
        {h.status === 'ok' && h.ready ? t('info.all_ok') : t('info.degraded')}
        {(h.missing || []).length > 0 && ' ' + t('info.missing', { list: h.missing.join(', ') })}
        {(h.waiting || []).length > 0 && ' ' + t('info.waiting', { list: h.waiting.join(', ') })}
      </p>
      <div class="table-wrap">
        <table class="health">
          <thead>
            <tr>
              <th scope="col">{t('info.service')}</th>
              <th scope="col">{t('info.node')}</th>
              <th scope="col">{t('info.state')}</th>
              <th scope="col">{t('info.version')}</th>
              <th scope="col">{t('info.uptime')}</th>
              <th scope="col">{t('info.latency')}</th>
            </tr>
          </thead>
          <tbody>
            {services.map((s) => (
              <tr key={s.service + '/' + s.node + '/' + s.rpc} data-service={s.service}>
                <th scope="row">{s.service}</th>
                <td>{s.node}</td>
                <td>
                  <span class={'status ' + (s.status === 'up' ? 'status-running' : 'status-error')}>
                    {s.status === 'up' ? t('info.ok') : s.status}
                  </span>
                  {s.error && <div class="small">{s.error}</div>}
                </td>
                <td>{s.version || (s.service === 'gateway' ? h.version : '—')}</td>
                <td>{s.uptime_ms !== undefined ? duration(s.uptime_ms) : '—'}</td>
                <td>{s.latency_ms !== undefined ? `${s.latency_ms} ms` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Sizes({ s }) {
  const first = s.first_load || {};
  const files = Object.entries(s.files).filter(([f]) => !f.endsWith('.LEGAL.txt'));
  return (
    <>
      <dl class="facts">
        <dt>{t('info.first_js')}</dt>
        <dd>{bytes(first.js_gzip)}</dd>
        <dt>{t('info.first_css')}</dt>
        <dd>{bytes(first.css_gzip)}</dd>
        <dt>{t('info.first_html')}</dt>
        <dd>{bytes(first.html_gzip)}</dd>
      </dl>
      <details>
        <summary>{t('info.files', { n: files.length })}</summary>
        <div class="table-wrap">
          <table class="sizes">
            <thead>
              <tr>
                <th scope="col">{t('info.file')}</th>
                <th scope="col">{t('info.bytes')}</th>
                <th scope="col">{t('info.gzip')}</th>
              </tr>
            </thead>
            <tbody>
              {files.map(([f, v]) => (
                <tr key={f}>
                  <td>
                    <code>{f}</code>
                  </td>
                  <td>{bytes(v.bytes)}</td>
                  <td>{bytes(v.gzip)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
