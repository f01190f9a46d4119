#!/usr/bin/env python3
"""A tiny fake Giphy + Klipy API for bench/same-bytes (stdlib only).

    fake_api.py --corpus DIR --port-file FILE --log FILE
                [--giphy-key KEY] [--klipy-key KEY]

Binds 127.0.0.1 on a free port (port 0), writes the port number to
--port-file once it is listening, and serves until killed. Every answer is a
file of the corpus (DIR/giphy/*.json, DIR/klipy/*.json), sent byte for byte,
chosen only from the request, so the same requests always get the same bytes:

Giphy  GET /v1/gifs/{search,trending}?api_key&q&limit&offset&rating&lang
  wrong api_key                  401 {"data":[],"meta":{"status":401,…}} (the shape
                                 the corpus README gives for a refused key)
  q=ratelimited                  429 giphy/error_429_rate_limited.json (no Retry-After,
                                 as Giphy sends it)
  q=servererror                  503 a short HTML body
  q=nothing                      200 giphy/empty_offset_ge_5000.json (no results)
  offset >= 5000 (search),       200 giphy/empty_offset_ge_5000.json
  offset >= 500 (trending)
  search, limit=1 (the ping)     200 giphy/search_limit1_giphy_get.json (total 10049)
  search, other pages            200 giphy/search_5items_giphy-js.json
  trending (ping or page)        200 giphy/trending_25items_ryanw-mobile.json (total 4019)
Giphy  GET /v1/gifs/{id}         200 giphy/gif_by_id_giphy-js.json

Klipy  GET /api/v1/{KEY}/gifs/{search,trending}?q&page&per_page&…
  wrong KEY                      401 {"result":false,"message":"Unauthorized"}
  q=ratelimited                  429 {"result":false,"message":"Too Many Attempts."}
  page=1                         200 klipy/search-page1.json (has_next: true)
  page>=2                        200 the same shape, no items, has_next: false (the
                                 corpus holds one page; this ends the list)

Anything else is 404. Each request is appended to --log as one line,
"METHOD TARGET STATUS", written and flushed before the answer is sent, so
when a client process has exited, its requests are in the log.
"""

import argparse
import http.server
import json
import os
import sys
import threading
import urllib.parse


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--giphy-key", default="sameBytesGiphyKey")
    ap.add_argument("--klipy-key", default="sameBytesKlipyKey")
    args = ap.parse_args()

    def corpus(name):
        with open(os.path.join(args.corpus, name), "rb") as f:
            return f.read()

    giphy = {
        "ping": corpus("giphy/search_limit1_giphy_get.json"),
        "search": corpus("giphy/search_5items_giphy-js.json"),
        "trending": corpus("giphy/trending_25items_ryanw-mobile.json"),
        "empty": corpus("giphy/empty_offset_ge_5000.json"),
        "429": corpus("giphy/error_429_rate_limited.json"),
        "byid": corpus("giphy/gif_by_id_giphy-js.json"),
    }
    klipy_page1 = corpus("klipy/search-page1.json")
    log_lock = threading.Lock()
    log = open(args.log, "a", encoding="utf-8")

    def klipy_last_page(page, per_page):
        return json.dumps({"result": True, "data": {"data": [], "current_page": page,
                                                    "per_page": per_page, "has_next": False}},
                          separators=(",", ":")).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the real APIs do
        server_version = "fake-api"
        sys_version = ""

        def log_message(self, *_):  # no access log on stderr
            pass

        def send(self, status, body, content_type="application/json"):
            with log_lock:
                log.write(f"{self.command} {self.path} {status}\n")
                log.flush()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            q = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
            parts = url.path.strip("/").split("/")

            def number(name, default):
                try:
                    return int(q.get(name, default))
                except ValueError:
                    return default

            # Giphy: /v1/gifs/search, /v1/gifs/trending, /v1/gifs/{id}
            if parts[:2] == ["v1", "gifs"] and len(parts) == 3:
                if q.get("api_key") != args.giphy_key:
                    return self.send(401, b'{"data":[],"meta":{"status":401,"msg":"Unauthorized","response_id":""}}')
                endpoint = parts[2]
                if endpoint not in ("search", "trending"):
                    return self.send(200, giphy["byid"])
                query = q.get("q", "")
                if query == "ratelimited":
                    return self.send(429, giphy["429"])
                if query == "servererror":
                    return self.send(503, b"<html><body><h1>503 Service Unavailable</h1></body></html>\n", "text/html")
                cap = 5000 if endpoint == "search" else 500
                if query == "nothing" or number("offset", 0) >= cap:
                    return self.send(200, giphy["empty"])
                if endpoint == "trending":
                    return self.send(200, giphy["trending"])
                return self.send(200, giphy["ping"] if number("limit", 25) == 1 else giphy["search"])

            # Klipy: /api/v1/{KEY}/gifs/search, /api/v1/{KEY}/gifs/trending
            if parts[:2] == ["api", "v1"] and len(parts) == 5 and parts[3] == "gifs":
                if urllib.parse.unquote(parts[2]) != args.klipy_key:
                    return self.send(401, b'{"result":false,"message":"Unauthorized"}')
                if q.get("q") == "ratelimited":
                    return self.send(429, b'{"result":false,"message":"Too Many Attempts."}')
                page = number("page", 1)
                if page <= 1:
                    return self.send(200, klipy_page1)
                return self.send(200, klipy_last_page(page, number("per_page", 24)))

            return self.send(404, b'{"message":"not found"}')

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    # Written to a temporary name and renamed: the reader never sees half a number.
    with open(args.port_file + ".tmp", "w") as f:
        f.write(f"{server.server_address[1]}\n")
    os.rename(args.port_file + ".tmp", args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
