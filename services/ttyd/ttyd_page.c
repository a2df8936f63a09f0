/*  =========================================================================
    ttyd_page - the terminal page and the files it loads

    / is a page that loads xterm.js, xterm.css and xterm's fit addon (the
    npm packages pinned by services/ttyd/web/package-lock.json, embedded by
    the build into ttyd_assets.c) by relative URLs, and speaks ttyd's
    protocol to the WebSocket "ws" next to it, also relative, so the page
    works at the root of a port (the wsproxy, `backend.ai app`) and under a
    path prefix alike. It sends the size first, input as '0', the size as
    '1' whenever it changes, and '2'/'3' (pause, resume) when xterm.js has
    more than S_FLOW_HIGH bytes unwritten, as ttyd's own page does. When the
    build had no npm the assets are empty, and / is a plain page instead: the
    output in a <pre> with escape sequences removed, a line to type into.
    /token answers {"token": ""}, as ttyd does without a credential.

    Copyright (c) the Backplane authors. Licensed under the Apache License 2.0.
    =========================================================================
*/
#include "ttyd_classes.h"

//  The part both pages share: the socket, ttyd's protocol, the title.
#define S_CONNECT_JS                                                                     \
    "var enc = new TextEncoder(), dec = new TextDecoder();\n"                            \
    "var url = new URL('ws', location.href);\n"                                          \
    "url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';\n"                       \
    "var ws = new WebSocket(url.href, ['tty']);\n"                                       \
    "ws.binaryType = 'arraybuffer';\n"                                                   \
    "function send(text) { if (ws.readyState === 1) ws.send(enc.encode(text)); }\n"

