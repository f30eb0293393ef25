"""The static client (``frontend/``): compressed once, versioned by content, cached for a year.

At start-up the whole tree is read into memory and hashed; the hash is the *version*. Every file is
served under ``/v/<version>/<path>`` with ``Cache-Control: public, max-age=31536000, immutable``, so a
browser never asks for it again, and a deploy (another version) changes every URL at once. The ES
modules import each other by relative paths, so a module loaded under the prefix pulls its imports
from the same version. ``index.html`` (at ``/``) and ``sw.js`` (at ``/sw.js``) are the two entry points:
``no-cache`` (always revalidated, a 304 when unchanged). What a bundler would do, done at start-up:

- the page's ``href="/x"``/``src="/x"`` naming files of the tree get the versioned prefix;
- its plain stylesheet links become one link to ``css/_all.css``, the files in the page's order
  (one request instead of one per file: on a phone link each request costs a round trip); links
  marked ``data-for="<view> …"`` leave the page and become bundles (``css/_table.css``) that the
  router links, in the page's order, when one of those views opens (``view-styles``);
- CSS and JS are served without comments and indentation (``minify.py``);
- ``<link rel="modulepreload">`` lines name every module ``js/app.js`` imports statically (read from
  the ``import`` statements), so the browser fetches the whole graph at once, not level by level;
- a ``<script type="application/json" id="module-graph">`` lists, for each module loaded on demand
  (a page's view), the modules it brings, which the router preloads together when it imports it;
- the service worker gets the version and the list of the page's files (and the views' bundles).

Other URLs:
- a file at its plain path (``/js/app.js``) or under another version's prefix (a page loaded before
  a deploy asking for a module it imports lazily) gets the current file with ``no-cache``: it works,
  and nothing outdated is kept;
- an unknown path is a 404.

Text files (HTML, JS, CSS, SVG, the manifest) are gzip-compressed once at start-up and sent
compressed when the request accepts gzip; every answer carries a strong ``ETag`` (one per encoding)
and ``If-None-Match`` is answered with 304. When a file of the tree changes on disk (development),
the next request for the page rebuilds everything with a new version; in production the check is a
few ``stat`` calls per page load, in a worker thread.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import posixpath
import re
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

import anyio.to_thread
from starlette.types import Receive, Scope, Send

from backend.api.minify import strip_css, strip_js

log = logging.getLogger(__name__)

INDEX = "index.html"
SERVICE_WORKER = "sw.js"
ENTRY_MODULE = "js/app.js"
VERSION_PREFIX = "/v/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Not part of the client: the node checks and tests, the developer notes.
EXCLUDED_DIRS = frozenset({"tools", "fixtures"})  # build helpers and test data, not the client
EXCLUDED_FILES = frozenset({"README.md"})
EXCLUDED_SUFFIXES = (".test.mjs", ".test.js")
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}
COMPRESSIBLE = frozenset({".html", ".js", ".mjs", ".css", ".svg", ".json", ".webmanifest", ".txt"})
# Static imports and re-exports: `import x from './a.js'`, `import './a.js'`, `export * from './a.js'`.
# Dynamic `import('./a.js')` is left out on purpose: those modules are loaded on demand.
STATIC_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\s+(?:[\w*{}\s,$]+?\s+from\s+)?['"](?P<spec>\.{1,2}/[^'"]+)['"]""",
    re.MULTILINE,
)
ASSET_URL = re.compile(r"""(?P<attr>\b(?:href|src))="/(?P<path>[^"?#]+)\"""")
SCRIPT_TAG = re.compile(r"""<script\b[^>]*\bsrc="[^"]*/js/app\.js"[^>]*></script>\n?""")
# `<link rel="stylesheet" href="/css/x.css">` lines with nothing else on them (no media, no title).
# With `data-for="table watch"`: a sheet only those views (`js/views/<name>.js`) need, loaded with them.
STYLESHEET = re.compile(
    r"""^[ \t]*<link rel="stylesheet" href="/(?P<path>css/[^"?#]+\.css)"(?: data-for="(?P<views>[\w -]+)")?>[ \t]*\n""",
    re.MULTILINE,
)
STYLES = "css/_all.css"
VIEW_MODULE = "js/views/{}.js"
DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*['"](?P<spec>\.{1,2}/[^'"]+)['"]\s*\)""")
SW_VERSION = re.compile(r"""const VERSION = '[^']*';""")
SW_SHELL = re.compile(r"""const SHELL = \[[^\]]*\];""")


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes (and gzip bytes when smaller), type and entity tag."""

    body: bytes
    gzipped: bytes | None
    content_type: str
    etag: str

    @staticmethod
    def of(path: str, body: bytes) -> Asset:
        suffix = PurePosixPath(path).suffix.lower()
        gzipped = None
        if suffix in COMPRESSIBLE:
            packed = gzip.compress(body, compresslevel=9, mtime=0)
            gzipped = packed if len(packed) < len(body) else None
        digest = hashlib.sha256(body).hexdigest()[:20]
        return Asset(body, gzipped, CONTENT_TYPES.get(suffix, "application/octet-stream"), f'"{digest}"')


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes


@dataclass(frozen=True)
class Bundle:
    """The client at one version: every file by its path inside ``frontend/`` (``js/app.js``)."""

    version: str
    assets: Mapping[str, Asset]
    preloads: tuple[str, ...]

    @property
    def prefix(self) -> str:
        return f"{VERSION_PREFIX}{self.version}/"

    def reply(self, method: str, path: str, headers: Mapping[str, str]) -> Reply:
        """The answer to ``method path`` given the request's (lower-case) headers."""
        if method not in ("GET", "HEAD"):
            return Reply(
                405, {"allow": "GET, HEAD", "content-type": "text/plain; charset=utf-8"}, b"Method Not Allowed"
            )
        name, cache = self.resolve(path)
        asset = self.assets.get(name) if name is not None else None
        if asset is None:
            return Reply(404, {"content-type": "text/plain; charset=utf-8", "cache-control": REVALIDATE}, b"Not Found")
        use_gzip = asset.gzipped is not None and accepts_gzip(headers.get("accept-encoding", ""))
        etag = f'{asset.etag[:-1]}-gz"' if use_gzip else asset.etag
        out = {"cache-control": cache, "etag": etag, "x-content-type-options": "nosniff"}
        if asset.gzipped is not None:
            out["vary"] = "Accept-Encoding"
        if etag_matches(headers.get("if-none-match", ""), asset.etag):
            return Reply(304, out, b"")
        body = asset.gzipped if use_gzip and asset.gzipped is not None else asset.body
        out["content-type"] = asset.content_type
        if use_gzip:
            out["content-encoding"] = "gzip"
        out["content-length"] = str(len(body))
        return Reply(200, out, b"" if method == "HEAD" else body)

    def resolve(self, path: str) -> tuple[str | None, str]:
        """The file a URL path names and how long it may be cached."""
        if path in ("/", f"/{INDEX}"):
            return INDEX, REVALIDATE
        if path.startswith(VERSION_PREFIX):
            version, _, rest = path[len(VERSION_PREFIX) :].partition("/")
            name = clean(rest)
            # Another version's URL: the current file, not to be kept (it may not be what was asked for).
            return name, IMMUTABLE if version == self.version and name not in (INDEX, SERVICE_WORKER) else REVALIDATE
        return clean(path.lstrip("/")), REVALIDATE


