"""The service's processes import NumPy without its transparent-huge-page advice (docs/decisions.md
103), unless the environment says otherwise: checked in new interpreters, as a server starts."""

import os
import subprocess
import sys

import pytest

from tests.helpers import ROOT

# (each test starts a new interpreter that imports the service)
pytestmark = pytest.mark.slow

ADVICE = "import app.main, numpy._core.multiarray as m; print(m._get_madvise_hugepage())"


def advice_in_a_new_process(**environment: str) -> str:
    env = {key: value for key, value in os.environ.items() if key != "NUMPY_MADVISE_HUGEPAGE"} | environment
    result = subprocess.run([sys.executable, "-c", ADVICE], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_the_service_imports_numpy_without_huge_page_advice():
    assert advice_in_a_new_process() == "False"


def test_a_setting_in_the_environment_wins():
    assert advice_in_a_new_process(NUMPY_MADVISE_HUGEPAGE="1") == "True"
