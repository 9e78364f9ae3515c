"""Sphinx configuration of the guandan documentation: the pages of docs/ (Markdown, read by
MyST) and the API reference, built from the docstrings of the installed package.

    pip install ".[docs]" && sphinx-build -W --keep-going -b html docs docs/_build/html
"""

from importlib.metadata import version as _version

project = "guandan"
author = "the guandan authors"
copyright = "the guandan authors, MIT licence"
release = _version("guandan")
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]

# MyST: GitHub-style heading anchors, so the pages' own links (#8-rulesets) resolve.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

autodoc_default_options = {"members": True, "show-inheritance": True, "member-order": "bysource"}
autodoc_typehints = "description"
autodoc_member_order = "bysource"
# torch and ray (the train extra; torch a large download pinned to its CPU build) are not needed to read the
# training reference: autodoc imports guandan.rl.torch_train and ray_train against stand-ins.
autodoc_mock_imports = ["torch", "ray"]
autosummary_generate = False
python_use_unqualified_type_names = True

html_theme = "furo"
html_title = f"guandan {release}"
html_static_path: list[str] = []