static const char s_xterm_page[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    "<title>Terminal</title>\n"
    "<link rel=\"stylesheet\" href=\"xterm.css\">\n"
    "<style>html, body { margin: 0; height: 100%; background: #000; overflow: hidden; }\n"
    "#terminal { position: absolute; inset: 4px; }</style>\n"
    "<script src=\"xterm.js\"></script>\n"
    "<script src=\"xterm-addon-fit.js\"></script>\n"
    "</head><body><div id=\"terminal\"></div>\n"
    "<script>\n"
    "(function () {\n"
    "var term = new Terminal({cursorBlink: true, scrollback: 5000,\n"
    "  fontFamily: 'Menlo, Consolas, \"DejaVu Sans Mono\", monospace'});\n"
    "var fit = new FitAddon.FitAddon();\n"
    "term.loadAddon(fit);\n"
    "term.open(document.getElementById('terminal'));\n"
    "fit.fit();\n" S_CONNECT_JS "var pending = 0, paused = false;\n"
    "ws.onopen = function () {\n"
    "  send(JSON.stringify({AuthToken: '', columns: term.cols, rows: term.rows}));\n"
    "  term.focus();\n"
    "};\n"
    "ws.onmessage = function (event) {\n"
    "  var data = new Uint8Array(event.data), body = data.subarray(1);\n"
    "  switch (String.fromCharCode(data[0])) {\n"
    "  case '0':\n"
    "    pending += body.length;\n"
    "    term.write(body, function () {\n"
    "      pending -= body.length;\n"
    "      if (paused && pending < 131072) { paused = false; send('3'); }\n"
    "    });\n"
    "    if (!paused && pending > 524288) { paused = true; send('2'); }\n"
    "    break;\n"
    "  case '1': document.title = dec.decode(body); break;\n"
    "  }\n"
    "};\n"
    "ws.onclose = function (event) {\n"
    "  term.write('\\r\\n[the terminal closed (' + event.code + ')]\\r\\n');\n"
    "};\n"
    "term.onData(function (data) { send('0' + data); });\n"
    "term.onBinary(function (data) {\n"
    "  if (ws.readyState !== 1) return;\n"
    "  var bytes = new Uint8Array(data.length + 1);\n"
    "  bytes[0] = 48;\n"
    "  for (var i = 0; i < data.length; i++) bytes[i + 1] = data.charCodeAt(i) & 255;\n"
    "  ws.send(bytes);\n"
    "});\n"
    "term.onResize(function (size) {\n"
    "  send('1' + JSON.stringify({columns: size.cols, rows: size.rows}));\n"
    "});\n"
    "term.onTitleChange(function (title) { document.title = title; });\n"
    "window.addEventListener('resize', function () { fit.fit(); });\n"
    "})();\n"
    "</script></body></html>\n";

static const char s_plain_page[] =
    "<!DOCTYPE html>\n"
    "<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>Terminal</title>\n"
    "<style>body { margin: 0; background: #000; color: #ddd; font: 14px monospace; }\n"
    "#out { margin: 4px; white-space: pre-wrap; word-break: break-all; }\n"
    "#line { width: 100%; box-sizing: border-box; background: #111; color: #ddd;\n"
    "  font: inherit; border: 1px solid #444; }</style>\n"
    "</head><body>\n"
    "<p>This build of backplane-ttyd has no xterm.js (npm was unavailable): a plain "
    "terminal, one line at a time.</p>\n"
    "<pre id=\"out\"></pre>\n"
    "<input id=\"line\" autofocus placeholder=\"a command, then Enter\">\n"
    "<button id=\"intr\">Ctrl-C</button>\n"
    "<script>\n"
    "(function () {\n"
    "var out = document.getElementById('out'), line = "
    "document.getElementById('line');\n" S_CONNECT_JS
    "var escapes = /\\x1b\\[[0-9;?]*[ -\\/]*[@-~]|\\x1b\\][^\\x07\\x1b]*(\\x07|\\x1b\\\\)"
    "|\\x1b[()][0-9A-Za-z]|\\x1b[=>78]|\\r/g;\n"
    "ws.onopen = function () { send(JSON.stringify({AuthToken: '', columns: 80, "
    "rows: 24})); };\n"
    "ws.onmessage = function (event) {\n"
    "  var data = new Uint8Array(event.data);\n"
    "  if (data[0] === 48) {\n"
    "    out.textContent += dec.decode(data.subarray(1), {stream: true})"
    ".replace(escapes, '');\n"
    "    window.scrollTo(0, document.body.scrollHeight);\n"
    "  } else if (data[0] === 49) document.title = dec.decode(data.subarray(1));\n"
    "};\n"
    "ws.onclose = function (event) { out.textContent += '\\n[the terminal closed (' + "
    "event.code + ')]\\n'; };\n"
    "line.addEventListener('keydown', function (event) {\n"
    "  if (event.key === 'Enter') { send('0' + line.value + '\\r'); line.value = ''; }\n"
    "});\n"
    "document.getElementById('intr').onclick = function () { send('0\\x03'); };\n"
    "})();\n"
    "</script></body></html>\n";

static const char s_token[] = "{\"token\": \"\"}";

#define S_HTML "text/html; charset=utf-8"

bool
ttyd_page_has_xterm(void)
{
    return ttyd_assets[0].path != NULL;
}

const ttyd_asset_t *
ttyd_page_find(const char *path)
{
    static const ttyd_asset_t xterm_page = {"/", S_HTML, (const uint8_t *) s_xterm_page,
                                            sizeof s_xterm_page - 1};
    static const ttyd_asset_t plain_page = {"/", S_HTML, (const uint8_t *) s_plain_page,
                                            sizeof s_plain_page - 1};
    static const ttyd_asset_t token = {"/token", "application/json",
                                       (const uint8_t *) s_token, sizeof s_token - 1};
    if (strcmp(path, "/") == 0 || strcmp(path, "/index.html") == 0)
        return ttyd_page_has_xterm() ? &xterm_page : &plain_page;
    if (strcmp(path, "/token") == 0)
        return &token;
    for (const ttyd_asset_t *asset = ttyd_assets; asset->path; asset++)
        if (strcmp(asset->path, path) == 0)
            return asset;
    return NULL;
}
