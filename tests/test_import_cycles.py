"""No import circles in scopa_net: every module can be understood from the ones below it.

Counted are all imports of our own modules: at the top, inside functions, and under
``if TYPE_CHECKING`` (a type-only circle still means two modules that know each other). The
host (``server/``) is left out for now: ``server.session`` names ``server.host`` for its types.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {
    "scopa_net": ROOT / "scopa_net",
    "scopa_net.client": ROOT / "client",
    "scopa_net.commands": ROOT / "commands",
}


def _modules() -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package's __init__)."""
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = [p for p in path.relative_to(folder).with_suffix("").parts if p != "__init__"]
            found[".".join([package, *parts])] = (path, path.name == "__init__.py")
    return found


def _imports(name: str, path: Path, is_package: bool, known: set[str]) -> set[str]:
    """Our modules that ``name`` imports anywhere in its file."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if is_package else name.split(".")[:-1]
                here = here[: len(here) - (node.level - 1)]
                base = ".".join([*here, base] if base else here)
            submodules = {f"{base}.{a.name}" for a in node.names} & known
            out.update(submodules)
            if len(submodules) < len(node.names):
                out.add(base)  # names defined in the module itself
    return {m for m in out if m in known and m != name}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, round and round (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def test_the_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]
    assert find_cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles() -> None:
    modules = _modules()
    known = set(modules)
    assert {"scopa_net.cards", "scopa_net.wire.records", "scopa_net.commands.main"} <= known
    graph = {name: _imports(name, path, pkg, known) for name, (path, pkg) in modules.items()}
    assert graph["scopa_net.notation"] >= {"scopa_net.cards", "scopa_net.errors"}
    assert find_cycles(graph) == []
