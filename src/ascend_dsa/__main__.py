"""``python -m ascend_dsa``: the command line."""

from ascend_dsa.cli import main

raise SystemExit(main())
