"""The page and its assets: files shipped with the package under ``guandan/web/static``
(plain HTML, CSS and ES modules: no build step, nothing from the network), each served
with its content type.

>>> page = asset("/")
>>> page.content_type, page.body.startswith(b"<!doctype html>")
('text/html; charset=utf-8', True)
>>> asset("/table.js").content_type, asset("/favicon.ico").content_type
('text/javascript; charset=utf-8', 'image/svg+xml')
>>> asset("/../server.py") is None, asset("/nothing.js") is None
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

__all__ = ["Asset", "asset", "CONTENT_TYPES", "ROUTES"]

#: The content type of each kind of file the page is made of.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
}

#: Paths served by another file: the table at ``/``, the viewer at ``/viewer``, the tables to
#: watch at ``/watch``, the icon
#: browsers ask for by itself.
ROUTES = {
    "/": "index.html",
    "/index.html": "index.html",
    "/viewer": "viewer.html",
    "/viewer.html": "viewer.html",
    "/watch": "watch.html",
    "/watch.html": "watch.html",
    "/favicon.ico": "favicon.svg",
}


@dataclass(frozen=True)
class Asset:
    """A file of the page: its name, content type and bytes.

    >>> Asset("x.css", CONTENT_TYPES[".css"], b"p {}").content_type
    'text/css; charset=utf-8'
    """

    name: str
    content_type: str
    body: bytes


def asset(path: str) -> Asset | None:
    """The asset served at URL path ``path`` (``/``, ``/table.js``, …), ``None`` when there
    is none: only the files of the static folder itself, by plain name.

    >>> asset("/viewer").name, asset("/static/table.js")
    ('viewer.html', None)
    """
    name = ROUTES.get(path, path[1:] if path.startswith("/") else "")
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    suffix = name[name.rfind(".") :] if "." in name else ""
    content_type = CONTENT_TYPES.get(suffix)
    if content_type is None:
        return None
    file = resources.files("guandan.web").joinpath("static", name)
    if not file.is_file():
        return None
    return Asset(name, content_type, file.read_bytes())
