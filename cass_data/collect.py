"""`collect`: units from local trees, git checkouts, a Hugging Face dataset of files, a
`cass-data synth` folder, or HeCBench's `src/<name>-cuda` programs.

Each source is a string (a recipe's `sources` list, or `cass-data collect SOURCE...`):
    PATH                 a local folder; origin = its first-level folder (a repository each)
    git+URL[@REV]        a git checkout (cloned shallow into the work folder); origin = the URL's name
    hf:NAME_OR_PATH[:SPLIT]  a dataset of files (columns content, path, repo_name, license(s))
    synth:N:SEED[:DOMAINS]  `cass-data synth` programs generated in place (DOMAINS: a,b,... in order)
    hecbench:SRC_DIR[:NAMES_FILE]  HeCBench programs (<name>-cuda folders, built with their Makefile)
"""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Iterator, Sequence

from .units import HEADER_SUFFIXES, MAX_FILE_BYTES, SOURCE_SUFFIXES, any_includes, has_main, make_unit, split_kernels


class CollectError(Exception):
    pass


def collect(sources: list[str], work: Path, licence: str | None = None,
            include: Sequence[Path] = ()) -> Iterator[dict[str, Any]]:
    """`include`: folders searched for the headers a local or git source's files include (nvcc's -I)."""
    for folder in include:
        if not Path(folder).is_dir():  # a typo would silently drop every unit that needs it
            raise CollectError(f"{folder}: include folder not found")
    for source in sources:
        if source.startswith("git+"):
            yield from from_git(source[4:], work / "checkouts", licence, include)
        elif source.startswith("hf:"):
            yield from from_hf(source[3:])
        elif source.startswith("synth:"):
            yield from from_synth(source[6:])
        elif source.startswith("hecbench:"):
            yield from from_hecbench(source[9:])
        else:
            root = Path(source)
            if not root.is_dir():
                raise CollectError(f"{source}: not a folder (and not git+URL, hf:, synth:, hecbench:)")
            if (root / "manifest.jsonl").is_file():
                yield from from_synth_folder(root)
            else:
                yield from from_tree(root, licence, include=include)


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # Not UTF-8 (a Latin-1 copyright sign in a comment, say): every byte is a Latin-1 character, so
        # the text is kept whole and is valid Unicode for the store, dedup and Parquet downstream.
        return data.decode("latin-1")


def _with_headers(main: Path, include: Sequence[Path] = ()) -> dict[str, str]:
    """The .cu and the headers it includes, transitively: a quoted header beside its includer (in
    the .cu's folder), and any header (quoted or <angled>) found in an `include` folder, as nvcc's
    -I finds it. A header from an include folder is placed at the unit's top under its path in that
    folder, where the build's -I of the unit's folder finds it again."""
    top = main.parent.resolve()
    bases = [top, *(Path(d).resolve() for d in include)]
    files: dict[str, str] = {}
    todo = [main.resolve()]
    while todo:
        p = todo.pop()
        rel = next((p.relative_to(b).as_posix() for b in bases if p.is_relative_to(b)), None)
        if rel is None or rel in files:
            continue
        text = _read(p)
        if text is None:
            continue
        files[rel] = text
        for mark, inc in any_includes(text):
            found = [p.parent / inc] if mark == '"' else []
            found += [b / inc for b in bases[1:]]
            q = next((f.resolve() for f in found if f.is_file() and f.suffix in HEADER_SUFFIXES + SOURCE_SUFFIXES), None)
            if q is not None and any(q.is_relative_to(b) for b in bases):
                todo.append(q)
    return dict(sorted(files.items()))


def units_of_file(path: Path, rel: str, origin: str, domain: str, licence: str | None,
                  text: str | None = None, files: dict[str, str] | None = None,
                  include: Sequence[Path] = ()) -> Iterator[dict[str, Any]]:
    """A program (has main) or one unit per kernel."""
    files = files if files is not None else _with_headers(path, include)
    main = os.path.basename(rel)
    text = text if text is not None else files.get(main)
    if text is None:
        return
    files = {**files, main: text}
    if has_main(text):
        yield make_unit(origin=origin, path=rel, kind="program", files=files, main=main, domain=domain,
                        licence=licence, run={"args": []})
        return
    for kernel, body in split_kernels(text):
        if not kernel:
            continue  # no kernel: nothing to pair
        yield make_unit(origin=origin, path=rel, kind="kernel", files={**files, main: body}, main=main,
                        domain=domain, licence=licence, kernel=kernel)


def from_tree(root: Path, licence: str | None, origin: str | None = None,
              include: Sequence[Path] = ()) -> Iterator[dict[str, Any]]:
    for path in sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file()):
        rel = path.relative_to(root).as_posix()
        parts = rel.split("/")
        org = origin or (parts[0] if len(parts) > 1 else root.name)
        yield from units_of_file(path, rel, org, _domain_of(parts), _licence_of(root, parts) or licence, include=include)


def _domain_of(parts: list[str]) -> str:
    return parts[-2] if len(parts) > 2 else "unknown"


def _licence_of(root: Path, parts: list[str]) -> str | None:
    """A LICENSE/COPYING file's first line in the unit's repository folder, when there is one."""
    base = root / parts[0] if len(parts) > 1 else root
    for name in ("LICENSE", "LICENSE.txt", "LICENSE.md", "COPYING"):
        p = base / name
        if p.is_file():
            first = next((ln.strip() for ln in p.read_text(errors="replace").splitlines() if ln.strip()), "")
            return first[:80] or None
    return None


