"""What a process prepares when it starts, before /v1/health/ready answers: every template of the
website in every language, so that no reader's first page waits for one to be parsed and compiled."""

import gc
import importlib
import os
import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import PROJECT_ROOT
from app.web import i18n

website = importlib.import_module("app.web.router")  # the module: app.web's ``router`` is its APIRouter


def test_no_page_loads_a_template_once_the_service_is_ready(monkeypatch):
    # Environments of this test's own, nothing loaded yet (the suite's other tests share the module's).
    monkeypatch.setattr(website, "_COMPILED", website._CompiledOnce())
    fresh = {code: website._environment(language) for code, language in i18n.LANGUAGES.items()}
    monkeypatch.setattr(website, "ENVIRONMENTS", fresh)
    with TestClient(create_app(start_worker=False)) as client:
        assert client.get("/v1/health/ready").status_code == 200
        loaded: list[tuple[str, str]] = []
        for code, environment in fresh.items():
            load = environment.loader.load

            def counted(env, name, globals=None, code=code, load=load):
                loaded.append((code, name))
                return load(env, name, globals)

            monkeypatch.setattr(environment.loader, "load", counted)
        for code in i18n.LANGUAGES:
            client.cookies.set(i18n.COOKIE, code)
            for path in ("/", "/tournaments", "/players?q=nobody", "/calculators", "/lists/rif-whr", "/players/nobody"):
                assert client.get(path).status_code in (200, 404), path
    assert loaded == []


def test_every_language_starts_with_all_templates_compiled_once(monkeypatch):
    compiled = website._CompiledOnce()
    monkeypatch.setattr(website, "_COMPILED", compiled)
    fresh = {code: website._environment(language) for code, language in i18n.LANGUAGES.items()}
    monkeypatch.setattr(website, "ENVIRONMENTS", fresh)
    parsed: list[str] = []
    for environment in fresh.values():
        parse = environment._parse

        def counted(source, name, filename, parse=parse):
            parsed.append(name)
            return parse(source, name, filename)

        monkeypatch.setattr(environment, "_parse", counted)
    with TestClient(create_app(start_worker=False)) as client:
        templates = sorted(fresh["en"].list_templates(extensions=["html"]))
        # One language's parse serves the others: the compiled code does not depend on the language,
        # its messages are translated when a page renders.
        assert sorted(parsed) == templates
        pages = {}
        for code in i18n.LANGUAGES:
            client.cookies.set(i18n.COOKIE, code)
            pages[code] = client.get("/calculators").text
    assert len(set(pages.values())) == len(i18n.LANGUAGES)
    assert 'lang="ru"' in pages["ru"] and 'lang="en"' in pages["en"]


def test_what_a_started_process_built_is_left_out_of_the_collectors_passes():
    with TestClient(create_app(start_worker=False)) as client:
        assert client.get("/v1/health/ready").status_code == 200
        assert gc.get_freeze_count() > 0


@pytest.mark.slow
def test_what_a_worker_and_the_readiness_check_import_is_imported_before_the_freeze(tmp_path):
    """Every full pass of the cyclic collector scans the objects of the modules imported after the
    freeze: scipy's, imported by a process's first recompute, and Alembic's, by its first readiness
    check, were some 50,000 objects and made each such pass 20-30 ms of whichever request it fell on.
    A fresh process (the freeze is once per process) lists the modules its first fit and readiness
    check import and counts the objects they add to what the collector scans (its first request's
    own, some 5,000, included)."""
    database = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    environment = {**os.environ, "DATABASE_URL": database, "LOG_LEVEL": "WARNING"}
    subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"], cwd=PROJECT_ROOT, env=environment, check=True, capture_output=True
    )
    code = """
import gc
import sys
from fastapi.testclient import TestClient
from app.main import create_app
with TestClient(create_app(start_worker=True)) as client:
    gc.collect()
    before, modules = len(gc.get_objects()), set(sys.modules)
    from app.rating.whr import fit
    fit([0, 1, 2], [1, 2, 0], [1.0, 0.5, 0.0], [738000, 738000, 738001], 3)
    assert client.get("/v1/health/ready").status_code == 200
    gc.collect()
    print(sorted(set(sys.modules) - modules), len(gc.get_objects()) - before)
"""
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=PROJECT_ROOT, env=environment, check=True, capture_output=True, text=True
    )
    imported_after, added = result.stdout.strip().splitlines()[-1].rsplit(" ", 1)
    assert imported_after == "[]"
    assert int(added) < 10_000
