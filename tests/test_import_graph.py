"""The project's import graph has no circle (issue 25). Every import counts, as a tool that reads
the code draws it: top-level, inside functions, and under `if TYPE_CHECKING:`. An edge goes to the
module named (or to the package, for a name the package's __init__ defines)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cass_cc", "cass_data", "cass_train")


def modules() -> dict[str, Path]:
    found = {}
    for pkg in PACKAGES:
        for f in (ROOT / pkg).rglob("*.py"):
            parts = list(f.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = f
    return found


def import_graph() -> dict[str, set[str]]:
    mods = modules()

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        here = m.split(".") if f.name == "__init__.py" else m.split(".")[:-1]
        for node in ast.walk(ast.parse(f.read_text(), str(f))):
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [resolve(a.name) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else [])) \
                    if node.level else (node.module or "")
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else resolve(base) for a in node.names]
            graph[m].update(t for t in targets if t and t != m)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_the_import_graph_has_no_circle() -> None:
    graph = import_graph()
    assert len(graph) > 150 and graph["cass_cc.driver.build"]  # the whole project was read
    assert circles(graph) == []


def test_subpackages_are_layers() -> None:
    """Between subpackages (cass_cc.driver, cass_cc.translate, cass_data, ...) no circle either: each
    imports only its own layer or lower ones (the inventory's tables below the translator, the
    translator's reports on them, the driver's toolkit and batched model translation above both)."""
    def unit(m: str) -> str:
        return ".".join(m.split(".")[:2])

    graph: dict[str, set[str]] = {}
    for m, targets in import_graph().items():
        graph.setdefault(unit(m), set()).update(unit(t) for t in targets if unit(t) != unit(m))
    assert circles(graph) == []


def test_circles_are_found() -> None:
    """The detector itself: a two-module and a three-module circle, and a chain that is none."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}, "f": {"g"}, "g": set()}
    assert sorted(circles(graph)) == [["a", "b"], ["c", "d", "e"]]


def test_command_lines_are_click() -> None:
    """One command-line framework: no module of the packages, and no bench/ or scripts/ script,
    parses its arguments with argparse."""
    files = [*modules().values(), *sorted((ROOT / "bench").glob("*.py")), *sorted((ROOT / "scripts").glob("*.py"))]

    def imported(f: Path) -> set[str | None]:
        tree = ast.parse(f.read_text())
        return ({a.name for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
                | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)})

    assert len(files) > 200
    assert [str(f.relative_to(ROOT)) for f in files if "argparse" in imported(f)] == []
