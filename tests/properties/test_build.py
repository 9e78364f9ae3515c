"""The package under test is the installed one, with its compiled core."""

import importlib.machinery
import pathlib

import guandan.core._core


def test_core_is_a_compiled_extension():
    suffix = "".join(pathlib.Path(guandan.core._core.__file__).suffixes)
    assert any(suffix.endswith(s) for s in importlib.machinery.EXTENSION_SUFFIXES), guandan.core._core.__file__
