"""Give every inventory name a status by compiling a generated use of it through cass-cc.

    python -m cass_cc.translate.status            # regenerate data/statuses.tsv (and docs/coverage.md)
    python -m cass_cc.translate.status --check    # recompile the recorded uses, list names whose status moved

works    the use translates and compiles for the target (gfx1100, the installed HIP)
served   it compiles, and cass-cc provided it: the translated line no longer holds the name (or the
         HIP name its mapping row gives: the rules rewrote it), or the name (or its HIP name) is
         declared in the prelude cass-cc put before `#line 1` (shim struct field, helper, #define)
refused  cass-cc warned with a message naming it (on the use's line, or on the `#include` of its
         header), whether or not the use compiles (`needs HIP 5.3`: HIP 5.2 declares it, its library
         lacks it)
fails    it does not compile and cass-cc said nothing that names it: a gap to fix

Headers are tested first, all in one file through `cass-cc -E` (a missing header is a fatal
error, so the file is re-run without each header that stopped it); chunks include only the
headers that resolved. Each chunk is then compiled once, `-ferror-limit=0`, and clang's errors
(with the `requested here` notes that lead back to a use) are attributed to uses by line.
"""
from __future__ import annotations

import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import click

from ..click_main import run_click
from ..inventory import data, uses
from ..inventory.data import Name, Status

ROOT = Path(__file__).resolve().parents[2]
CASS_CC = ROOT / "bin" / "cass-cc"
HIP_VERSION = (5, 2)
DIAG = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")
_KEYWORDS = frozenset("return else case new delete throw sizeof typedef using namespace if while for switch do goto "
                      "const volatile static inline extern operator template typename co_return".split())


def cass_env(cache: str | None = None) -> dict[str, str]:
    """os.environ without the user's CASS_/NVCC_ settings; a config file that is not there."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASS_", "NVCC_"))}
    if cache:
        env["CASS_CACHE_DIR"] = cache
    env["CASS_CONFIG"] = os.path.join(tempfile.gettempdir(), "cass-inventory-no-config.toml")
    return env


def run_cass(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(CASS_CC), *args], cwd=cwd, env=env, capture_output=True, text=True)


# -- translation facts ----------------------------------------------------------------------------
def hip_name(name: str) -> str:
    from . import mappings

    row = mappings.table().get(name)
    return row.hip_name if row is not None and row.available_on(HIP_VERSION) else name


def declared_names(text: str) -> set[str]:
    """Names a piece of C++ declares or defines (macros, tags, functions, fields, aliases)."""
    from ..inventory.extract import strip_comments

    text = strip_comments(text)
    found = set(re.findall(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", text, re.M))
    found |= set(re.findall(r"\b(?:struct|class|union|enum|namespace)\s+(\w+)", text))
    found |= set(re.findall(r"\busing\s+(\w+)\s*=", text))
    for m in re.finditer(r"([\w>*&])\s*[*&]*\s*\b(\w+)\s*(?:\(|;|\[|=|,)", text):
        before = text[max(0, m.start() - 20):m.start() + 1].split()
        if before and before[-1].strip("*&") not in _KEYWORDS and not before[-1].endswith(("=", "(", ",", ";", "{", "}", "return")):
            found.add(m.group(2))
    return found - _KEYWORDS


def expand_macros(prelude: str) -> str:
    """The prelude with its own macros expanded (names it makes by token pasting, CASS_BF16_PAIR2(...)
    -> __hadd2, become visible) and its #include lines left out; the text itself if clang fails."""
    body = re.sub(r"^[ \t]*#[ \t]*include\b.*$", "", prelude, flags=re.M)
    clang = os.environ.get("CASS_CLANG", "clang-15")
    try:
        proc = subprocess.run([clang, "-x", "c++", "-std=c++17", "-E", "-P", "-w", "-"], input=body,
                              capture_output=True, text=True)
    except OSError:
        return prelude
    return proc.stdout + "\n" + prelude if proc.stdout else prelude


# -- compiling ------------------------------------------------------------------------------------
class Outcome:
    """What one compile said about each line of its input."""

    def __init__(self) -> None:
        self.errors: dict[int, list[str]] = {}
        self.warnings: dict[int, list[str]] = {}
        self.unattributed: list[str] = []
        self.warned: dict[str, str] = {}  # quoted name -> the first cass-cc warning naming it
        self.translated: list[str] = []  # the translation's lines after `#line 1`
        self.prelude = ""


INCLUDED = re.compile(r"^(?:In file included from|\s+from) (?P<file>[^:\n]+):(?P<line>\d+)[:,]")


