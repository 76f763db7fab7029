"""What a process prepares when it starts, before /v1/health/ready answers: every template of the
website in every language, so that no reader's first page waits for one to be parsed and compiled."""

import gc
import importlib

from fastapi.testclient import TestClient

from app.main import create_app
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
