"""The code's shape, checked from its source: the package docstrings map every file, no
import circle hides anywhere (not behind an import inside a function, nor under
``TYPE_CHECKING``), the layers keep apart, and ``/mancala`` keeps room for later commands.

The import graph is read with ``ast``, never by importing, so a circle that only bites in
one import order is found all the same. An import ``a.b.c`` (or ``from a.b import c``) is an
edge to the module that defines what is imported (``a/b/c.py``, or ``a/b/__init__.py`` when
``c`` is a name there) and to every package ``__init__`` Python runs on the way (``a``,
``a.b``), except the importer's own packages: those have already begun by the time the
importer runs, so reaching them through a sibling's path waits for nothing. Importing a name
from one's own package (``from bot.mail import MailBot`` inside ``bot/mail/``) does wait for
that ``__init__``, and is an edge. Imports built at run time from strings (``bot.cli`` finds
``bot.commands`` with ``pkgutil``) are not seen.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "storage", "bot")

# Discord allows 25 subcommands and groups under one command (``tests/test_discord_limits.py``
# checks the 25): 22 commands, the groups ``link`` and ``privacy`` (issue 45) and
# ``activity`` (issue 46) fill them. A new command now goes into an existing group.
MANCALA_SUBCOMMANDS_AT_MOST = 25


# --- the files ------------------------------------------------------------------------


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the three packages by dotted name (a package by its own name)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if not all(
                (root.joinpath(*parts[:i]) / "__init__.py").exists() for i in range(1, len(parts))
            ):
                continue  # a script in a data folder, not part of a package
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def package_dirs() -> list[Path]:
    return sorted(
        path.parent for package in PACKAGES for path in (ROOT / package).rglob("__init__.py")
    )


# --- the import graph -----------------------------------------------------------------


@dataclass(frozen=True)
class Edge:
    source: str  # dotted module names
    target: str
    line: int


def is_package(module: str, modules: dict[str, Path]) -> bool:
    return modules[module].name == "__init__.py"


def imported_modules(
    module: str, tree: ast.AST, modules: dict[str, Path]
) -> Iterator[tuple[str, int]]:
    """The modules of ours one module's imports name, at any depth, with their lines."""
    own_package = module if is_package(module, modules) else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = own_package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base not in modules:
                continue
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                # ``from pkg import name``: the submodule when there is one, else pkg itself
                yield (submodule if submodule in modules else base), node.lineno


