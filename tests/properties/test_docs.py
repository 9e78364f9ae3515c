"""The project's documents stay honest: every page of docs/ (and the README) has Python
examples that run, command transcripts that are the commands' real output and links that
resolve; docs/rules.md's worked examples match the engine; the pages show the example bots
as they are in examples/; the LICENSE matches pyproject.toml; no document cites a file the
repository lacks, nor an issue number.

The worked examples are fenced ``text`` blocks of the form::

    level 9 · S3 C3 S5 C5 H9
        full_house 3: S3 C3 S5 C5 H9 (H9 as 3)
        full_house 5: S3 C3 S5 C5 H9 (H9 as 5)
    level any · SB HR
        nothing

a header (a level, or ``any`` for every level, and the cards) followed by every
declaration :func:`guandan.classify` gives, as ``str(move)``, one a line — or ``nothing``.
Transcript blocks start with ``$ guandan …``: each command's output follows it.
"""

import ast
import doctest
import pathlib
import re
import shlex
import sys
import tomllib

import pytest

from guandan import MoveType, classify
from guandan.game.rules import RULESETS
from guandan.ui.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
RULES = DOCS / "rules.md"
README = ROOT / "README.md"
PAGES = sorted(DOCS.glob("*.md"))
EXAMPLES_DIR = ROOT / "examples"
LICENSE = ROOT / "LICENSE"
PYPROJECT = ROOT / "pyproject.toml"

_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
_HEADER = re.compile(r"^level (\S+) · (.+)$")
ALL_LEVELS = tuple(range(2, 15))


def _blocks(text: str, language: str) -> list[str]:
    return [body for lang, body in _FENCE.findall(text) if lang == language]


def worked_examples(text: str) -> list[tuple[str, str, list[str]]]:
    """(level, cards, expected lines) of every worked example in the text blocks that open with ``level``."""
    examples: list[tuple[str, str, list[str]]] = []
    for body in _blocks(text, "text"):
        lines = body.splitlines()
        if not lines or not lines[0].startswith("level "):
            continue
        for line in lines:
            header = _HEADER.match(line)
            if header:
                examples.append((header[1], header[2].strip(), []))
            elif line.startswith("    ") and line.strip() and examples:
                examples[-1][2].append(line.strip())
            else:
                raise AssertionError(f"docs/rules.md: not a worked-example line: {line!r}")
    return examples


def transcripts(text: str) -> list[tuple[str, str]]:
    """(command, expected output) of every ``$ guandan …`` in the text blocks that open with one."""
    out: list[tuple[str, str]] = []
    for body in _blocks(text, "text"):
        if not body.startswith("$ guandan "):
            continue
        for chunk in re.split(r"^(?=\$ )", body, flags=re.MULTILINE):
            if chunk.strip():
                command, _, output = chunk.partition("\n")
                out.append((command[2:], output.rstrip("\n") + "\n"))
    return out


RULES_TEXT = RULES.read_text(encoding="utf-8")
EXAMPLES = worked_examples(RULES_TEXT)
# the pages whose transcripts are deterministic (no times): the rules and the command line's moves
TRANSCRIPTS = transcripts(RULES_TEXT) + transcripts((DOCS / "command-line.md").read_text(encoding="utf-8"))


# -- docs/rules.md --------------------------------------------------------------------------------


def test_the_rules_page_has_its_worked_examples_and_transcripts():
    # the parsers found the blocks (so the checks below cannot pass by finding nothing)
    assert len(EXAMPLES) >= 35
    assert sum(1 for level, _, _ in EXAMPLES if level == "any") >= 3
    assert sum(1 for _, _, expected in EXAMPLES if expected == ["nothing"]) >= 8
    assert len(TRANSCRIPTS) >= 6
    assert all(expected for _, _, expected in EXAMPLES)


@pytest.mark.parametrize(("level", "cards", "expected"), EXAMPLES, ids=[f"{lv}:{c}" for lv, c, _ in EXAMPLES])
def test_worked_example_lists_every_declaration_and_nothing_else(level, cards, expected):
    levels = ALL_LEVELS if level == "any" else (level,)
    want = [] if expected == ["nothing"] else expected
    for lvl in levels:
        found = [str(move) for move in classify(cards, lvl)]
        assert sorted(found) == sorted(want), f"level {lvl}: {cards}"


