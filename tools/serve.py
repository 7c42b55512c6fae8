#!/usr/bin/env python3
"""Serve a folder over HTTP the way Netlify serves dist/: same headers, same MIME types.

    python3 tools/serve.py [--port 8000] [--bind 127.0.0.1] [--config netlify.toml] [--quiet] [dist]

Every response gets the headers of each [[headers]] block of netlify.toml whose `for` pattern matches the
request path (Netlify's rules: `*` matches any characters, `/` included, `:name` one path segment, case
ignored; when two matching blocks set the same header the later one wins, as in `netlify dev`). A response
that no block gives a Cache-Control gets Netlify's default, `max-age=0, must-revalidate`.

Also importable: `make_server(folder, port=0)` returns a ready ThreadingHTTPServer (port 0 picks a free
port; see `server.server_address`), as the e2e tests do.
"""
from __future__ import annotations

import argparse
import functools
import re
import sys
import tomllib
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
NETLIFY_DEFAULT_CACHE_CONTROL = "max-age=0, must-revalidate"
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".css": "text/css",
    ".html": "text/html",
}


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
    configured: dict[str, str] = {}

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
    handler = type("ConfiguredHandler", (Handler,), {"rules": load_header_rules(Path(config)), "quiet": quiet})
    return Server((bind, port), functools.partial(handler, directory=str(folder)))


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
