#!/usr/bin/env bash
# Install what the tests need, then run them (two workers: CI has two cores).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --test
exec python3 -m pytest -n 2 -q -p no:benchmark "$@"
