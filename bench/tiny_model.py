"""tiny_model - a real but small language model behind the OpenAI chat API,
for make bench-serving.

A word bigram model trained at start on a text every Debian machine ships
(the GPL's text in /usr/share/common-licenses), answering
POST /v1/chat/completions with max_tokens words (16 by default) chosen
greedily from the last word of the user's message, and GET /health. One
thread per connection, HTTP/1.1 keep-alive, as a model server is used.

Usage: python3 tiny_model.py PORT
"""

import collections
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CORPUS = "/usr/share/common-licenses/GPL-3"
FALLBACK = "the program is free software and you can share it and change it as you like"


def train(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            words = re.findall(r"[a-z']+", f.read().lower())
    except OSError:
        words = FALLBACK.split()
    following = collections.defaultdict(collections.Counter)
    for a, b in zip(words, words[1:]):
        following[a][b] += 1
    best = {word: counts.most_common(1)[0][0] for word, counts in following.items()}
    return best, words[0]


NEXT, START = train(CORPUS)


def complete(prompt, count):
    seen = re.findall(r"[a-z']+", prompt.lower())
    word = seen[-1] if seen and seen[-1] in NEXT else START
    out = []
    for _ in range(count):
        word = NEXT.get(word, START)
        out.append(word)
    return " ".join(out)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body leave in two writes: without TCP_NODELAY the second
    # waits for the client's delayed ACK (40 ms), as no model server does.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/health":
            return self.answer(200, {"status": "ok"})
        self.answer(404, {"error": {"message": "no such path"}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if self.path != "/v1/chat/completions":
            return self.answer(404, {"error": {"message": "no such path"}})
        said = [m.get("content", "") for m in body.get("messages", []) if m.get("role") == "user"]
        text = complete(said[-1] if said else "", int(body.get("max_tokens") or 16))
        self.answer(200, {"object": "chat.completion", "model": "tiny-bigram",
                          "choices": [{"index": 0, "finish_reason": "stop",
                                       "message": {"role": "assistant", "content": text}}]})


ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