def parse_diagnostics(stderr: str, source_name: str, out: Outcome) -> None:
    """Errors by the source line they come from: their own; else the last `requested here` (or other)
    note on the source; else the `#include` line that led to the header they are in."""
    group: list[tuple[str, int, str, str, int]] = []  # severity, line, message, file, include line
    included: list[int] = []

    def flush() -> None:
        if not group:
            return
        sev, line, msg, file, inc = group[0]
        if file == source_name:
            target = line
        else:
            notes = [n_line for _, n_line, _, n_file, _ in group[1:] if n_file == source_name]
            target = notes[-1] if notes else inc
        if target:
            out.errors.setdefault(target, []).append(msg)
        else:
            out.unattributed.append(msg)
        group.clear()

    for raw in stderr.splitlines():
        m_inc = INCLUDED.match(raw)
        if m_inc:
            if os.path.basename(m_inc.group("file")) == source_name:
                included.append(int(m_inc.group("line")))
            continue
        m = DIAG.match(raw)
        if not m:
            continue
        file = os.path.basename(m.group("file"))
        line = int(m.group("line"))
        inc = included[-1] if included else 0
        included.clear()
        sev = m.group("sev")
        if sev == "note":
            if group:
                group.append((sev, line, m.group("msg"), file, inc))
            continue
        flush()
        if sev == "warning":
            if file == source_name:
                out.warnings.setdefault(line, []).append(m.group("msg"))
                for quoted in re.findall(r"'(\w+)'", m.group("msg")):
                    out.warned.setdefault(quoted, m.group("msg"))
            continue
        group.append((sev, line, m.group("msg"), file, inc))
    flush()


def compile_chunk(folder: Path, name: str, text: str, env: dict[str, str], preprocess: bool = False) -> Outcome:
    src = folder / f"{name}.cu"
    src.write_text(text, encoding="utf-8")
    args = ["-E", src.name, "-o", f"{name}.ii"] if preprocess else ["-c", src.name, "-o", f"{name}.o"]
    proc = run_cass([*args, "--keep", "-Xcompiler", "-ferror-limit=0", "-Xcompiler", "-w"], folder, env)
    out = Outcome()
    parse_diagnostics(proc.stderr, src.name, out)
    if proc.returncode != 0 and not out.errors and not out.unattributed:
        out.unattributed.append((proc.stderr.strip().splitlines() or ["cass-cc failed"])[-1][:200])
    kept = folder / f"{name}.cu.hip"
    if kept.exists():
        translated = kept.read_text(encoding="utf-8", errors="replace")
        head, sep, body = translated.partition(f'#line 1 "')
        out.prelude = expand_macros(head) if sep else ""
        out.translated = body.split("\n")[1:] if sep else translated.split("\n")
    return out


def test_headers(names: list[str], folder: Path, env: dict[str, str], chunk: str = "headers") -> dict[str, tuple[str, str]]:
    """Header -> (status, reason), by preprocessing one file that includes them all, re-run without
    each header that stopped it with a fatal error (clang stops at a missing include)."""
    result: dict[str, tuple[str, str]] = {}
    # Every toolkit header resolves through the rules (HIP's header, or an #error naming it:
    # rules._include), so a missing one is rare and costs a run of its own.
    todo = [h for h in names if h not in result]
    while todo:
        out = compile_chunk(folder, chunk, "".join(f"#include <{h}>\n" for h in todo), env, preprocess=True)
        fatal = None
        for line in sorted(out.errors):
            if not 0 < line <= len(todo):
                continue
            header = todo[line - 1]
            msgs = out.errors[line]
            warned = [w for w in out.warnings.get(line, []) if header in w]
            named = [m for m in msgs if header in m and "file not found" not in m]
            if warned or named:
                result[header] = ("refused", _short((warned or named)[0]))
            else:
                result[header] = ("fails", _short(msgs[0]))
            if any("file not found" in m for m in msgs):
                fatal = line
                break
        if fatal is None:
            fatal = len(todo) + 1
        for i, header in enumerate(todo[:fatal - 1], 1):
            result.setdefault(header, ("served", "") if _served_header(header) else ("works", ""))
        todo = todo[fatal:]
    return result


def _served_header(header: str) -> bool:
    """A header cass-cc provides (a shim) rather than one HIP has: its include is rewritten to
    something other than HIP's headers, or dropped, or served by the prelude."""
    from . import mappings

    row = mappings.lookup_header(header)
    return row is None or not row.hip_name or not row.hip_name.startswith("hip/")


def _short(msg: str) -> str:
    return " ".join(msg.split())[:160]


