"""The C allocator's bounds (app/performance.py, decision 124): set in every process of the service
before its threads start, unless the environment sets glibc's own variable."""

import json
import os
import subprocess
import sys

import pytest

from app import performance

SHOW = "import json, app.performance as p; print(json.dumps(p.bound_the_allocator()))"


def _bounds_in_a_new_process(**environment: str) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    done = subprocess.run([sys.executable, "-c", SHOW], env={**clean, **environment}, capture_output=True, text=True, check=True)
    return done.stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_the_allocator_is_bounded_unless_the_environment_says_otherwise():
    every = {
        "MALLOC_ARENA_MAX": performance.MALLOC_ARENAS,
        "MALLOC_MMAP_THRESHOLD_": performance.MALLOC_MMAP_THRESHOLD_BYTES,
        "MALLOC_TRIM_THRESHOLD_": performance.MALLOC_TRIM_THRESHOLD_BYTES,
    }

    assert json.loads(_bounds_in_a_new_process()) == every
    assert json.loads(_bounds_in_a_new_process(MALLOC_ARENA_MAX="8")) == {
        k: v for k, v in every.items() if k != "MALLOC_ARENA_MAX"
    }
