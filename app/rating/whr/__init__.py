"""Whole-History Rating (RIF rules of 2021, text 002; docs/decisions.md section 3): the model and its
readings in ``model``, the Newton / conjugate-gradient solver with its sparse structure in ``solver``.
``from app.rating import whr`` gives both the public names and, for tests and benchmarks, the
solver's internals. Beside them in this folder (README.md): ``rating_list`` (the stored list) and the
calculator (``calculator_models``, ``calculator``, ``calculator_examples``) and an evaluation's
forecasts (``forecast``), which import these, never the other way round."""

from app.rating.whr.model import *
from app.rating.whr.model import __all__ as _model_names
from app.rating.whr.model import _validate_params, _validated_games  # noqa: F401
from app.rating.whr.solver import (  # noqa: F401
    _FORCING,
    _MAX_HALVINGS,
    _MAX_NEWTON_STEPS,
    _MAX_START,
    _MAX_STEP,
    _MIN_CURVATURE,
    _SAFE_STEP,
    ELO_PER_NATURAL,
    NATURAL_PER_ELO,
    REFERENCE_HESSIAN_DAMPING,
    Problem,
    _pcg,
    _tridiagonal_inverse_diagonal,
)

_Problem = Problem  # the name the tests and bench/bench_whr.py use
__all__ = [*_model_names, "ELO_PER_NATURAL", "NATURAL_PER_ELO", "REFERENCE_HESSIAN_DAMPING"]  # noqa: PLE0604