# -- statuses -------------------------------------------------------------------------------------
def plan(names: list[Name], recorded: dict[str, Status] | None = None) -> dict[str, list[tuple[Name, str]]]:
    """Chunk -> [(name, use)], uses taken from the recorded statuses when given."""
    chunks: dict[str, list[tuple[Name, str]]] = {}
    types = frozenset(n.name for n in names if n.kind == "type" and not n.scope)
    for number, n in enumerate(names):
        if n.kind == "header":
            continue
        use = recorded[n.key].use.replace("\\n", "\n") if recorded and n.key in recorded else uses.use_of(n, number, types)
        chunks.setdefault(uses.chunk_of(n), []).append((n, use))
    split: dict[str, list[tuple[Name, str]]] = {}
    for base, items in chunks.items():
        items.sort(key=lambda item: uses.entry_header(item[0].header))
        for i in range(0, len(items), uses.CHUNK_SIZE):
            split[f"{base}-{i // uses.CHUNK_SIZE}"] = items[i:i + uses.CHUNK_SIZE]
    return split


def classify(n: Name, use: str, lines: list[int], out: Outcome, header_status: tuple[str, str]) -> tuple[str, str]:
    errors = [m for line in lines for m in out.errors.get(line, [])]
    warnings = [w for line in lines for w in out.warnings.get(line, [])]
    names = {n.name, hip_name(n.name), n.scope.rsplit("::", 1)[-1]} - {""}
    named = [w for w in warnings if any(re.search(rf"\b{re.escape(x)}\b", w) for x in names)]
    if named:  # with errors, or without: `needs HIP 5.3` compiles against 5.2's headers, fails at link
        return "refused", _short(named[0])
    if errors:
        if warnings:  # cass-cc named what stops the use (a parameter's type, ...) and why
            return "refused", _short(f"through another name: {warnings[0]}")
        # cass-cc warns once per name and file: the warning may sit on an earlier use's line
        words = set(re.findall(r"\w+", use))
        earlier = [(name, msg) for name, msg in out.warned.items() if name in words]
        mine = [msg for name, msg in earlier if name in names]
        if mine or earlier:
            return "refused", _short(mine[0] if mine else f"through another name: {earlier[0][1]}")
        if header_status[0] == "refused":
            return "refused", _short(f"<{uses.entry_header(n.header)}>: {header_status[1]}")
        return "fails", _short(errors[0])
    translated = [out.translated[line - 1] if 0 < line <= len(out.translated) else "" for line in lines]
    own = n.name.rsplit(".", 1)[-1]
    expected = hip_name(own)
    if not own.startswith("operator") and expected not in set(re.findall(r"\w+", " ".join(translated))):
        return "served", f"translation rewrites it ({_short(' '.join(translated))[:100]})"
    if {own, expected} & declared_names(out.prelude):
        return "served", "declared in cass-cc's prelude"
    return "works", ""


def evaluate(names: list[Name], folder: Path, env: dict[str, str], recorded: dict[str, Status] | None = None,
             jobs: int = 2, progress: Callable[[str], None] = lambda s: None) -> list[Status]:
    header_names = [n.name for n in names if n.kind == "header"]
    halves = [header_names[i::jobs] for i in range(jobs)]
    headers: dict[str, tuple[str, str]] = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(lambda ih: test_headers(ih[1], folder, env, f"headers{ih[0]}"), enumerate(halves)):
            headers.update(part)
    progress(f"headers: {sum(1 for s, _ in headers.values() if s in ('works', 'served'))}/{len(headers)} resolve")
    ok = {h for h, (s, _) in headers.items() if s in ("works", "served")}
    statuses: list[Status] = []
    for n in names:
        if n.kind == "header":
            status, reason = headers.get(n.name, ("fails", "not tested"))
            statuses.append(Status(n.key, "headers", f"#include <{n.name}>", status, reason))
    chunks = plan(names, recorded)

    def work(item: tuple[str, list[tuple[Name, str]]]) -> list[Status]:
        chunk, items = item
        group = items[0][0].group
        wanted = ["cuda_runtime.h", *uses.GROUP_INCLUDES.get(group, ()), *(uses.entry_header(n.header) for n, _ in items)]
        includes = [h for h in dict.fromkeys(wanted) if h in ok]
        text, owner = uses.chunk_text(includes, [(n.key, use) for n, use in items])
        out = compile_chunk(folder, chunk, text, env)
        sentinels = [i for i, line in enumerate(text.split("\n"), 1) if line == uses.SENTINEL]
        missing = [i for i in sentinels if not any("inv: sentinel" in m for m in out.errors.get(i, []))]
        if missing:
            raise RuntimeError(f"{chunk}: no error on the sentinel at line {missing[0]}: a use before it derailed "
                               f"clang's parser (see {folder / chunk}.cu; README.md, How statuses work)")
        lines_of: dict[str, list[int]] = {}
        for line, key in owner.items():
            lines_of.setdefault(key, []).append(line)
        result = []
        for n, use in items:
            hstatus = headers.get(uses.entry_header(n.header), ("works", ""))
            status, reason = classify(n, use, lines_of[n.key], out, hstatus)
            if out.unattributed and status in ("works", "served") and not out.translated:
                status, reason = "fails", _short(out.unattributed[0])
            result.append(Status(n.key, chunk, use.replace("\n", "\\n"), status, reason))
        progress(f"{chunk}: {len(items)} uses, " + ", ".join(
            f"{s} {sum(1 for r in result if r.status == s)}" for s in data.STATUSES) +
            (f"; unattributed: {_short(out.unattributed[0])}" if out.unattributed else ""))
        return result

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for part in pool.map(work, sorted(chunks.items(), key=lambda kv: -len(kv[1]))):
            statuses.extend(part)
    order = {n.key: i for i, n in enumerate(names)}
    return sorted(statuses, key=lambda s: order[s.key])