def import_edges(modules: dict[str, Path]) -> list[Edge]:
    edges: set[Edge] = set()
    for module, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        own_packages = {".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)}
        if is_package(module, modules):
            own_packages.add(module)
        for target, line in imported_modules(module, tree, modules):
            parts = target.split(".")
            # the packages Python runs on the way to the target, then the target
            for i in range(1, len(parts) + 1):
                step = ".".join(parts[:i])
                if step != module and (step == target or step not in own_packages):
                    edges.add(Edge(module, step, line))
    return sorted(edges, key=lambda e: (e.source, e.target, e.line))


def strongly_connected(nodes: list[str], successors: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's components, without recursion; only those of more than one module."""
    index: dict[str, int] = {}
    lowlink: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = []
        index[root] = lowlink[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(successors.get(root, []))))
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = lowlink[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(successors.get(child, []))))
                elif child in on_stack:
                    lowlink[node] = min(lowlink[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                lowlink[parent] = min(lowlink[parent], lowlink[node])
            if lowlink[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


def shortest_cycle(start: str, component: list[str], edges: list[Edge]) -> list[Edge]:
    """A shortest circle from ``start`` round to itself inside its component, edge by edge."""
    members = set(component)
    first: dict[tuple[str, str], Edge] = {}
    for edge in edges:
        if edge.source in members and edge.target in members:
            first.setdefault((edge.source, edge.target), edge)
    came_by: dict[str, Edge] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for (source, target), edge in first.items():
            if source != node:
                continue
            if target == start:
                path = [edge]
                while path[0].source != start:
                    path.insert(0, came_by[path[0].source])
                return path
            if target not in came_by:
                came_by[target] = edge
                queue.append(target)
    raise AssertionError(f"no circle through {start}")  # a component always has one


def file_of(module: str, modules: dict[str, Path]) -> str:
    """The module's file, from the top of the project."""
    stem = module.replace(".", "/")
    return f"{stem}/__init__.py" if is_package(module, modules) else f"{stem}.py"


def describe_cycles(modules: dict[str, Path], edges: list[Edge]) -> list[str]:
    successors: dict[str, list[str]] = {}
    for edge in edges:
        successors.setdefault(edge.source, []).append(edge.target)
    lines = []
    for component in strongly_connected(sorted(modules), successors):
        lines.append(
            f"{len(component)} files: " + ", ".join(file_of(m, modules) for m in component)
        )
        # a shortest circle through each file, each circle once: together they show every
        # import that closes one
        seen: set[frozenset[Edge]] = set()
        for start in component:
            cycle = shortest_cycle(start, component, edges)
            if frozenset(cycle) in seen:
                continue
            seen.add(frozenset(cycle))
            steps = [f"{file_of(e.source, modules)}:{e.line}" for e in cycle]
            lines.append("    " + " -> ".join(steps) + f" -> {file_of(start, modules)}")
    return lines


def test_no_import_circles():
    modules = module_files()
    cycles = describe_cycles(modules, import_edges(modules))
    print("\n".join(cycles))
    assert not cycles, "import circles (each with one path round it):\n" + "\n".join(cycles)


# --- the layers -----------------------------------------------------------------------


def imports_between(
    source: str, target: str, modules: dict[str, Path], edges: list[Edge]
) -> list[str]:
    """Each import from a module under ``source`` of one under ``target``, file and line."""

    def under(module: str, package: str) -> bool:
        return module == package or module.startswith(package + ".")

    deepest: dict[tuple[str, int], str] = {}  # one line, its innermost module
    for e in edges:
        if under(e.source, source) and under(e.target, target):
            known = deepest.get((e.source, e.line), "")
            deepest[e.source, e.line] = max(known, e.target, key=len)
    return [
        f"{file_of(module, modules)}:{line} imports {target}"
        for (module, line), target in sorted(deepest.items())
    ]


def test_the_layers_keep_apart():
    modules = module_files()
    edges = import_edges(modules)
    crossings = (
        # the settings come before the service, which reads them
        imports_between("bot.config", "bot.service", modules, edges)
        # the surfaces meet only in the service, never in each other
        + imports_between("bot.discord", "bot.mail", modules, edges)
        + imports_between("bot.mail", "bot.discord", modules, edges)
    )
    print("\n".join(crossings))
    assert not crossings, "imports across layers:\n" + "\n".join(crossings)


def test_the_import_graph_sees_every_kind_of_import(tmp_path):
    """Imports inside functions, under ``TYPE_CHECKING``, relative ones and names from a
    package's ``__init__`` all make edges, and so does a package Python runs on the way to
    a module, unless it is the importer's own."""
    package = tmp_path / "bot" / "demo"
    package.mkdir(parents=True)
    (tmp_path / "bot" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("from bot.demo.first import One\n")
    (package / "first.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from .second import Two\n"
        "class One: ...\n"
    )
    (package / "second.py").write_text("def later():\n    from bot.demo import One\n")
    (package / "third.py").write_text("from bot.demo.first import One\n")
    (tmp_path / "bot" / "other.py").write_text("def later():\n    import bot.demo.first\n")
    modules = module_files(tmp_path)
    edges = {(e.source, e.target) for e in import_edges(modules)}
    assert edges == {
        ("bot.demo", "bot.demo.first"),
        ("bot.demo.first", "bot.demo.second"),
        ("bot.demo.second", "bot.demo"),
        ("bot.demo.third", "bot.demo.first"),
        ("bot.other", "bot.demo"),
        ("bot.other", "bot.demo.first"),
    }
    cycles = describe_cycles(modules, import_edges(modules))
    assert cycles[0] == "3 files: bot/demo/__init__.py, bot/demo/first.py, bot/demo/second.py"


# --- the package docstrings -----------------------------------------------------------


def test_every_package_docstring_names_its_files():
    """Each file (``name`` or ``name.py``, in double backquotes) and sub-package of a
    package is named in its ``__init__``'s docstring, the map a reader starts from."""
    missing = []
    for directory in package_dirs():
        doc = ast.get_docstring(ast.parse((directory / "__init__.py").read_text())) or ""
        parts = [
            path.stem
            for path in sorted(directory.iterdir())
            if (path.suffix == ".py" and path.stem != "__init__") or (path / "__init__.py").exists()
        ]
        absent = [name for name in parts if not re.search(rf"``([\w.]+\.)?{name}(\.py)?``", doc)]
        if absent:
            missing.append(f"{directory.relative_to(ROOT)}/__init__.py: " + ", ".join(absent))
    assert not missing, "package docstrings that do not name every file:\n" + "\n".join(missing)


# --- Discord ---------------------------------------------------------------------------


def test_mancala_keeps_room_for_later_groups():
    from bot.discord.command_group import MancalaGroup

    names = [command.name for command in MancalaGroup().commands]
    assert len(names) <= MANCALA_SUBCOMMANDS_AT_MOST, (
        f"/mancala has {len(names)} subcommands and groups ({', '.join(names)}); "
        f"a new command goes into a group, such as /mancala tournament"
    )
