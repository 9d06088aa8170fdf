"""`python -m cass_cc ...` is `cass-cc ...`."""
import sys

from .cli import main

sys.exit(main())