@pytest.mark.parametrize(("command", "expected"), TRANSCRIPTS, ids=[c for c, _ in TRANSCRIPTS])
def test_transcript_is_the_commands_real_output(capsys, command, expected):
    argv = shlex.split(command)
    assert argv[0] == "guandan"
    status = main(argv[1:])
    out, err = capsys.readouterr()
    if expected.startswith("guandan: error: "):  # a transcript of an error: status 2, the message on stderr
        assert (status, out, err) == (2, "", expected)
    else:
        assert (status, err) == (0, "")
        assert out == expected


def _slug(heading: str) -> str:
    """The anchor GitHub (and MyST) gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(text: str) -> set[str]:
    anchors: set[str] = set()
    for heading in re.findall(r"^#+ (.+)$", re.sub(_FENCE, "", text), flags=re.MULTILINE):
        slug = _slug(heading)
        n = 0
        while (slug if n == 0 else f"{slug}-{n}") in anchors:
            n += 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES + [README], ids=lambda p: p.name)
def test_the_python_examples_of_every_page_run(page, monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES_DIR))  # the pages import the example bots
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert result.failed == 0


def test_the_pages_have_python_examples():
    counts = {p.name: doctest.DocTestParser().get_examples(p.read_text(encoding="utf-8")) for p in PAGES + [README]}
    assert len(counts["rules.md"]) >= 20 and len(counts["search-bots.md"]) >= 30 and len(counts["README.md"]) >= 10
    assert all(counts[name] for name in ("library.md", "game.md", "bots.md", "simulation.md", "platform.md"))


@pytest.mark.parametrize("page", PAGES + [README], ids=lambda p: p.name)
def test_the_links_of_every_page_resolve(page):
    links = re.findall(r"\]\(([^)\s]+)\)", re.sub(_FENCE, "", page.read_text(encoding="utf-8")))
    for link in links:
        if "://" in link:
            continue
        path, _, anchor = link.partition("#")
        target = (page.parent / path) if path else page
        assert target.exists(), f"{page.name}: {link}"
        if anchor and target.suffix == ".md":
            assert anchor in _anchors(target.read_text(encoding="utf-8")), f"{page.name}: {link}"


def test_the_rules_page_links_within_itself():
    assert len(re.findall(r"\]\(#[^)\s]+\)", re.sub(_FENCE, "", RULES_TEXT))) >= 10


@pytest.mark.parametrize("page", PAGES + [README], ids=lambda p: p.name)
def test_no_page_cites_a_file_the_repository_lacks_or_an_issue(page):
    text = page.read_text(encoding="utf-8")
    for cited in re.findall(r"\b[A-Z][A-Z-]+\.md\b", text):
        assert (ROOT / cited).exists() or (DOCS / cited).exists(), f"{page.name} cites {cited}"
    assert not re.search(r"\b[Ii]ssues? #?\d+\b|\bSPEC(\.md| §)|\.\./shared", text), page.name


def test_every_page_is_in_the_table_of_contents():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^([\w/-]+)$", index, flags=re.MULTILINE))
    assert {p.stem for p in PAGES} - {"index"} <= listed


def test_every_combination_type_and_every_ruleset_is_documented():
    for move_type in MoveType:
        if move_type != MoveType.PASS:
            assert f"| `{move_type.label}` |" in RULES_TEXT, move_type.label
    for name in RULESETS:
        assert f"`{name}`" in RULES_TEXT, name


# -- install lines ---------------------------------------------------------------------------------

SOURCES = sorted((ROOT / "src" / "guandan").rglob("*.py")) + sorted((ROOT / "src" / "guandan").rglob("*.pyx"))
_INSTALL = re.compile(r"pip install[^\n`]*")


def _install_lines(path: pathlib.Path) -> list[str]:
    return _INSTALL.findall(path.read_text(encoding="utf-8"))


def test_install_lines_are_found():
    lines = [line for path in PAGES + [README] + SOURCES for line in _install_lines(path)]
    assert len(lines) >= 10 and any('".[rl]"' in line for line in lines)


def test_every_install_line_installs_the_checkout_with_an_extra_it_has():
    """``pip install "guandan[rl]"`` would fetch another project of that name from the package
    index: an install line of the docs, the README or a message of the package names the
    checkout, ``.`` or ``".[extra]"``, with an extra pyproject.toml declares."""
    extras = set(tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"])
    wrong = []
    for path in PAGES + [README] + SOURCES:
        for line in _install_lines(path):
            named = {e for found in re.findall(r"""\.\[([\w,-]+)\]""", line) for e in found.split(",")}
            if re.search(r"guandan\[", line) or not named <= extras:
                wrong.append(f"{path.relative_to(ROOT)}: {line}")
        if re.search(r"\bguandan\[\w", path.read_text(encoding="utf-8")):
            wrong.append(f"{path.relative_to(ROOT)} names guandan[...]")
    assert not wrong


def _requirement_name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0]).lower()


def _top_level_imports(path: pathlib.Path) -> set[str]:
    """The packages a module imports when it is imported (its top level and the ``try`` there)."""
    names: set[str] = set()
    statements = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while statements:
        node = statements.pop()
        if isinstance(node, ast.Try):
            statements += node.body
        elif isinstance(node, ast.Import):
            names |= {alias.name.partition(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names - set(sys.stdlib_module_names) - {"guandan", "__future__"}


@pytest.mark.slow
def test_the_docs_extra_alone_holds_every_package_the_reference_imports():
    """``pip install ".[docs]"`` alone builds the API reference: every third-party package a
    module of docs/api/ imports when autodoc imports it is a dependency or in the docs extra."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    installed = {_requirement_name(r) for r in project["dependencies"] + project["optional-dependencies"]["docs"]}
    modules = [m for page in sorted((DOCS / "api").glob("*.rst"))
               for m in re.findall(r"^\.\. automodule:: (\S+)$", page.read_text(encoding="utf-8"), re.MULTILINE)]
    assert "guandan.rl.env" in modules and len(modules) >= 30
    needed: dict[str, str] = {}
    for module in modules:
        base = ROOT / "src" / pathlib.Path(*module.split("."))
        sources = [p for p in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyx")) if p.exists()]
        assert sources, module
        if sources[0].suffix == ".py":
            for name in _top_level_imports(sources[0]):  # each named as its distribution
                needed.setdefault(_requirement_name(name), module)
    assert {"numpy", "gymnasium", "pettingzoo"} <= set(needed)
    conf = ast.parse((DOCS / "conf.py").read_text(encoding="utf-8"))
    mocked = {_requirement_name(name) for node in conf.body if isinstance(node, ast.Assign)
              and any(isinstance(t, ast.Name) and t.id == "autodoc_mock_imports" for t in node.targets)
              for name in ast.literal_eval(node.value)}
    missing = {name: module for name, module in needed.items() if name not in installed | mocked}
    assert not missing, f"imported by the reference's modules, not in the docs extra: {missing}"


# -- README, LICENSE ------------------------------------------------------------------------------


def test_readme_links_to_every_page():
    readme = README.read_text(encoding="utf-8")
    for page in PAGES:
        assert f"](docs/{page.name}" in readme, page.name
    assert "](docs/rules.md#10-decisions-where-the-rules-are-silent)" in readme
    assert "2022 Competitive Guandan Rules (Trial)" in readme


def test_license_is_the_one_pyproject_names():
    license_text = LICENSE.read_text(encoding="utf-8")
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    assert project["license"] == {"text": "MIT"}
    assert license_text.startswith("MIT License\n")
    assert "Copyright (c) 2026 The guandan developers" in license_text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in license_text


# -- docs/search-bots.md ---------------------------------------------------------------------------

SEARCH = ROOT / "docs" / "search-bots.md"
SEARCH_TEXT = SEARCH.read_text(encoding="utf-8")


def test_the_search_page_shows_examples_searchbot_whole():
    module = (EXAMPLES_DIR / "searchbot.py").read_text(encoding="utf-8")
    assert module in [body for lang, body in _FENCE.findall(SEARCH_TEXT) if lang == "python"]


@pytest.mark.slow
def test_the_search_bot_plays_by_import_path_on_two_workers_as_in_this_process(monkeypatch):
    from guandan.bots.simulate import simulate

    monkeypatch.syspath_prepend(str(EXAMPLES_DIR))
    spec = "searchbot:SampleSearchBot:worlds=2:candidates=4,greedy"
    one = simulate(2, spec, seed=3, kind="deal", workers=1)
    two = simulate(2, spec, seed=3, kind="deal", workers=2, chunk=1)
    assert one.rows == two.rows and len(one.rows) == 2
