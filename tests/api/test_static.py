"""Delivery of the static client (backend/api/static.py): compression, versioned URLs and caching,
module preloads, the web app manifest, its icons and the service worker.

The pure parts run on small made-up trees; the rest asks a real uvicorn server serving a copy of
``frontend/`` (a copy, so that edits to the working tree cannot change the version mid-test and the
test can edit a file itself).
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from backend.api.minify import strip_css, strip_js
from backend.api.static import (
    IMMUTABLE,
    REVALIDATE,
    Styles,
    accepts_gzip,
    build_bundle,
    combine_styles,
    etag_matches,
    lazy_graphs,
    module_graph,
    module_imports,
    read_tree,
)
from tests.support.services import ROOT, ServerProcess, serving

GZIP = {"accept-encoding": "gzip, deflate, br"}

# ---------------------------------------------------------------------------------------------
# Pure: a made-up tree


def tree() -> dict[str, bytes]:
    index = """<!doctype html>
<html><head>
  <link rel="icon" href="/favicon.svg">
  <link rel="stylesheet" href="/css/a.css">
  <link rel="stylesheet" href="/css/b.css">
  <script type="module" src="/js/app.js"></script>
</head><body><a href="#/rules">rules</a><a href="/missing.html">x</a></body></html>
"""
    return {
        "index.html": index.encode(),
        "favicon.svg": b"<svg xmlns='http://www.w3.org/2000/svg'/>",
        "css/a.css": b"@layer one, two;\n" + b".a { color: red; }\n" * 50,
        "css/b.css": b".b { color: blue; }\n",
        "js/app.js": b"// the entry; views/*.js are the pages\n/*\n import { no } from './commented.js';\n*/\n"
        b"import { x } from './x.js';\nimport * as v from './views/v.js';\nconst lazy = () => import('./lazy.js');\n",
        "js/x.js": b"export { y } from './y.js';\nexport const x = 1;\n",
        "js/y.js": b"/* import { no } from './commented.js'; */\nexport const y = 2;\n",
        "js/views/v.js": b"import {\n  x,\n} from '../x.js';\nimport '../side.js';\nexport const v = x;\n",
        "js/side.js": b"window.side = true;\n",
        "js/lazy.js": b"import { x } from './x.js';\nimport { d } from './deep.js';\n"
        b"export default () => import('./later.js');\n",
        "js/deep.js": b"export const d = 1;\n",
        "js/later.js": b"import { x } from './x.js';\nexport default x;\n",
        "js/commented.js": b"export const no = 0;\n",
        "sw.js": b"const VERSION = 'dev';\nconst SHELL = [];\n",
    }


def test_static_imports_are_read_and_dynamic_ones_left_out() -> None:
    assert module_imports(
        "import a from './a.js';\nimport { b,\n c } from \"../b.js\";\nexport * from './c.js';\n"
    ) == [
        "./a.js",
        "../b.js",
        "./c.js",
    ]
    assert module_imports("const m = await import('./lazy.js');\n// import x from './x.js';\n") == []
    assert module_imports(
        "// see table/*.js\nimport a from './a.js';\nconst glob = 'x/*.js';\nimport b from './b.js';"
    ) == [
        "./a.js",
        "./b.js",
    ]
    graph = module_graph(tree(), "js/app.js")
    assert set(graph) == {"js/x.js", "js/y.js", "js/views/v.js", "js/side.js"}


def test_modules_loaded_on_demand_are_listed_with_what_they_bring() -> None:
    # lazy.js is imported by nobody statically; the page already has x.js: it brings deep.js and
    # later.js (its literal import()).
    assert lazy_graphs(tree(), "js/app.js") == {"js/lazy.js": ["js/lazy.js", "js/deep.js", "js/later.js"]}
    html = build_bundle(tree()).assets["index.html"].body.decode()
    listed = re.search(r'<script type="application/json" id="module-graph">(.*?)</script>', html)
    assert listed and json.loads(listed.group(1)) == {"js/lazy.js": ["js/lazy.js", "js/deep.js", "js/later.js"]}


def test_index_is_versioned_preloaded_and_its_styles_combined() -> None:
    bundle = build_bundle(tree())
    html = bundle.assets["index.html"].body.decode()
    prefix = f"/v/{bundle.version}/"
    assert f'href="{prefix}favicon.svg"' in html
    assert f'src="{prefix}js/app.js"' in html
    assert 'href="#/rules"' in html and 'href="/missing.html"' in html  # not files of the tree: untouched
    preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert preloads == [prefix + name for name in bundle.preloads]
    assert html.index("js/app.js") < html.index("modulepreload")
    # The two stylesheets became one, in the page's order.
    assert re.findall(r'rel="stylesheet" href="([^"]+)"', html) == [f"{prefix}css/_all.css"]
    styles = bundle.assets["css/_all.css"].body.decode()
    assert styles.index("@layer one, two;") < styles.index(".a {") < styles.index(".b {")


def test_combine_styles_needs_two_plain_links() -> None:
    html = '<link rel="stylesheet" href="/css/a.css" media="print">\n<link rel="stylesheet" href="/css/b.css">\n'
    assert combine_styles(html, tree()) == Styles(html, {}, {})


def test_the_version_follows_the_content() -> None:
    files = tree()
    first = build_bundle(files)
    assert build_bundle(dict(files)).version == first.version
    files["js/y.js"] += b"// changed\n"
    assert build_bundle(files).version != first.version


def test_service_worker_gets_the_version_and_the_shell() -> None:
    bundle = build_bundle(tree())
    worker = bundle.assets["sw.js"].body.decode()
    assert f'const VERSION = "{bundle.version}";' in worker
    shell = json.loads(re.search(r"const SHELL = (\[.*\]);", worker).group(1))  # type: ignore[union-attr]
    prefix = f"/v/{bundle.version}/"
    assert shell[0] == "/"
    assert f"{prefix}js/app.js" in shell and f"{prefix}css/_all.css" in shell and f"{prefix}js/y.js" in shell
    assert all(url == "/" or url.startswith(prefix) for url in shell)


def test_a_worker_without_the_placeholders_is_refused() -> None:
    files = tree()
    files["sw.js"] = b"self.addEventListener('fetch', () => {});\n"
    with pytest.raises(ValueError, match="VERSION"):
        build_bundle(files)


def test_replies_encoding_cache_and_conditional_requests() -> None:
    bundle = build_bundle(tree())
    prefix = f"/v/{bundle.version}/"
    plain = bundle.reply("GET", f"{prefix}css/a.css", {})
    packed = bundle.reply("GET", f"{prefix}css/a.css", GZIP)
    assert plain.status == packed.status == 200
    assert "content-encoding" not in plain.headers and packed.headers["content-encoding"] == "gzip"
    assert gzip.decompress(packed.body) == plain.body
    assert packed.headers["vary"] == "Accept-Encoding"
    assert packed.headers["content-length"] == str(len(packed.body))
    assert plain.headers["cache-control"] == packed.headers["cache-control"] == IMMUTABLE
    assert plain.headers["etag"] != packed.headers["etag"]
    for etag in (plain.headers["etag"], packed.headers["etag"], f"W/{packed.headers['etag']}"):
        again = bundle.reply("GET", f"{prefix}css/a.css", {**GZIP, "if-none-match": etag})
        assert (again.status, again.body) == (304, b"")
    assert bundle.reply("GET", f"{prefix}css/a.css", {"if-none-match": '"other"'}).status == 200
    assert bundle.reply("HEAD", f"{prefix}css/a.css", GZIP).body == b""
    assert bundle.reply("POST", f"{prefix}css/a.css", {}).status == 405
    # The page, the worker, plain paths and other versions: always revalidated.
    for path in ("/", "/index.html", "/sw.js", "/css/a.css", "/v/0123456789ab/css/a.css", f"{prefix}index.html"):
        reply = bundle.reply("GET", path, GZIP)
        assert (reply.status, reply.headers["cache-control"]) == (200, REVALIDATE), path
    for path in ("/nope.js", "/js/", "/../backend/settings.py", "/js/../index.html", f"{prefix}../sw.js", "/v/"):
        assert bundle.reply("GET", path, {}).status == 404, path


def test_accept_encoding_and_if_none_match_parsing() -> None:
    assert accepts_gzip("gzip") and accepts_gzip("br, gzip;q=0.5") and accepts_gzip("*")
    assert not accepts_gzip("") and not accepts_gzip("br") and not accepts_gzip("gzip;q=0")
    assert etag_matches('"abc-gz", "x"', '"abc"') and etag_matches("*", '"abc"')
    assert not etag_matches('"abcd"', '"abc"') and not etag_matches("", '"abc"')


def test_the_page_knows_the_same_languages_as_the_client() -> None:
    """The page picks the dictionary to preload from its own list (js/preload-lang.js, the one
    script index.html runs before the modules): it must be js/i18n.js's."""
    page = (ROOT / "frontend" / "js" / "preload-lang.js").read_text()
    module = (ROOT / "frontend" / "js" / "i18n.js").read_text()
    listed = re.search(r"const langs = \[([^\]]*)\];", page)
    assert listed, "js/preload-lang.js lists the languages"
    in_page = re.findall(r"'([a-z]{2})'", listed.group(1))
    loaders = re.search(r"const LOADERS = \{(.*?)\};", module, re.DOTALL)
    assert loaders
    assert in_page == re.findall(r"^\s*([a-z]{2}): \(\) => import\('\./i18n/\1\.js'\)", loaders.group(1), re.MULTILINE)
    assert sorted(in_page) == sorted(p.stem for p in (ROOT / "frontend" / "js" / "i18n").glob("*.js"))


