#!/usr/bin/env python3
"""Serve a folder over HTTP the way Netlify serves dist/: same headers, same MIME types.

    python3 tools/serve.py [--port 8000] [--bind 127.0.0.1] [--config netlify.toml] [--quiet] [dist]

Every response gets the headers of each [[headers]] block of netlify.toml whose `for` pattern matches the
request path (Netlify's rules: `*` matches any characters, `/` included, `:name` one path segment, case
ignored; when two matching blocks set the same header the later one wins, as in `netlify dev`). A response
that no block gives a Cache-Control gets Netlify's default, `max-age=0, must-revalidate`.

Compressed as Netlify compresses: a file whose type is text-like or WebAssembly (COMPRESSIBLE) is sent with
`Content-Encoding: br` or `gzip`, as the request's Accept-Encoding prefers (brotli only when the `brotli`
package is installed; Chromium asks for it over HTTPS only), with `Vary: Accept-Encoding`; its Content-Type
stays that of the file (application/wasm for Pyodide's .wasm). Archives and images go as they are. Each
file is compressed once, when the server starts, and again only if it changes.

Also importable: `make_server(folder, port=0)` returns a ready ThreadingHTTPServer (port 0 picks a free
port; see `server.server_address`); `serve_in_background(folder)` starts one on a free localhost port in a
daemon thread and returns it with its base URL, as the e2e tests and the browser benches do.
"""
from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import io
import mimetypes
import os
import re
import sys
import threading
import tomllib
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

try:
    import brotli
except ImportError:  # optional: gzip only
    brotli = None

ROOT = Path(__file__).resolve().parent.parent
NETLIFY_DEFAULT_CACHE_CONTROL = "max-age=0, must-revalidate"
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".jsonl": "application/jsonl",  # JSON lines (the puzzle set): compressed as JSON is
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".css": "text/css",
    ".html": "text/html",
}


def content_type(path: str) -> str:
    """The Content-Type this server sends for a file (as Netlify does for these extensions)."""
    suffix = os.path.splitext(path)[1].lower()
    return MIME_TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"


# Content types sent compressed (Netlify's rule: text, scripts, data, SVG, WebAssembly; not archives or images).
COMPRESSIBLE = re.compile(r"^(text/|application/(javascript|json|manifest\+json|wasm|xml)|image/svg\+xml)")
GZIP_LEVEL = 6
BROTLI_QUALITY = 5  # what a CDN compressing on the fly uses


def encodings() -> tuple[str, ...]:
    """The encodings this server can send, preferred first."""
    return ("br", "gzip") if brotli else ("gzip",)


