// markdown - a README as the model store shows it: a small subset of Markdown
// (headings, paragraphs, fenced code, lists, quotes, **bold**, *italic*,
// `code`, [links](http...)) turned into elements, never into HTML text. Every
// piece of the file becomes a text node, so a README holding <script> or
// <img onerror> shows those characters and runs nothing; a link goes only to
// http(s) and opens in a new tab without the opener. Other file types
// (.txt, .rst) are shown as they are, preformatted.

const SAFE_LINK = /^https?:\/\//i;

const WORD = /\w/;

// The inline spans of one line of text: code first (nothing inside it is
// markup), then links, bold and italic. _italic_ must not start inside a
// word (snake_case_names stay as they are): that is checked on the match,
// not with a lookbehind, which Safari before 16.4 cannot parse (the
// module would not load at all).
function inline(text, keyBase) {
  const out = [];
  const pattern = /(`[^`]+`)|\[([^\]]+)\]\(([^)\s]+)\)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(_[^_\s][^_]*_(?!\w))/g;
  let last = 0;
  let m;
  let n = 0;
  while ((m = pattern.exec(text))) {
    // An _ after a letter starts nothing here: look again from the next
    // character (no other alternative starts with _).
    if (m[6] && m.index > 0 && WORD.test(text[m.index - 1])) {
      pattern.lastIndex = m.index + 1;
      continue;
    }
    if (m.index > last) out.push(text.slice(last, m.index));
    const key = keyBase + '-' + n++;
    if (m[1]) out.push(<code key={key}>{m[1].slice(1, -1)}</code>);
    else if (m[2] !== undefined)
      out.push(
        SAFE_LINK.test(m[3]) ? (
          <a key={key} href={m[3]} target="_blank" rel="noopener noreferrer">
            {m[2]}
          </a>
        ) : (
          m[2]
        ),
      );
    else if (m[4]) out.push(<strong key={key}>{m[4].slice(2, -2)}</strong>);
    else out.push(<em key={key}>{(m[5] || m[6]).slice(1, -1)}</em>);
    last = pattern.lastIndex;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

// Blocks of a Markdown text as elements.
export function markdownBlocks(text) {
  const lines = String(text || '').replace(/\r\n?/g, '\n').split('\n');
  const blocks = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const key = 'b' + blocks.length;
    if (/^\s*```/.test(line)) {
      const code = [];
      i++;
      while (i < lines.length && !/^\s*```/.test(lines[i])) code.push(lines[i++]);
      i++;
      blocks.push(
        <pre key={key}>
          <code>{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1].length + 2); // the dialog's title is h2
      const Tag = 'h' + level;
      blocks.push(<Tag key={key}>{inline(heading[2], key)}</Tag>);
      i++;
      continue;
    }
    if (/^\s*([-*+]|\d+\.)\s+/.test(line)) {
      const ordered = /^\s*\d+\./.test(line);
      const items = [];
      while (i < lines.length && /^\s*([-*+]|\d+\.)\s+/.test(lines[i])) {
        items.push(<li key={items.length}>{inline(lines[i].replace(/^\s*([-*+]|\d+\.)\s+/, ''), key + 'i' + items.length)}</li>);
        i++;
      }
      blocks.push(ordered ? <ol key={key}>{items}</ol> : <ul key={key}>{items}</ul>);
      continue;
    }
    if (/^>\s?/.test(line)) {
      const quote = [];
      while (i < lines.length && /^>\s?/.test(lines[i])) quote.push(lines[i++].replace(/^>\s?/, ''));
      blocks.push(<blockquote key={key}>{inline(quote.join(' '), key)}</blockquote>);
      continue;
    }
    if (!line.trim()) {
      i++;
      continue;
    }
    const para = [];
    while (i < lines.length && lines[i].trim() && !/^(#{1,6}\s|\s*```|>\s?|\s*([-*+]|\d+\.)\s+)/.test(lines[i])) para.push(lines[i++]);
    blocks.push(<p key={key}>{inline(para.join(' '), key)}</p>);
  }
  return blocks;
}

// A README of filetype (md, markdown: rendered; anything else: as it is).
export function Readme({ text, filetype }) {
  const md = /^(md|markdown)$/i.test(filetype || '');
  return <div class="readme">{md ? markdownBlocks(text) : <pre>{text}</pre>}</div>;
}
