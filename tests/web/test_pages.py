"""The page is whole as installed: every file the pages name (scripts, modules they import,
the style sheet, the icon) is served from the package's static folder, with its type; none
comes from elsewhere."""

from __future__ import annotations

import re
from importlib import resources

from guandan.web.pages import CONTENT_TYPES, asset

STATIC = resources.files("guandan.web").joinpath("static")


def referenced(name):
    text = STATIC.joinpath(name).read_text(encoding="utf-8")
    if name.endswith(".html"):
        return re.findall(r'(?:src|href)="(/[^"]*)"', text)
    return ["/" + m for m in re.findall(r'from "\./([^"]+)"', text)]


def test_every_file_the_pages_name_is_installed_and_served():
    seen, todo = set(), ["index.html", "viewer.html"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for path in referenced(name):
            if path in ("/", "/viewer", "/watch"):  # the pages, by their routes
                todo.append(asset(path).name)
                continue
            found = asset(path)
            assert found is not None, f"{name} names {path}, which the package does not serve"
            assert found.content_type == CONTENT_TYPES["." + path.rsplit(".", 1)[1]]
            if path.endswith((".js", ".html")):
                todo.append(found.name)
    pages = {"index.html", "viewer.html", "watch.html", "table.js", "viewer.js", "watch.js", "cards.js", "net.js"}
    assert pages <= seen
    installed = {f.name for f in STATIC.iterdir()}
    assert installed >= seen | {"style.css", "favicon.svg"}


def test_the_pages_are_modules_without_a_build_step():
    for name in ("index.html", "viewer.html", "watch.html"):
        text = STATIC.joinpath(name).read_text(encoding="utf-8")
        assert '<script type="module"' in text and '<meta name="viewport"' in text
    css = STATIC.joinpath("style.css").read_text(encoding="utf-8")
    assert "@media (max-width:" in css and "url(" not in css