# ---------------------------------------------------------------------------------------------
# A real server on a copy of frontend/


def tree_with_view_styles() -> dict[str, bytes]:
    files = tree()
    files["index.html"] = files["index.html"].replace(
        b'  <link rel="stylesheet" href="/css/b.css">\n',
        b'  <link rel="stylesheet" href="/css/t.css" data-for="v lazy">\n'
        b'  <link rel="stylesheet" href="/css/b.css">\n'
        b'  <link rel="stylesheet" href="/css/t2.css" data-for="v lazy">\n'
        b'  <link rel="stylesheet" href="/css/r.css" data-for="lazy">\n',
    )
    files["css/t.css"] = b"/* the table */\n.t {\n  color: green; /* felt */\n}\n"
    files["css/t2.css"] = b".t2 { content: '/* kept */'; }\n"
    files["css/r.css"] = b".r { color: gray; }\n"
    return files


def test_a_views_stylesheets_are_bundled_apart_and_listed_for_the_router() -> None:
    bundle = build_bundle(tree_with_view_styles())
    prefix = f"/v/{bundle.version}/"
    html = bundle.assets["index.html"].body.decode()
    # The first visit's sheet has only the unmarked files; the marked ones left the page.
    assert re.findall(r'rel="stylesheet" href="([^"]+)"', html) == [f"{prefix}css/_all.css"]
    first = bundle.assets["css/_all.css"].body.decode()
    assert ".a{" in first.replace(" ", "") and ".b" in first and ".t" not in first and ".r" not in first
    # Files with the same mark: one bundle named after the first, in the page's order.
    table = bundle.assets["css/_t.css"].body.decode()
    assert table == ".t {\ncolor: green;\n}\n.t2 { content: '/* kept */'; }\n"
    assert bundle.assets["css/_r.css"].body.decode() == ".r { color: gray; }\n"
    listed = re.search(r'<script type="application/json" id="view-styles">(.*?)</script>', html)
    assert listed and json.loads(listed.group(1)) == {
        "order": ["css/_t.css", "css/_r.css"],
        "views": {"js/views/v.js": ["css/_t.css"], "js/views/lazy.js": ["css/_t.css", "css/_r.css"]},
    }
    # The service worker keeps them from its install: the views open offline too.
    worker = bundle.assets["sw.js"].body.decode()
    shell = json.loads(re.search(r"const SHELL = (\[.*\]);", worker).group(1))  # type: ignore[union-attr]
    assert f"{prefix}css/_t.css" in shell and f"{prefix}css/_r.css" in shell and f"{prefix}css/_all.css" in shell


