"""Every file the packages read at run time besides their Python is named in setup.cfg's
package_data, so an installed cass-cc has it (llvmfix.cpp, cudart's tables, the fuzzer's runner,
cass-train's recipes and suite were missing once)."""
from __future__ import annotations

import configparser
import fnmatch
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_data_file_is_package_data() -> None:
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    patterns = {pkg: [p.strip() for p in value.split(",")] for pkg, value in cfg["options.package_data"].items()}
    files = subprocess.run(["git", "ls-files", "cass_cc", "cass_data", "cass_train"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    data = [f for f in files if not f.endswith(".py") and Path(f).name != "README.md"]
    assert data, "no data files found: is this a git checkout?"
    missing = []
    for f in data:
        pkg, _, rel = f.partition("/")
        if not any(fnmatch.fnmatchcase(rel, p) and rel.count("/") == p.count("/") for p in patterns.get(pkg, [])):
            missing.append(f)
    assert not missing, f"not in setup.cfg's package_data: {missing}"