def compress(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(data, quality=BROTLI_QUALITY)
    return gzip.compress(data, GZIP_LEVEL, mtime=0)


def accepted(header: str | None) -> set[str]:
    """The codings an Accept-Encoding header accepts (q > 0)."""
    out = set()
    for item in (header or "").split(","):
        name, _, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if name and q > 0:
            out.add(name.strip().lower())
    return out


def choose_encoding(content_type: str, accept_encoding: str | None) -> str | None:
    """The encoding to send a file of this type in, for this Accept-Encoding; None: as it is."""
    if not COMPRESSIBLE.match(content_type):
        return None
    wanted = accepted(accept_encoding)
    return next((e for e in encodings() if e in wanted or "*" in wanted), None)


class CompressedFiles:
    """Each file's compressed bytes, made once and again only when the file changes."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, str], tuple[tuple[int, int], bytes]] = {}
        self._lock = threading.Lock()

    def get(self, path: str, encoding: str) -> bytes:
        stat = os.stat(path)
        stamp = (stat.st_mtime_ns, stat.st_size)
        with self._lock:
            hit = self._cache.get((path, encoding))
        if hit and hit[0] == stamp:
            return hit[1]
        with open(path, "rb") as f:
            body = compress(f.read(), encoding)
        with self._lock:
            self._cache[(path, encoding)] = (stamp, body)
        return body

    def warm(self, folder: Path) -> None:
        """Compress every compressible file of folder now, so that no first request waits for it."""
        for path in sorted(folder.rglob("*")):
            if path.is_file() and COMPRESSIBLE.match(content_type(str(path))):
                for encoding in encodings():
                    self.get(str(path), encoding)


def for_regexp(pattern: str) -> re.Pattern:
    """The regular expression of a Netlify `for` path pattern."""
    parts = []
    for part in filter(None, (p.rstrip() for p in pattern.strip().split("/"))):
        if part.startswith(":"):
            parts.append("([^/]+)")
        elif part == "*":
            parts.append("?(.*)")
        else:
            parts.append("(.*)".join(re.escape(piece) for piece in part.split("*")))
    return re.compile("^/" + "/".join(parts) + "/?$", re.IGNORECASE)


def load_header_rules(config: Path) -> list[tuple[re.Pattern, dict[str, str]]]:
    """The [[headers]] blocks of a netlify.toml as (path regexp, {header: value}) in file order."""
    try:
        data = tomllib.loads(config.read_text())
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise SystemExit(f"serve: cannot read {config}: {error}") from None
    rules = []
    for index, block in enumerate(data.get("headers", []), 1):
        if not isinstance(block.get("for"), str) or not isinstance(block.get("values"), dict):
            raise SystemExit(f"serve: {config}: [[headers]] block {index} needs `for` and [headers.values]")
        values = {}
        for name, value in block["values"].items():
            items = value if isinstance(value, list) else re.split(r"\s*,\s*", value.strip())
            values[name.strip()] = ", ".join(item.strip() for item in items)
        rules.append((for_regexp(block["for"]), values))
    return rules


def headers_for(rules, path: str) -> dict[str, str]:
    headers: dict[str, str] = {}
    for regexp, values in rules:
        if regexp.match(path):
            lowered = {name.lower() for name in values}
            headers = {k: v for k, v in headers.items() if k.lower() not in lowered} | values
    if not any(name.lower() == "cache-control" for name in headers):
        headers["Cache-Control"] = NETLIFY_DEFAULT_CACHE_CONTROL
    return headers


class Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    rules: list = []
    quiet = False

    protocol_version = "HTTP/1.1"  # keep-alive, as browsers expect of a real host
    # TCP_NODELAY, as a real host sends: with Nagle's algorithm the body, written after the headers, waited
    # for the browser's delayed ACK, some 40 ms on every small file (a module chain paid it at each step).
    disable_nagle_algorithm = True
    configured: dict[str, str] = {}
    compressed: CompressedFiles

    def send_head(self):
        """As http.server does, but a compressible file goes compressed when the client accepts it."""
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
            path = os.path.join(path, "index.html")
        if not os.path.isfile(path) or path.endswith("/"):
            return super().send_head()
        ctype = self.guess_type(path)
        if not COMPRESSIBLE.match(ctype):
            return super().send_head()
        encoding = choose_encoding(ctype, self.headers.get("Accept-Encoding"))
        stat = os.stat(path)
        if self._not_modified(stat.st_mtime):
            self.send_response(304)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        if encoding is None:
            with open(path, "rb") as f:
                body = f.read()
        else:
            body = self.compressed.get(path, encoding)
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        if encoding:
            self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def _not_modified(self, mtime: float) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or "If-None-Match" in self.headers:
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when.tzinfo is not None and int(mtime) <= when.timestamp()

    def send_response(self, code: int, message: str | None = None) -> None:
        self.configured = headers_for(self.rules, unquote(urlsplit(self.path).path))
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        # A header that netlify.toml sets for this path replaces the one http.server would send.
        if keyword.lower() not in {name.lower() for name in self.configured}:
            super().send_header(keyword, value)

    def end_headers(self) -> None:
        for name, value in self.configured.items():
            super().send_header(name, value)
        super().end_headers()

    def list_directory(self, path):  # Netlify lists no folders
        self.send_error(404, "Not Found")
        return None

    def log_message(self, format: str, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)

    def handle_one_request(self) -> None:
        try:
            super().handle_one_request()
        except (BrokenPipeError, ConnectionResetError):  # the browser went away mid-response
            self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True


def make_server(folder: Path | str, port: int = 0, bind: str = "127.0.0.1",
                config: Path | str = ROOT / "netlify.toml", quiet: bool = False) -> Server:
    folder = Path(folder).resolve()
    if not folder.is_dir():
        raise SystemExit(f"serve: {folder} is not a folder (run `make build` to make dist/)")
    compressed = CompressedFiles()
    handler = type("ConfiguredHandler", (Handler,), {
        "rules": load_header_rules(Path(config)), "quiet": quiet, "compressed": compressed})
    compressed.warm(folder)
    return Server((bind, port), functools.partial(handler, directory=str(folder)))


def serve_in_background(folder: Path | str) -> tuple[Server, str]:
    """``folder`` served quietly from a daemon thread on a free localhost port: the server (``shutdown()``
    stops it) and its base URL, ending in a slash."""
    server = make_server(folder, port=0, quiet=True)
    threading.Thread(target=server.serve_forever, name="site-server", daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}/"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("folder", nargs="?", default=ROOT / "dist", type=Path)
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port (default 8000)")
    parser.add_argument("--bind", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--config", default=ROOT / "netlify.toml", type=Path, help="the netlify.toml to follow")
    parser.add_argument("--quiet", action="store_true", help="do not log requests")
    args = parser.parse_args(argv)
    server = make_server(args.folder, args.port, args.bind, args.config, args.quiet)
    host, port = server.server_address[:2]
    print(f"serving {args.folder} at http://{host}:{port}/ (Ctrl-C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
