"""The layers of app/ as docs/design.md draws them, read from the source's import statements: the API
and the website stand side by side (both use app/http, neither imports the other), and no two
modules of app/ import each other, directly or round a longer circle. Imports under
``if TYPE_CHECKING:`` are left out: they never run."""

import ast
from pathlib import Path

import pytest

from tests.helpers import ROOT

APP = ROOT / "app"


def _modules() -> dict[str, Path]:
    modules = {}
    for path in APP.rglob("*.py"):
        parts = path.relative_to(APP.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """The tree's nodes, without the bodies of ``if TYPE_CHECKING:``."""
    nodes, stack = [], [tree]
    while stack:
        node = stack.pop()
        nodes.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and ast.unparse(child.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
                stack.extend(child.orelse)
            else:
                stack.append(child)
    return nodes


def _import_graph() -> dict[str, set[str]]:
    """Each module of app/ and the modules of app/ it imports (``from app.x import y`` names the
    module app.x.y when there is one, else app.x)."""
    modules = _modules()

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        imported: set[str | None] = set()
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(known(alias.name) for alias in node.names if alias.name.split(".")[0] == "app")
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                if base.split(".")[0] == "app":
                    imported.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else known(base) for a in node.names)
        graph[module] = {name for name in imported if name is not None and name != module}
    return graph


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    """The import graph, read once for the module's tests (parsing every module of app/ takes a second
    or two; no test changes it)."""
    return _import_graph()


def _in(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_the_graph_sees_the_imports_it_checks(graph: dict[str, set[str]]) -> None:
    assert "app.http.caching" in graph["app.web.router"]
    assert "app.http.caching" in graph["app.api.rating_lists"]
    assert "app.transactions" in graph["app.problems"]


def test_the_api_and_the_website_do_not_import_each_other(graph: dict[str, set[str]]) -> None:
    across = sorted(
        (module, name)
        for module, names in graph.items()
        for name in names
        if (_in(module, "app.web") and _in(name, "app.api")) or (_in(module, "app.api") and _in(name, "app.web"))
    )
    assert across == []


def test_what_they_share_of_http_imports_neither(graph: dict[str, set[str]]) -> None:
    upward = sorted(
        (module, name)
        for module, names in graph.items()
        if _in(module, "app.http")
        for name in names
        if _in(name, "app.api") or _in(name, "app.web") or name == "app.main"
    )
    assert upward == []


def test_no_import_circles_in_app(graph: dict[str, set[str]]) -> None:
    circles: list[list[str]] = []
    state: dict[str, str] = {}  # "open" while its imports are walked, then "done"
    path: list[str] = []

    def walk(module: str) -> None:
        state[module] = "open"
        path.append(module)
        for name in sorted(graph[module]):
            if state.get(name) == "open":
                circles.append(path[path.index(name) :] + [name])
            elif name not in state:
                walk(name)
        path.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            walk(module)
    assert circles == []


def _imports_from(graph: dict[str, set[str]], wing: str, forbidden: tuple[str, ...]) -> list[tuple[str, str]]:
    return sorted(
        (module, name)
        for module, names in graph.items()
        if _in(module, wing)
        for name in names
        if any(_in(name, package) for package in forbidden)
    )


def test_the_column_store_imports_neither_the_use_cases_nor_the_recompute(graph: dict[str, set[str]]) -> None:
    """app/snapshots is the storage engine under both: it knows snapshots, not who writes them."""
    assert "app.snapshots.stored_columns" in graph["app.snapshots.timelines"]
    assert _imports_from(graph, "app.snapshots", ("app.services", "app.recompute", "app.api", "app.web", "app.worker")) == []


def test_the_recompute_imports_no_use_case_router_or_page(graph: dict[str, set[str]]) -> None:
    """app/recompute is the machinery the use cases queue work for; the worker process drives it."""
    assert "app.recompute.compute" in graph["app.recompute.jobs"]
    assert _imports_from(graph, "app.recompute", ("app.services", "app.api", "app.web", "app.worker")) == []