def test_served_css_and_js_lose_comments_and_indentation_only() -> None:
    assert strip_css('/* head */\n.a  .b,\n  .c/**/.d {\n    content: "/* no */";\n\n}\n') == (
        '.a .b,\n.c.d {\ncontent: "/* no */";\n}\n'
    )
    source = """// a line comment
import { a } from './a.js'; /* after */
export function f(x) {
  /* block
     over lines */
  const url = 'http://x//y'; const s = "/* not a comment */";
  const t = `a ${x ? `in ${'}'} // not` : "/*"} b
    kept indentation // in the literal`;
  const re = /\\/\\/[/*]+/g, half = x / 2 / 1; // division
  if (!/^\\d+$/.test(url)) return /x/i;
  return typeof /y/ === 'object' ? a : `${{ k: 1 }.k}`;
}
"""
    out = strip_js(source)
    assert out == (
        "import { a } from './a.js';\n"
        "export function f(x) {\n"
        "const url = 'http://x//y'; const s = \"/* not a comment */\";\n"
        "const t = `a ${x ? `in ${'}'} // not` : \"/*\"} b\n    kept indentation // in the literal`;\n"
        "const re = /\\/\\/[/*]+/g, half = x / 2 / 1;\n"
        "if (!/^\\d+$/.test(url)) return /x/i;\n"
        "return typeof /y/ === 'object' ? a : `${{ k: 1 }.k}`;\n"
        "}\n"
    )
    assert strip_js(out) == out
    with pytest.raises(ValueError):
        strip_js("const t = `open ${x\n")
    # What the tokenizer cannot read is served as it is, not refused.
    files = tree()
    files["js/odd.js"] = b"// odd\nconst t = `open ${x\n"
    assert build_bundle(files).assets["js/odd.js"].body == files["js/odd.js"]


