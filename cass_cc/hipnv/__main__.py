"""`python -m cass_cc.hipnv ARGS`: what the folder's bin/hipcc runs."""
from __future__ import annotations

import sys

from .runner import main

sys.exit(main(sys.argv[1:]))
