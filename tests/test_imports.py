"""The project's modules import each other without circles, and each room (a folder of copy_as_decode/) imports
only the rooms below it, so each can be read from its imports down. Every import counts, those inside functions
too: a lazy import that closes a circle still ties the two modules together. A package's own __init__ and its
modules are one node (selectors/__init__.py holds the registry its modules register in)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "copy_as_decode"

# The house, drawn: each room and the rooms right below it; a room imports those and what they stand on, never a
# room above or beside it. The product: core < engine < server. The research rooms: cases (the corpora) <
# synthesis (builds corpora from them) < bench (measures on both) < train (its learning curve scores each adapter
# with `bench edit`, train/curve.py). cli.py dispatches every command. The package's own __init__ (CHECKOUT)
# stands below all of them.
STANDS_ON = {
    "core": (),
    "engine": ("core",),
    "server": ("engine",),
    "cases": ("core",),
    "synthesis": ("cases",),
    "bench": ("synthesis", "engine"),
    "train": ("bench",),
    "cli": ("server", "train"),
}


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _node(name: str, modules: set[str]) -> str | None:
    """The module an import names, as a node: a name that is an attribute of a module (`from .selectors import
    Selector`) -> that module; packages -> their __init__; outside the project -> None."""
    parts = name.split(".")
    while parts and ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts) or None


def graph() -> dict[str, set[str]]:
    files = list(PACKAGE.rglob("*.py"))
    modules = {_module(p) for p in files}
    edges: dict[str, set[str]] = {m: set() for m in modules}
    for path in files:
        here = _module(path)
        package = here if path.name == "__init__.py" else here.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
                stem = ".".join(base + ([node.module] if node.module else []))
                names = [f"{stem}.{a.name}" for a in node.names]
            for name in names:
                target = _node(name, modules)
                if target and target != here and not (here.startswith(target + ".") or target.startswith(here + ".")):
                    edges[here].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while (w := stack.pop()) != v:
                on.discard(w)
                component.append(w)
            on.discard(v)
            if component:
                out.append(sorted(component + [v]))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def room(module: str) -> str:
    """The folder of copy_as_decode/ a module stands in (cli for cli.py); "" for the package's own __init__."""
    return module.split(".")[1] if "." in module else ""


def below(name: str) -> set[str]:
    """The rooms `name` may import: those it stands on, and theirs, down to core."""
    out = set()
    for r in STANDS_ON[name]:
        out |= {r} | below(r)
    return out


def arrows_up(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The imports from a room into one that is not below it."""
    return sorted((a, b) for a, targets in edges.items() for b in targets
                  if room(a) != room(b) and room(b) and room(b) not in below(room(a)))


def test_the_graph_sees_relative_lazy_and_absolute_imports():
    edges = graph()
    engine, server = "copy_as_decode.engine", "copy_as_decode.server"
    assert f"{server}.positions" in edges[f"{server}.place"]  # from . import positions
    assert f"{server}.edit_request" in edges[f"{server}.lsp"]  # from .edit_request import (...)
    assert f"{engine}.result" in edges[f"{engine}.selectors.windowed"]  # from copy_as_decode.engine.result import ...
    assert f"{engine}.selectors" in edges[f"{engine}.front"]  # from copy_as_decode.engine import selectors
    assert f"{engine}.backends.adapter" in edges[f"{engine}.backends.models"]  # inside a function
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_imports_its_way_back_to_itself():
    assert cycles(graph()) == []


def test_every_room_is_drawn_and_the_drawing_has_no_circle():
    assert {room(m) for m in graph()} - {""} == set(STANDS_ON)
    assert cycles({r: set(on) for r, on in STANDS_ON.items()}) == []


def test_an_arrow_back_up_is_seen():
    p = "copy_as_decode"
    edges = {f"{p}.synthesis.a": {f"{p}.bench.b", f"{p}.cases.c", p}, f"{p}.engine.d": {f"{p}.train.e", f"{p}.core.f"},
             f"{p}.train.e": {f"{p}.bench.b", f"{p}.cases.c"}, f"{p}.cases.c": {f"{p}.core.f", f"{p}.cases.g"}}
    assert arrows_up(edges) == [(f"{p}.engine.d", f"{p}.train.e"), (f"{p}.synthesis.a", f"{p}.bench.b")]


def test_no_room_imports_one_above_it():
    assert arrows_up(graph()) == []
