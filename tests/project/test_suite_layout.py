"""The test suite's own layout: a test module takes what it shares with others from tests/helpers.py
(or live_server.py, browser.py, or a fixture of conftest.py), never from another test module or by
importing conftest.py, so that each test module can be read, moved or deleted on its own."""

import ast
import os
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests import slow
from tests.helpers import ROOT

TESTS = ROOT / "tests"


def _imported_modules(path: Path, root: Path = TESTS) -> list[tuple[int, str]]:
    """(line, dotted name) of every module ``path`` (a file under ``root``, the ``tests`` package)
    imports, a ``from X import name`` counted as both ``X`` and ``X.name`` (the name may be a module);
    relative imports resolved against the package."""
    package = ".".join(("tests", *path.relative_to(root).parent.parts))
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _is_test_module_or_conftest(dotted: str) -> bool:
    last = dotted.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def test_no_test_module_imports_another_test_module_or_conftest():
    offending = [
        f"{path.relative_to(TESTS.parent)}:{line} imports {name}"
        for path in sorted(TESTS.rglob("*.py"))
        if "data" not in path.relative_to(TESTS).parts
        for line, name in _imported_modules(path)
        if _is_test_module_or_conftest(name)
    ]
    assert not offending, "shared helpers belong in tests/helpers.py (or a conftest fixture):\n" + "\n".join(offending)


def test_the_rule_sees_each_form_of_import(tmp_path):
    (tmp_path / "rating").mkdir()
    sample = tmp_path / "rating" / "test_sample.py"
    sample.write_text(
        "import tests.test_a\n"
        "from tests.test_b import helper\n"
        "from tests import test_c\n"
        "from . import test_d\n"
        "from ..test_e import helper\n"
        "from tests.conftest import AUTH\n"
        "def f():\n"
        "    from tests.test_f import helper\n"
        # a helper named test_* would be collected as a test wherever it is imported
        "from tests.helpers import AUTH, test_like_helper\n",
        encoding="utf-8",
    )
    flagged = {name for _, name in _imported_modules(sample, tmp_path) if _is_test_module_or_conftest(name)}
    assert flagged == {
        "tests.test_a",
        "tests.test_b",
        "tests.test_c",
        "tests.rating.test_d",
        "tests.test_e",
        "tests.conftest",
        "tests.test_f",
        "tests.helpers.test_like_helper",
    }


def test_each_xdist_worker_runs_on_a_database_of_its_own(database_url):
    # Under `pytest -n N` the workers would drop and empty each other's tables on one database:
    # conftest.py gives worker gwK the database <name>_gwK (a file beside the SQLite file).
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    name = make_url(database_url).database
    assert database_url == os.environ["DATABASE_URL"]  # the live servers' subprocesses inherit it
    assert worker is None or (name is not None and Path(name).stem.endswith(f"_{worker}")), (worker, name)


# The folders of tests/ beside those named after a package of app/ (tests/api for app/api, …): what
# tests the service as a whole rather than one of its packages.
WHOLE_SERVICE_FOLDERS = {"contract", "migrations", "operations", "project", "systems", "data"}


def test_every_test_module_sits_in_the_folder_of_what_it_tests():
    folders = {path.name for path in TESTS.iterdir() if path.is_dir() and path.name != "__pycache__"}
    app_packages = {path.name for path in (ROOT / "app").iterdir() if (path / "__init__.py").exists()}
    assert not sorted(path.name for path in TESTS.glob("test_*.py")), "a test module belongs in a folder of tests/"
    assert folders - WHOLE_SERVICE_FOLDERS <= app_packages, folders - WHOLE_SERVICE_FOLDERS - app_packages


def test_what_takes_seconds_fails_a_test_not_marked_slow(request):
    def another_test(marked: bool) -> pytest.Function:
        item = pytest.Function.from_parent(request.node.parent, name=request.node.name, callobj=lambda: None)
        if marked:
            item.add_marker(pytest.mark.slow)
        return item

    try:
        slow.running(another_test(marked=False))
        with pytest.raises(pytest.fail.Exception, match="mark it @pytest.mark.slow"):
            slow.require_slow("a live server in a subprocess")
        slow.running(another_test(marked=True))
        slow.require_slow("a live server in a subprocess")
    finally:
        slow.running(request.node)
