// build.mjs - bundles the UI into OUTDIR: index.html, app.js and app.css with
// the chunks that load on first use, each with a gzip sibling the web listener
// serves to browsers that take gzip; and sizes.json, what a first load costs.
//
//   node webui/build.mjs OUTDIR NODE_MODULES
//
// It refuses a t('key') in the sources that the English catalogue lacks, so
// English stays complete.

import { gzipSync } from 'node:zlib';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [outdir, modules] = process.argv.slice(2);
if (!outdir || !modules) {
  console.error('usage: node build.mjs OUTDIR NODE_MODULES');
  process.exit(2);
}
// esbuild from the npm install the Makefile made (build/npm-webui), not from
// a node_modules beside this file.
const { build } = createRequire(path.join(path.resolve(modules), 'noop.js'))('esbuild');

// Every key a source asks for by a literal exists in English.
const { catalogue } = await import(pathToFileURL(path.join(here, 'src/strings.js')));
const missing = [];
const walk = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (/\.(jsx?|mjs)$/.test(entry.name) && entry.name !== 'strings.js' && entry.name !== 'i18n.js') {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\bt\(\s*'([^']+)'\s*[,)]/g))
        if (!(m[1] in catalogue.en)) missing.push(`${path.relative(here, file)}: ${m[1]}`);
    }
  }
};
walk(path.join(here, 'src'));
if (missing.length) {
  console.error('webui: keys missing from the English catalogue:\n  ' + missing.join('\n  '));
  process.exit(1);
}

// The UI's version and its libraries with their licences (package.json and
// theirs), for its Information page.
const pkg = JSON.parse(fs.readFileSync(path.join(here, 'package.json'), 'utf8'));
const libraries = Object.keys(pkg.dependencies || {}).map((name) => {
  const lib = JSON.parse(fs.readFileSync(path.join(modules, name, 'package.json'), 'utf8'));
  return { name, version: lib.version, license: lib.license || 'see its package' };
});

const tmp = outdir + '.tmp';
fs.rmSync(tmp, { recursive: true, force: true });
fs.mkdirSync(tmp, { recursive: true });
const result = await build({
  entryPoints: { app: path.join(here, 'src/main.jsx') },
  bundle: true,
  splitting: true,
  format: 'esm',
  minify: true,
  sourcemap: false,
  target: ['chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  define: { __WEBUI_VERSION__: JSON.stringify(pkg.version), __WEBUI_LIBRARIES__: JSON.stringify(libraries) },
  nodePaths: [modules],
  outdir: tmp,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  loader: { '.woff2': 'file', '.woff': 'file', '.svg': 'file' },
  metafile: true,
  logLevel: 'warning',
  legalComments: 'linked',
});
fs.copyFileSync(path.join(here, 'index.html'), path.join(tmp, 'index.html'));

// gzip siblings, and what the first load costs (app.js and what it imports
// statically, app.css, index.html), compressed.
const sizes = { files: {}, first_load: { js_gzip: 0, css_gzip: 0, html_gzip: 0 } };
const gzipAll = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) gzipAll(file);
    else if (/\.(js|css|html|txt)$/.test(entry.name)) {
      const raw = fs.readFileSync(file);
      const gz = gzipSync(raw, { level: 9 });
      fs.writeFileSync(file + '.gz', gz);
      sizes.files[path.relative(tmp, file)] = { bytes: raw.length, gzip: gz.length };
    }
  }
};
gzipAll(tmp);
const outputs = result.metafile.outputs;
const staticClosure = new Set();
const visit = (name) => {
  if (staticClosure.has(name)) return;
  staticClosure.add(name);
  for (const imp of outputs[name].imports || []) if (imp.kind === 'import-statement') visit(imp.path);
};
const appKey = Object.keys(outputs).find((k) => k.endsWith('/app.js'));
visit(appKey);
for (const name of staticClosure) sizes.first_load.js_gzip += sizes.files[path.relative(tmp, name)].gzip;
sizes.first_load.css_gzip = (sizes.files['app.css'] || { gzip: 0 }).gzip;
sizes.first_load.html_gzip = sizes.files['index.html'].gzip;
fs.writeFileSync(path.join(tmp, 'sizes.json'), JSON.stringify(sizes, null, 2) + '\n');

fs.rmSync(outdir, { recursive: true, force: true });
fs.renameSync(tmp, outdir);
console.log(`  WEBUI   ${outdir}: first load ${(sizes.first_load.js_gzip / 1024).toFixed(1)} KiB of compressed JavaScript`);
