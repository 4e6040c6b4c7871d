#!/usr/bin/env python3
"""tests/agents/mock_openai.py: a scripted OpenAI-compatible chat-completions
server for the LLM client's tests (python3's standard library only).

    mock_openai.py --script S.json --log REQ.jsonl --port-file PORT [--lifetime 120]

It listens on 127.0.0.1 on a free port and writes the port to --port-file
once it accepts connections.  S.json is {"responses": [STEP, ...]}: the n-th
request gets the n-th step (the last one repeats).  A STEP is an object:

    content         the assistant's text, wrapped in a chat completion
    body            the raw body instead (a string, sent as it is)
    json            the body as a JSON value instead
    body_size       a body of this many bytes of JSON-ish filler instead
    status          HTTP status (200)
    headers         extra headers, e.g. {"Retry-After": "1"}
    delay           seconds to wait before answering
    content_length  the Content-Length to announce (default: the true one);
                    larger than the body means the connection is closed
                    after the body: a truncated reply
    repeat          this step serves this many requests (1)

Every request is appended to --log as one JSON line: method, path, headers
(names lower-cased) and the body (parsed when it is JSON).  The server exits
on SIGTERM, or by itself after --lifetime seconds so a crashed test leaves
nothing running."""
import argparse
import http.server
import json
import os
import signal
import socket
import sys
import threading
import time


def completion(content):
    return json.dumps({
        "id": "chatcmpl-mock", "object": "chat.completion", "created": int(time.time()),
        "model": "mock",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }).encode()


def expand(steps):
    out = []
    for s in steps:
        out.extend([s] * int(s.get("repeat", 1)))
    return out


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def record(self, raw):
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        line = {"method": self.command, "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}
        with self.server.lock:
            with open(self.server.log, "a", encoding="utf-8") as f:
                f.write(json.dumps(line) + "\n")
            i = self.server.count
            self.server.count += 1
        steps = self.server.steps
        return steps[min(i, len(steps) - 1)]

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        step = self.record(self.rfile.read(n))
        time.sleep(float(step.get("delay", 0)))
        if "body" in step:
            body = step["body"].encode()
        elif "json" in step:
            body = json.dumps(step["json"]).encode()
        elif "body_size" in step:
            body = b'{"filler": "' + b"x" * max(0, int(step["body_size"]) - 14) + b'"}'
        else:
            body = completion(step.get("content", ""))
        announced = int(step.get("content_length", len(body)))
        try:
            self.send_response(int(step.get("status", 200)))
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(announced))
            for k, v in step.get("headers", {}).items():
                self.send_header(k, str(v))
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            if announced > len(body):
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = do_POST


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--script", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--lifetime", type=float, default=120)
    a = ap.parse_args()
    with open(a.script, encoding="utf-8") as f:
        steps = expand(json.load(f)["responses"])
    if not steps:
        sys.exit("mock_openai: the script has no responses")
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    srv.steps, srv.log, srv.count, srv.lock = steps, a.log, 0, threading.Lock()
    open(a.log, "w").close()
    tmp = a.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(srv.server_address[1]))
    os.replace(tmp, a.port_file)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    threading.Timer(a.lifetime, lambda: os._exit(3)).start()
    srv.serve_forever()


if __name__ == "__main__":
    main()