def clean(name: str) -> str | None:
    """A path inside the tree, or None for anything that leaves it or names a folder."""
    if not name or name.endswith("/") or "\\" in name:
        return None
    normal = posixpath.normpath(name)
    if normal.startswith(("../", "/")) or normal in (".", "..") or normal != name:
        return None
    return normal


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header admits gzip (``gzip;q=0`` refuses it)."""
    for part in accept_encoding.lower().split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip() in ("gzip", "*"):
            q = params.strip()
            if q.startswith("q="):
                try:
                    return float(q[2:]) > 0
                except ValueError:
                    return False
            return True
    return False


def etag_matches(if_none_match: str, etag: str) -> bool:
    """``If-None-Match`` against a file's tag; the gzip variant and weak forms of it count as the same file."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    core = etag.strip('"')
    for tag in if_none_match.split(","):
        tag = tag.strip().removeprefix("W/").strip('"')
        if tag in (core, f"{core}-gz"):
            return True
    return False


def module_imports(source: str) -> list[str]:
    """The relative specifiers of a module's static imports, in order."""
    return list(parse_imports(source)[0])


def dynamic_imports(source: str) -> list[str]:
    """The relative specifiers of a module's ``import('./x.js')`` with a literal string."""
    return list(parse_imports(source)[1])