EXPORTED = re.compile(
    r"\bexport\s+(?:default\b|(?:async\s+)?(?:function\*?|const|let|var|class)\s+([\w$]+)|\{([^}]*)\})"
)


def exported_names(source: str) -> set[str]:
    names = set()
    for match in EXPORTED.finditer(source):
        if match.group(0).endswith("default"):
            names.add("default")
        elif match.group(1):
            names.add(match.group(1))
        else:
            names.update(part.split(" as ")[-1].strip() for part in match.group(2).split(",") if part.strip())
    return names


def test_every_served_module_still_parses_with_the_same_imports_and_exports(tmp_path: Path) -> None:
    """The safety net of the JavaScript stripper: node reads every stripped module as an ES module,
    and its imports (static and literal ``import()``) and exported names are the original's."""
    files = read_tree(ROOT / "frontend")
    bundle = build_bundle(files)
    checked = 0
    for name, original in files.items():
        if not name.endswith((".js", ".mjs")) or name == "sw.js":
            continue
        served = bundle.assets[name].body.decode()
        source = original.decode()
        assert len(served) <= len(source), name
        assert module_imports(served) == module_imports(source), name
        assert re.findall(r"import\(\s*'[^']+'\s*\)", served) == re.findall(r"import\(\s*'[^']+'\s*\)", source)
        assert exported_names(served) == exported_names(strip_js(source)) == exported_names(source), name
        target = tmp_path / (name.replace("/", "__") + ".mjs")
        target.write_text(served)
        result = subprocess.run(["node", "--check", str(target)], capture_output=True, text=True, check=False)
        assert result.returncode == 0, f"{name}: {result.stderr}"
        checked += 1
    assert checked > 30
    worker = bundle.assets["sw.js"].body.decode()
    target = tmp_path / "sw.js"
    target.write_text(worker)
    assert subprocess.run(["node", "--check", str(target)], check=False).returncode == 0
    # The served files changed, the version is still the content's: the raw tree's hash.
    assert bundle.assets["js/app.js"].body != files["js/app.js"]


