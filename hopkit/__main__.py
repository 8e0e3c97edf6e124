"""``python -m hopkit``: the command line."""

from hopkit.cli.main import main

raise SystemExit(main())
