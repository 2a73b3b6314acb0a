"""Sphinx configuration of the translator's documentation (``make docs``)."""

import os
import sys

sys.path.insert(0, os.path.abspath(".."))

project = "translator"
author = "the translator developers"
copyright = "the translator developers"

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".md": "markdown"}
master_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

# Docstrings write names in single backticks: show them as code.
default_role = "literal"
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}

myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]

html_theme = "alabaster"
html_title = "translator"
