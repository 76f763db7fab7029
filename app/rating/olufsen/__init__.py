"""The Olufsen shogi ratings and grades (text 001): everything about the system in one folder (README.md).

``rules`` the rule text as pure functions, ``table`` one table rated at once from them,
``rating_list`` the stored list (its params and seeds, its replay through
``app.rating.tournament_replay``, its standings), ``calculator_models`` / ``calculator`` /
``calculator_examples`` its endpoints under /v1/calc. ``from app.rating import olufsen`` gives the
public names of ``rules`` and ``table``; the package imports nothing else, so the rules stay free of
the service.
"""

from app.rating.olufsen import rules, table
from app.rating.olufsen.rules import *  # noqa: F403
from app.rating.olufsen.table import *  # noqa: F403

__all__ = [*rules.__all__, *table.__all__]  # noqa: PLE0604
