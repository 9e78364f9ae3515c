"""The runnable pieces of the README and the docs pages, against the installed package: the
example bot they show (the same as ``examples/mybot.py``), its ``guandan simulate`` runs by
import path, the ``guandan play`` transcript, and the Dask script as written. (Every page's
Python examples run as doctests in ``test_docs.py``.)"""

import io
import json
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

from guandan.ui.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
EXAMPLES = ROOT / "examples"
TEXT = "\n".join(p.read_text(encoding="utf-8") for p in [README, *sorted((ROOT / "docs").glob("*.md"))])
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(language: str) -> list[str]:
    return [body for lang, body in _FENCE.findall(TEXT) if lang == language]


def test_the_example_bot_of_the_docs_is_examples_mybot():
    """The class typed at the docs' prompts is the class of examples/mybot.py, line for line
    (blank lines aside: a doctest cannot hold them)."""
    (source,) = [b for b in blocks("python") if "class LongestBot" in b]
    lines = [line[4:] for line in source.splitlines() if line.startswith((">>> ", "... "))]
    start = next(i for i, line in enumerate(lines) if line.startswith("class LongestBot"))
    end = next(i for i, line in enumerate(lines[start + 1 :], start + 1) if not line.startswith(" "))
    module = (EXAMPLES / "mybot.py").read_text(encoding="utf-8")
    in_module = [line for line in module[module.index("class LongestBot") :].splitlines() if line.strip()]
    assert lines[start:end] == in_module
    imports = [line for line in lines[:start] if line.startswith("from guandan")]
    line = "from guandan.core.notation import sort_moves"
    assert line in imports and line in module


def _simulate_runs() -> list[str]:
    return [
        line[2:]
        for body in blocks("text")
        for line in body.splitlines()
        if line.startswith("$ guandan simulate ") and "mybot:" in line
    ]


@pytest.mark.slow
@pytest.mark.parametrize("command", _simulate_runs())
def test_the_docs_run_the_example_bot_by_import_path_from_examples(monkeypatch, capsys, command):
    """Each run, shortened to 3 matches on two workers, from examples/ as the docs say."""
    argv = shlex.split(command)[1:]
    assert argv[:2] == ["simulate", "200"]
    monkeypatch.chdir(EXAMPLES)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(EXAMPLES))])
    assert main(["simulate", "3", *argv[2:], "--workers", "2", "--quiet", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["sides"][0]["agents"] == "mybot:LongestBot / mybot:LongestBot"
    assert sum(side["matches_won"] for side in summary["sides"]) == 3


def test_the_docs_have_the_runs_of_the_example_bot():
    assert len(_simulate_runs()) == 2


@pytest.mark.slow
def test_the_play_transcript_is_the_commands_real_output(monkeypatch, capsys):
    (body,) = [b for b in blocks("text") if b.startswith("$ guandan play ")]
    command, _, expected = body.partition("\n")
    typed = re.findall(r"^(?:Your play|Which[^>]*|Tribute|Return)> (.*)$", expected, flags=re.MULTILINE)
    assert typed and typed[-1] == "quit"
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(line + "\n" for line in typed)))
    assert main(shlex.split(command)[2:]) == 0  # "$ guandan play …"
    assert capsys.readouterr().out == expected


@pytest.mark.slow
def test_the_dask_script_runs_as_written(tmp_path):
    (script,) = [b for b in blocks("python") if "from distributed import Client" in b]
    (tmp_path / "run_on_dask.py").write_text(script, encoding="utf-8")
    (shown,) = [b for b in blocks("text") if b.startswith("$ python run_on_dask.py")]
    result = subprocess.run(
        [sys.executable, "run_on_dask.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "$ python run_on_dask.py\n" + result.stdout == shown


def test_the_readmes_quick_part_is_the_slow_markers_rule(pytestconfig):
    """The README states what the quick part leaves out as the rule of the ``slow`` marker (no
    counts, no times that no test keeps true), and that rule is the one the suite reports by."""
    import configparser

    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg", encoding="utf-8")
    marker = next(line for line in setup["tool:pytest"]["markers"].splitlines() if line.strip().startswith("slow:"))
    assert "slow: a test of a second or more" in marker
    prose = " ".join(TEXT.split())
    stated = '"not slow"` runs the quick part, for every edit: every test of a second or more is marked `slow`'
    assert stated in prose
    assert not re.search(r"\d[\d,]* tests in", prose), "the README states a test count"
    conftest = str(ROOT / "tests" / "conftest.py")
    (reporter,) = [p for p in pytestconfig.pluginmanager.get_plugins() if getattr(p, "__file__", "") == conftest]
    assert reporter.SLOW_SECONDS == 1.0
