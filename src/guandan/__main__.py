"""Run the command line: ``python -m guandan moves "S3 C4 D4 C5 D5 H2" --level 2``."""

from .ui.cli import main

raise SystemExit(main())
