"""RIF Elo: the 1995/1996 tournament system, the 1997 per-game system, and a replay of a whole history.

Rule text 000 (docs/rules.md: GA 1995 #1–#9 with its appendix, GA 1996, GA 1997 #3–#9). Decisions on
what the text leaves open: docs/decisions.md sections 0 and 1, cited as
``INTERPRETATIONS 1.n``. Pure: plain values in, plain values out, no I/O.

Each rule set sits with its own helpers: ``common`` (one game's expectancy and contribution, the
appendix table), ``ga1995``, ``ga1997``, ``replay`` (a whole history), ``statuses`` (the list's
statuses, RIF 1995 #9). ``from app.rating import rif_elo`` gives all of their public names. Beside
them in this folder (README.md): ``rating_list`` (the stored historical list) and the calculators
(``calculator_models``, ``calculator``, ``calculator_examples``), which import these, never the
other way round.
"""

from app.rating.rif_elo.common import (  # noqa: F401
    APPENDIX_LAST_DIFFERENCE,
    APPENDIX_ROW_STARTS,
    CONTRIBUTION_FACTOR,
    RATING_SCALE,
    SCORES,
    SYSTEM_1995,
    SYSTEM_1997,
    AppendixRow,
    Game,
    GameChange,
    Score,
    appendix_table,
    game_change,
    win_expectancy,
)
from app.rating.rif_elo.ga1995 import (  # noqa: F401
    FIXED_INTERVAL,
    INTERVAL_HALF_WIDTH,
    NEW_PLAYER_MINIMUM_GAMES,
    PERIOD_ENDS,
    RATING_BEFORE_1996,
    FIXED_INTERVAL_FROM_Ra,
    Player1995,
    Result1995,
    Status1995,
    rate_tournament_1995,
)
from app.rating.rif_elo.ga1997 import (  # noqa: F401
    ESTABLISHED_MINIMUM_GAMES,
    ESTABLISHED_MINIMUM_POINTS,
    PROVISIONAL_GAME_WEIGHT,
    Player1997,
    PROVISIONAL_CAP_ABOVE_Ra,
    ProvisionalRecord,
    Result1997,
    Status1997,
    rate_event_1997,
)
from app.rating.rif_elo.replay import (
    FinalRating,
    HistoryPoint,
    Replay,
    ReplayOptions,
    Seed,
    Tournament,
    TournamentChange,
    replay,
)
from app.rating.rif_elo.statuses import (  # noqa: F401
    INACTIVE_AFTER_YEARS,
    inactive_cutoff,
    list_status,
)

__all__ = [
    "SYSTEM_1995",
    "SYSTEM_1997",
    "AppendixRow",
    "FinalRating",
    "Game",
    "GameChange",
    "HistoryPoint",
    "Player1995",
    "Player1997",
    "ProvisionalRecord",
    "Replay",
    "ReplayOptions",
    "Result1995",
    "Result1997",
    "Score",
    "Seed",
    "Status1995",
    "Status1997",
    "Tournament",
    "TournamentChange",
    "appendix_table",
    "game_change",
    "inactive_cutoff",
    "list_status",
    "rate_event_1997",
    "rate_tournament_1995",
    "replay",
    "win_expectancy",
]
