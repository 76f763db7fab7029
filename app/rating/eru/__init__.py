"""The Estonian kyu/dan ranks and rating (text 003): everything about the system in one folder (README.md).

``rules`` the rule text as pure functions, ``rating_list`` the stored list (its params and seeds, its
replay through ``app.rating.tournament_replay``, its standings), ``calculator_models`` /
``calculator`` / ``calculator_examples`` its endpoints under /v1/calc. ``from app.rating import eru``
gives the rules' public names; the package imports nothing else, so the rules stay free of the service.
"""

from app.rating.eru.rules import *  # noqa: F403
from app.rating.eru.rules import __all__ as __all__
