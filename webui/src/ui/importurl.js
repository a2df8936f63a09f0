// importurl - Import & Run's addresses, as Backend.AI's import page makes them:
// a GitHub "blob" page of a notebook becomes its raw file
// (raw.githubusercontent.com), a GitHub repository its codeload zip of a branch,
// a GitLab repository its archive zip of a branch. A repository cloned with git
// (a URL ending in .git, or "Clone with git") is any Git server speaking smart
// HTTP; a GitHub or GitLab page becomes its .git URL. Any other http(s) URL is
// fetched as it is (a Git server of one's own, a loopback test server). The
// storage-proxy does the fetching (POST /folders/{name}/import), so these are
// only string rewrites: nothing here reaches the internet.

const GITHUB = /^https?:\/\/(?:www\.)?github\.com\/([^/]+)\/([^/]+)(?:\/(.*))?$/i;
const GITLAB = /^https?:\/\/(?:www\.)?gitlab\.com\/([^/]+)\/([^/]+)(?:\/(.*))?$/i;

// https://github.com/o/r/blob/main/a/b.ipynb -> https://raw.githubusercontent.com/o/r/main/a/b.ipynb
export function notebookUrl(url) {
  const u = url.trim();
  const m = u.match(GITHUB);
  if (m && m[3] && m[3].startsWith('blob/'))
    return `https://raw.githubusercontent.com/${m[1]}/${m[2]}/${m[3].slice(5)}`;
  return u;
}

// The file name a notebook URL ends with ("b.ipynb"), or ''.
export function fileName(url) {
  const path = url.split(/[?#]/)[0];
  const slash = path.indexOf('/', path.indexOf('//') + 2);
  if (slash < 0) return '';
  const last = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  return last === '.' || last === '..' ? '' : last;
}

// The archive of a repository's branch: {url, name} (name: the repository's,
// a folder's default name), or null for a URL that is no repository page and no
// .zip. GitLab needs its branch; GitHub's defaults to "main".
export function repositoryArchive(url, branch) {
  const u = url.trim().replace(/\/+$/, '').replace(/\.git$/, '');
  const b = (branch || '').trim();
  let m = u.match(GITHUB);
  if (m) {
    const name = m[2];
    const tree = m[3] && m[3].match(/^tree\/(.+)$/);
    const ref = b || (tree ? tree[1] : 'main');
    return { url: `https://codeload.github.com/${m[1]}/${name}/zip/refs/heads/${ref}`, name };
  }
  m = u.match(GITLAB);
  if (m) {
    if (!b) return { url: '', name: m[2], branchNeeded: true };
    return { url: `https://gitlab.com/${m[1]}/${m[2]}/-/archive/${b}/${m[2]}-${b}.zip`, name: m[2] };
  }
  if (/^https?:\/\//i.test(u) && /\.zip$/i.test(u.split(/[?#]/)[0])) {
    const name = fileName(u).replace(/\.zip$/i, '');
    return { url: u, name };
  }
  return null;
}

// Whether url names a git repository to clone (it ends in .git).
export function isGitUrl(url) {
  return /^https?:\/\/.+\.git\/?$/i.test(url.trim().split(/[?#]/)[0]);
}

// A repository cloned with git: {url, name} (name without .git, a folder's
// default name), or null for a URL that is not http(s). A GitHub or GitLab page
// (with /tree/<branch> or not) becomes the repository's .git URL.
export function gitRepository(url) {
  const u = url.trim().split(/[?#]/)[0].replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+\/./i.test(u)) return null;
  const m = u.match(GITHUB) || u.match(GITLAB);
  if (m) {
    const name = m[2].replace(/\.git$/i, '');
    const host = u.slice(0, u.indexOf('/', u.indexOf('//') + 2));
    return { url: `${host}/${m[1]}/${name}.git`, name };
  }
  const name = decodeURIComponent(u.slice(u.lastIndexOf('/') + 1)).replace(/\.git$/i, '');
  return name && name !== '.' && name !== '..' ? { url: u, name } : null;
}

// A folder name from a repository's: what /folders accepts (letters, digits,
// '.', '_', '-', at most 64).
export function folderName(name) {
  return (name || 'imported').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64) || 'imported';
}