def from_git(spec: str, checkouts: Path, licence: str | None, include: Sequence[Path] = ()) -> Iterator[dict[str, Any]]:
    url, _, rev = spec.partition("@") if "@" in spec.rsplit("/", 1)[-1] else (spec, "", "")
    name = url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
    dest = checkouts / name
    if not dest.is_dir():
        checkouts.mkdir(parents=True, exist_ok=True)
        tmp = checkouts / f".{name}.tmp{os.getpid()}"
        args = ["git", "clone", "--quiet", *(["--depth", "1"] if not rev else []), url, str(tmp)]
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode == 0 and rev:
            r = subprocess.run(["git", "-C", str(tmp), "checkout", "--quiet", rev], capture_output=True, text=True)
        if r.returncode != 0:
            raise CollectError(f"{url}: git failed: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
        os.replace(tmp, dest)
    yield from from_tree(dest, licence, origin=name, include=include)


def from_hf(spec: str) -> Iterator[dict[str, Any]]:
    """A dataset of files: `content` (or `text`), `path`, `repo_name`, `license`/`licenses`."""
    import datasets

    name, _, split = spec.partition(":")
    split = split or "train"
    if os.path.isdir(name) or os.path.isfile(name):
        files = [name] if os.path.isfile(name) else sorted(str(p) for p in Path(name).rglob("*.parquet"))
        ds = datasets.load_dataset("parquet", data_files=files, split=split)
    else:
        ds = datasets.load_dataset(name, split=split)
    for i, row in enumerate(ds):
        text = row.get("content") or row.get("text")
        if not isinstance(text, str):
            continue
        path = str(row.get("path") or f"row{i}.cu").lstrip("/")
        origin = str(row.get("repo_name") or row.get("origin") or f"{name}#{i}")
        lic = row.get("license") or row.get("licenses")
        lic = ",".join(lic) if isinstance(lic, list) else (str(lic) if lic else None)
        yield from units_of_file(Path(path), path, origin, "stack", lic, text=text, files={})


def from_synth(spec: str) -> Iterator[dict[str, Any]]:
    """N:SEED[:DOMAINS]: N programs of seed SEED over DOMAINS (comma-separated, in that order; all
    of them by default). Program i is of domain DOMAINS[i % len(DOMAINS)], so a recipe that names
    its domains keeps its programs when the generator gains domains."""
    from .synth import DOMAINS, generate_many

    n, _, rest = spec.partition(":")
    seed, _, names = rest.partition(":")
    domains = tuple(d for d in names.split(",") if d) if names else DOMAINS
    unknown = [d for d in domains if d not in DOMAINS]
    if unknown:
        raise CollectError(f"synth:{spec}: unknown domain(s) {', '.join(unknown)}; known: {', '.join(DOMAINS)}")
    if not n.isdigit() or not domains:
        raise CollectError(f"synth:{spec}: expected synth:N:SEED[:DOMAINS]")
    for prog in generate_many(seed or "0", int(n), domains):
        yield _synth_unit(prog.domain, prog.seed, prog.index, prog.source)


def _synth_unit(domain: str, seed: str, index: int, source: str) -> dict[str, Any]:
    name = f"{domain}-{index}.cu"
    # Each synthesized program is its own family: generated from (seed, index) alone.
    return make_unit(origin=f"synth/{seed}/{domain}-{index}", path=name, kind="program", files={name: source},
                     main=name, domain=domain, licence="project licence (generated)", run={"args": []})


def from_synth_folder(root: Path) -> Iterator[dict[str, Any]]:
    for line in (root / "manifest.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        text = _read(root / entry["file"])
        if text is None:
            raise CollectError(f"{root / entry['file']}: listed in manifest.jsonl but unreadable")
        yield _synth_unit(entry["domain"], str(entry["seed"]), int(entry["index"]), text)


def from_hecbench(spec: str) -> Iterator[dict[str, Any]]:
    src, _, names_file = spec.partition(":")
    root = Path(src)
    if names_file:
        names = [n.strip() for n in Path(names_file).read_text().split() if n.strip()]
    else:
        names = sorted(p.name[:-5] for p in root.glob("*-cuda") if p.is_dir())
    licence = _licence_of(root.parent, ["."]) or "HeCBench (see its LICENSE)"
    for name in names:
        folder = root / f"{name}-cuda"
        if not folder.is_dir():
            continue
        files = {}
        for p in sorted(folder.rglob("*")):
            if p.is_file() and (p.suffix in SOURCE_SUFFIXES + HEADER_SUFFIXES + (".cpp", ".c") or p.name == "Makefile"):
                text = _read(p)
                if text is not None:
                    files[p.relative_to(folder).as_posix()] = text
        mains = [r for r, t in files.items() if r.endswith(".cu") and has_main(t)]
        if "Makefile" not in files or not any(r.endswith(".cu") for r in files):
            continue
        main = mains[0] if mains else next(r for r in files if r.endswith(".cu"))
        yield make_unit(origin=f"hecbench/{name}", path=f"{name}-cuda", kind="tree", files=files, main=main,
                        domain="hecbench", licence=licence, run={"command": "make -s ARCH={arch} run"},
                        build="make -s ARCH={arch}")