@lru_cache(maxsize=1024)
def parse_imports(source: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A module's static and literal dynamic import specifiers (read once per content)."""
    code = strip_comments(source)
    static = tuple(m.group("spec") for m in STATIC_IMPORT.finditer(code))
    return static, tuple(m.group("spec") for m in DYNAMIC_IMPORT.finditer(code))


def strip_comments(source: str) -> str:
    """Blanks the comment lines: lines starting with ``//`` and blocks starting a line with ``/*``.
    (A ``/*`` inside a line comment or a string is not a comment; imports start their line.)"""
    out = []
    in_block = False
    for line in source.splitlines():
        stripped = line.strip()
        if in_block:
            in_block = "*/" not in line
            out.append("")
        elif stripped.startswith("//"):
            out.append("")
        elif stripped.startswith("/*"):
            in_block = "*/" not in stripped[2:]
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def module_graph(
    files: Mapping[str, bytes], entry: str, *, dynamic: bool = False, known: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """Every module ``entry`` imports statically (and with ``dynamic``, also through a literal
    ``import()``), directly or not, in first-seen order; ``entry`` and the ``known`` modules (and
    what only they import) left out."""
    seen: dict[str, None] = {}
    stack = [entry]
    while stack:
        current = stack.pop(0)
        body = files.get(current)
        if body is None:
            continue
        source = body.decode("utf-8")
        for spec in module_imports(source) + (dynamic_imports(source) if dynamic else []):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(current), spec))
            if target != entry and target not in seen and target not in known and target in files:
                seen[target] = None
                stack.append(target)
    return tuple(seen)


def lazy_graphs(files: Mapping[str, bytes], entry: str) -> dict[str, list[str]]:
    """For each module loaded on demand (one no module imports statically: a page's view), the
    modules it brings that the page has not loaded yet — itself, its imports, its literal
    ``import()``s — when there are several. The router preloads them together (``later()`` in
    ``js/app.js``) instead of discovering them one import level after another."""
    modules = [name for name in files if name.endswith((".js", ".mjs")) and name != SERVICE_WORKER]
    imported = {
        posixpath.normpath(posixpath.join(posixpath.dirname(name), spec))
        for name in modules
        for spec in module_imports(files[name].decode("utf-8"))
    }
    eager = frozenset({entry, *module_graph(files, entry)})
    graphs = {}
    for root in sorted(set(modules) - imported - {entry}):
        needed = [root, *module_graph(files, root, dynamic=True, known=eager)]
        if len(needed) > 1:
            graphs[root] = needed
    return graphs


