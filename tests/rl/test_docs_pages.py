"""The learning pages (docs/encodings.md, docs/training.md): their Python examples run, their
links resolve, and the README points to them."""

from __future__ import annotations

import doctest
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGES = [ROOT / "docs" / "encodings.md", ROOT / "docs" / "training.md"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_pages_python_examples_run(page):
    if page.name == "training.md":
        pytest.importorskip("pettingzoo")
        pytest.importorskip("gymnasium")
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)  # fmt: skip
    assert result.attempted >= 5 and result.failed == 0


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_pages_links_resolve(page):
    text = re.sub(r"^```.*?^```$", "", page.read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    for link in re.findall(r"\]\(([^)\s]+)\)", text):
        if "://" not in link and not link.startswith("#"):
            assert (page.parent / link.split("#")[0]).exists(), link


def test_the_readme_links_to_the_learning_pages():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/training.md" in readme and "docs/encodings.md" in readme