@pytest.fixture(scope="module")
def client_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("frontend") / "frontend"
    shutil.copytree(ROOT / "frontend", copy)
    return copy


@pytest.fixture(scope="module")
def static_server(tmp_path_factory: pytest.TempPathFactory, client_copy: Path) -> Iterator[ServerProcess]:
    with serving("sqlite", tmp_path_factory.mktemp("static"), FRONTEND_DIR=str(client_copy)) as server:
        yield server


@pytest.fixture
def http(static_server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=static_server.url, timeout=10) as client:
        yield client


def page_version(html: str) -> str:
    found = re.search(r'src="/v/([0-9a-f]+)/js/app\.js"', html)
    assert found, html[:2000]
    return found.group(1)


def test_text_files_are_sent_gzipped_when_accepted(http: httpx.Client) -> None:
    page = http.get("/", headers=GZIP)
    prefix = f"/v/{page_version(page.text)}/"
    assert page.headers["content-encoding"] == "gzip"
    for path, kind in (
        ("/", "text/html"),
        (f"{prefix}js/app.js", "text/javascript"),
        (f"{prefix}css/_all.css", "text/css"),
    ):
        raw = http.get(path, headers={"accept-encoding": "gzip"})
        identity = http.get(path, headers={"accept-encoding": "identity"})
        assert raw.headers["content-encoding"] == "gzip", path
        assert "content-encoding" not in identity.headers, path
        assert raw.headers["content-type"].startswith(kind) and identity.headers["content-type"].startswith(kind)
        assert int(raw.headers["content-length"]) < int(identity.headers["content-length"]) / 2, path
        assert raw.content == identity.content  # httpx decodes the gzip body


def test_cache_headers_and_revalidation(http: httpx.Client) -> None:
    page = http.get("/", headers=GZIP)
    prefix = f"/v/{page_version(page.text)}/"
    assert page.headers["cache-control"] == "no-cache"
    assert http.get("/", headers={**GZIP, "if-none-match": page.headers["etag"]}).status_code == 304
    worker = http.get("/sw.js")
    assert worker.headers["cache-control"] == "no-cache"
    assert worker.headers["content-type"].startswith("text/javascript")
    assert http.get("/sw.js", headers={"if-none-match": worker.headers["etag"]}).status_code == 304
    asset = http.get(f"{prefix}js/i18n.js", headers=GZIP)
    assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
    again = http.get(f"{prefix}js/i18n.js", headers={**GZIP, "if-none-match": asset.headers["etag"]})
    assert (again.status_code, again.content) == (304, b"")
    # A page loaded before a deploy asking for a module of its own version: the current one, not kept.
    old = http.get("/v/000000000000/js/i18n.js")
    assert (old.status_code, old.headers["cache-control"]) == (200, "no-cache")
    assert old.content == asset.content
    assert http.get("/js/i18n.js").headers["cache-control"] == "no-cache"
    assert http.get("/tools/check-i18n.mjs").status_code == 404
    assert http.get("/README.md").status_code == 404


def test_the_api_and_its_routes_still_answer(http: httpx.Client) -> None:
    health = http.get("/api/health")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert http.get("/api/nothing-here").status_code == 404
    assert http.get("/nothing-here.js").status_code == 404