NVCC_DIAG = re.compile(r"^(?P<file>[^(\n]+)\((?P<line>\d+)\): (?P<sev>error|warning)[^:]*: (?P<msg>.*)$")


def check_uses_with_nvcc(names: list[Name], folder: Path, nvcc: str = "nvcc") -> list[tuple[str, str]]:
    """(key, nvcc's first error) for every use nvcc itself rejects (a CUDA 13 name): a bug in uses.py,
    not a gap in cass-cc. A development check; CI has no nvcc."""
    bad: list[tuple[str, str]] = []
    for chunk, items in plan(names).items():
        items = [(n, use) for n, use in items if "13" in n.cuda.split(",")]
        if not items:
            continue
        includes = ["cuda_runtime.h", *uses.GROUP_INCLUDES.get(items[0][0].group, ()),
                    *(uses.entry_header(n.header) for n, _ in items)]
        text, owner = uses.chunk_text(list(dict.fromkeys(includes)), [(n.key, use) for n, use in items])
        src = folder / f"nvcc-{chunk}.cu"
        src.write_text(text, encoding="utf-8")
        proc = subprocess.run([nvcc, "-c", "-std=c++17", "-arch=sm_90", str(src), "-o", os.devnull],
                              capture_output=True, text=True)
        seen: set[str] = set()
        for raw in (proc.stdout + proc.stderr).splitlines():
            m = NVCC_DIAG.match(raw)
            if m and m.group("sev") == "error" and os.path.basename(m.group("file")) == src.name:
                key = owner.get(int(m.group("line")))
                if key and key not in seen:
                    seen.add(key)
                    bad.append((key, _short(m.group("msg"))))
    return bad


@click.command(help=__doc__.splitlines()[0])
@click.option("--check", is_flag=True, help="recompile the recorded uses; exit 1 if a status moved")
@click.option("--only", default=None, help="regex: only names whose key matches (written back merged)")
@click.option("--keep", type=click.Path(file_okay=False, path_type=Path), default=None, help="write the chunks and cass-cc's outputs here")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--no-doc", is_flag=True, help="do not regenerate docs/coverage.md")
@click.option("--nvcc", metavar="NVCC", default=None, help="only check the generated uses with this nvcc (CUDA 13); print those it rejects")
def command(check: bool, only: str | None, keep: Path | None, jobs: int, no_doc: bool, nvcc: str | None) -> int:
    names = data.names()
    recorded = {s.key: s for s in data.statuses()}
    chosen = [n for n in names if not only or re.search(only, n.key)]
    if only and not any(n.kind == "header" for n in chosen):
        chosen += [n for n in names if n.kind == "header"]
    if nvcc:
        with tempfile.TemporaryDirectory() as tmp:
            folder = keep or Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            bad = check_uses_with_nvcc(chosen, folder, nvcc)
        for key, msg in bad:
            print(f"{key}\t{msg}")
        return 1 if bad else 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        result = evaluate(chosen, folder, cass_env(), recorded if check else None, jobs,
                          lambda s: print(s, file=sys.stderr))
    if check:
        moved = [(recorded[s.key].status, s) for s in result if s.key in recorded and recorded[s.key].status != s.status]
        for old, s in moved:
            print(f"{s.key}: {old} -> {s.status} {s.reason}")
        return 1 if moved else 0
    merged = dict(recorded)
    merged.update({s.key: s for s in result})
    rows = [merged[n.key] for n in names if n.key in merged]
    data.write_statuses(data.DATA_DIR / "statuses.tsv", rows)
    counts = {s: sum(1 for r in rows if r.status == s) for s in data.STATUSES}
    print(f"{len(rows)} statuses: {counts}", file=sys.stderr)
    if not no_doc:
        from . import coverage

        (ROOT / "docs" / "coverage.md").write_text(coverage.render(), encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    return run_click(command, argv, "python -m cass_cc.translate.status")


if __name__ == "__main__":
    raise SystemExit(main())