def tree_version(files: Mapping[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class Styles:
    """The page's stylesheets as served: the page with one link, the bundles by path (``_all.css``
    first), and for each view loaded with its own sheets those bundles in the page's order."""

    html: str
    bundles: dict[str, bytes]
    views: dict[str, list[str]]


def combine_styles(html: str, files: Mapping[str, bytes]) -> Styles:
    """The page with its stylesheets as one link, and that stylesheet: the files one after the other
    in the page's order (the cascade is the same; the layer order stays declared by the first file).
    One request instead of one per file: on a phone link each request costs a round trip. The lines
    marked ``data-for="<view> …"`` leave the page: the files with the same mark become one bundle
    ``css/_<first file's name>.css`` that the router loads with those views (``view-styles``)."""
    found = [m for m in STYLESHEET.finditer(html) if m.group("path") in files]
    groups: dict[str, list[str]] = {}
    for match in found:
        groups.setdefault(" ".join((match.group("views") or "").split()), []).append(match.group("path"))
    eager = groups.pop("", [])
    if len(eager) < 2 and not groups:
        return Styles(html, {}, {})

    def joined(paths: list[str]) -> bytes:
        return b"".join(f"/* {p} */\n".encode() + files[p].rstrip(b"\n") + b"\n" for p in paths)

    bundles = {STYLES: joined(eager)} if eager else {}
    views: dict[str, list[str]] = {}
    for marks, paths in groups.items():
        name = f"css/_{PurePosixPath(paths[0]).stem}.css"
        bundles[name] = joined(paths)
        for view in marks.split():
            views.setdefault(VIEW_MODULE.format(view), []).append(name)
    out, last, linked = [], 0, False
    for match in found:
        out.append(html[last : match.start()])
        if not match.group("views") and not linked:
            out.append(f'  <link rel="stylesheet" href="/{STYLES}">\n')
            linked = True
        last = match.end()
    out.append(html[last:])
    return Styles("".join(out), bundles, views)


def stripped(name: str, body: bytes) -> bytes:
    """A served CSS or JavaScript file without its comments and indentation (``minify.py``); a
    module the tokenizer cannot read is served as it is (and logged), never refused."""
    try:
        if name.endswith(".css"):
            return strip_css(body.decode("utf-8")).encode("utf-8")
        if name.endswith((".js", ".mjs")):
            return strip_js(body.decode("utf-8")).encode("utf-8")
    except (ValueError, UnicodeDecodeError) as error:
        log.warning("served unstripped: %s (%s)", name, error)
    return body


def rewrite_index(
    html: str,
    files: Iterable[str],
    prefix: str,
    preloads: Iterable[str],
    lazy: Mapping[str, list[str]],
    view_styles: Mapping[str, list[str]] | None = None,
    style_order: Iterable[str] = (),
) -> str:
    """The page with every ``href="/x"``/``src="/x"`` of a file in the tree under ``prefix``, and the
    module preloads and the graphs of the modules loaded on demand after the entry script, and the
    stylesheet bundles each view loads (``view-styles``)."""
    known = set(files)

    def versioned(match: re.Match[str]) -> str:
        path = match.group("path")
        if path not in known or path in (INDEX, SERVICE_WORKER):
            return match.group(0)
        return f'{match.group("attr")}="{prefix}{path}"'

    html = ASSET_URL.sub(versioned, html)
    links = "".join(f'  <link rel="modulepreload" href="{prefix}{name}">\n' for name in preloads)
    if lazy:
        graph = json.dumps(lazy, separators=(",", ":")).replace("</", "<\\/")
        links += f'  <script type="application/json" id="module-graph">{graph}</script>\n'
    if view_styles:
        # `order`: the bundles in the page's order, which the router keeps in <head> (the cascade).
        order = list(style_order) or list(dict.fromkeys(n for names in view_styles.values() for n in names))
        sheets = json.dumps({"order": order, "views": view_styles}, separators=(",", ":")).replace("</", "<\\/")
        links += f'  <script type="application/json" id="view-styles">{sheets}</script>\n'
    script = SCRIPT_TAG.search(html)
    if script is None or not links:
        return html
    return html[: script.end()] + links + html[script.end() :]


def shell_urls(index_html: str, prefix: str, preloads: Iterable[str], extra: Iterable[str] = ()) -> list[str]:
    """What a first visit loads: the page and every versioned URL it names (styles, modules, icons),
    and the ``extra`` files (the views' own stylesheets, so that they open offline too)."""
    urls = ["/"]
    for match in re.finditer(r'(?:href|src)="(' + re.escape(prefix) + r'[^"]+)"', index_html):
        if match.group(1) not in urls:
            urls.append(match.group(1))
    for name in [*preloads, *extra]:
        if f"{prefix}{name}" not in urls:
            urls.append(f"{prefix}{name}")
    return urls


def rewrite_service_worker(source: str, version: str, shell: list[str]) -> str:
    """The worker with its version and the list of URLs it keeps from the first install."""
    if not SW_VERSION.search(source) or not SW_SHELL.search(source):
        raise ValueError("sw.js must declare `const VERSION = '…';` and `const SHELL = [];`")
    source = SW_VERSION.sub(lambda _: f"const VERSION = {json.dumps(version)};", source, count=1)
    return SW_SHELL.sub(lambda _: f"const SHELL = {json.dumps(shell)};", source, count=1)


def build_bundle(files: Mapping[str, bytes]) -> Bundle:
    """Pure: the served bundle from the raw files of the tree."""
    version = tree_version(files)
    prefix = f"{VERSION_PREFIX}{version}/"
    preloads = module_graph(files, ENTRY_MODULE) if ENTRY_MODULE in files else ()
    served = {name: stripped(name, body) for name, body in files.items()}
    view_bundles: list[str] = []
    if INDEX in files:
        styles = combine_styles(files[INDEX].decode("utf-8"), files)
        served.update({name: stripped(name, body) for name, body in styles.bundles.items()})
        view_bundles = [name for name in styles.bundles if name != STYLES]
        lazy = lazy_graphs(files, ENTRY_MODULE) if ENTRY_MODULE in files else {}
        html = rewrite_index(styles.html, served, prefix, preloads, lazy, styles.views, view_bundles)
        served[INDEX] = html.encode("utf-8")
    if SERVICE_WORKER in files:
        shell = shell_urls(served.get(INDEX, b"").decode("utf-8"), prefix, preloads, view_bundles)
        worker = rewrite_service_worker(served[SERVICE_WORKER].decode("utf-8"), version, shell)
        served[SERVICE_WORKER] = worker.encode("utf-8")
    return Bundle(version, {name: Asset.of(name, body) for name, body in served.items()}, preloads)


def tree_files(root: Path) -> list[Path]:
    out = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if not path.is_file() or any(part.startswith(".") for part in relative.parts):
            continue
        if (
            any(part in EXCLUDED_DIRS for part in relative.parts[:-1])
            or relative.name in EXCLUDED_FILES
            or path.name.endswith(EXCLUDED_SUFFIXES)
        ):
            continue
        out.append(path)
    return out


def tree_signature(root: Path) -> tuple[tuple[str, int, int], ...]:
    """What changes when a file of the tree is edited, added or removed."""
    stats = ((p, p.stat()) for p in tree_files(root))
    return tuple((p.relative_to(root).as_posix(), s.st_mtime_ns, s.st_size) for p, s in stats)


def read_tree(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in tree_files(root)}


class StaticClient:
    """ASGI app serving the bundle; mounted at ``/`` after the API and socket routes."""

    def __init__(self, root: Path, *, reload: bool = True) -> None:
        self.root = root
        self.reload = reload  # FRONTEND_RELOAD: look for edits at each page load (development)
        self.lock = threading.Lock()
        self.signature = tree_signature(root)
        self.bundle = build_bundle(read_tree(root))

    def refresh(self) -> None:
        """Rebuild when the tree changed on disk (edits during development). Runs in a worker thread."""
        with self.lock:
            signature = tree_signature(self.root)
            if signature != self.signature:
                self.bundle = build_bundle(read_tree(self.root))
                self.signature = signature

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await send({"type": "websocket.close", "code": 1000})  # a socket to an unknown path
            return
        path: str = scope["path"]
        if self.reload and path in ("/", f"/{INDEX}"):
            await anyio.to_thread.run_sync(self.refresh)  # a few stat calls; a rebuild when edited
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        reply = self.bundle.reply(scope["method"], path, headers)
        raw = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in reply.headers.items()]
        await send({"type": "http.response.start", "status": reply.status, "headers": raw})
        await send({"type": "http.response.body", "body": reply.body})