def test_preloads_name_every_module_the_entry_imports(http: httpx.Client) -> None:
    html = http.get("/").text
    prefix = f"/v/{page_version(html)}/"
    preloads = re.findall(r'<link rel="modulepreload" href="([^"]+)">', html)
    assert preloads and all(url.startswith(prefix) for url in preloads)
    # Closed under static imports: every static import of app.js or of a preloaded module is preloaded.
    known = set(preloads) | {f"{prefix}js/app.js"}
    for url in known:
        source = http.get(url).text
        for spec in module_imports(source):
            target = httpx.URL(f"http://x{url}").join(spec).path
            assert target in known, f"{url} imports {target}, which is not preloaded"
    # The dictionaries load on demand: never preloaded.
    assert not any("/js/i18n/" in url for url in preloads)


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_manifest_and_icons(http: httpx.Client) -> None:
    html = http.get("/").text
    link = re.search(r'<link rel="manifest" href="([^"]+)">', html)
    assert link and link.group(1).startswith("/v/")
    response = http.get(link.group(1))
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["name"] and manifest["short_name"]
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = set()
    for icon in manifest["icons"]:
        url = httpx.URL(f"http://x{link.group(1)}").join(icon["src"]).path
        got = http.get(url)
        assert got.status_code == 200, url
        assert got.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(got.content)
            assert f"{width}x{height}" == icon["sizes"]
            sizes.add((width, icon["purpose"]))
        else:
            assert icon["type"] == "image/svg+xml" and b"<svg" in got.content
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= sizes
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html)
    assert touch and png_size(http.get(touch.group(1)).content) == (192, 192)


def test_service_worker_is_served_for_the_current_version_and_never_for_the_api(http: httpx.Client) -> None:
    version = page_version(http.get("/").text)
    worker = http.get("/sw.js").text
    assert f'const VERSION = "{version}";' in worker
    shell = json.loads(re.search(r"const SHELL = (\[.*\]);", worker).group(1))  # type: ignore[union-attr]
    assert f"/v/{version}/js/app.js" in shell
    # The views' stylesheet bundles too: the table opens offline as it did when all was one sheet.
    assert {f"/v/{version}/css/_{name}.css" for name in ("all", "table", "history", "replay", "h2h", "rules")} <= set(
        shell
    )
    assert not any(url.startswith(("/api", "/ws")) for url in shell)
    # What it answers and keeps is decided in one place, which turns /api and /ws away first.
    cacheable = re.search(r"function cacheable\(url\) \{(.*?)\n\}", worker, re.DOTALL)
    assert cacheable, worker
    body = cacheable.group(1)
    assert "'/api'" in body and "'/ws'" in body
    assert body.index("'/api'") < body.index("return url.pathname === '/'")


def test_an_edited_file_gives_a_new_version_at_the_next_page_load(http: httpx.Client, client_copy: Path) -> None:
    before = page_version(http.get("/").text)
    rules = client_copy / "js" / "views" / "rules.js"
    rules.write_text(rules.read_text() + "\nexport const edited = 1;\n")
    after = page_version(http.get("/").text)
    assert after != before
    assert http.get(f"/v/{after}/js/views/rules.js").text.endswith("export const edited = 1;\n")
    assert http.get(f"/v/{after}/js/views/rules.js").headers["cache-control"] == IMMUTABLE
    assert http.get(f"/v/{before}/js/views/rules.js").headers["cache-control"] == REVALIDATE


def test_without_frontend_reload_an_edited_file_changes_nothing(tmp_path_factory: pytest.TempPathFactory) -> None:
    """FRONTEND_RELOAD=0 (production): the client is built once at start; edits on disk are not looked for."""
    copy = tmp_path_factory.mktemp("frontend-fixed") / "frontend"
    shutil.copytree(ROOT / "frontend", copy)
    folder = tmp_path_factory.mktemp("static-fixed")
    with (
        serving("sqlite", folder, FRONTEND_DIR=str(copy), FRONTEND_RELOAD="0") as server,
        httpx.Client(base_url=server.url, timeout=10) as client,
    ):
        before = page_version(client.get("/").text)
        rules = copy / "js" / "views" / "rules.js"
        rules.write_text(rules.read_text() + "\n// edited\n")
        assert page_version(client.get("/").text) == before
        assert not client.get(f"/v/{before}/js/views/rules.js").text.endswith("// edited\n")
