"""Request and response examples of the contract, taken from the real results in tests/data/.

The requests are real tournaments and players of the Chinese file (renju-cn-2009-2019). Each response
example is the answer the service gives to them: tests/test_documentation.py replays the file
through the API (every tournament submitted, the WHR list recomputed, then read, corrected and seeded)
and compares every example here with what the service answered, except for what differs between
runs (timestamps, database ids, the day of a recompute).
"""

from typing import Any

from app.rating.examples import REAL_TOURNAMENT  # noqa: F401 (the tests and clients read it here)

SUBMIT_TOURNAMENT_EXAMPLES: dict[str, dict[str, Any]] = {
    "real-2017": {
        "summary": "A real tournament of 2017 (5 players, 10 games)",
        "description": "Players the service does not know yet are created from `players`; "
        "games name players by id; results are from black's side.",
        "value": REAL_TOURNAMENT,
    },
    "minimal": {
        "summary": "The smallest valid submission",
        "value": {
            "id": "demo-2024",
            "name": "Demo Open",
            "category": "renju",
            "start": "2024-05-01",
            "end": "2024-05-02",
            "players": [{"id": "p1", "country": "EST"}, {"id": "p2", "country": "EST"}],
            "games": [{"black": "p1", "white": "p2", "result": "D"}],
        },
    },
}


def responses(examples: dict[str, dict[str, Any]], status: int = 200) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` argument of a route that gives its success answer these named examples."""
    return {status: {"content": {"application/json": {"examples": examples}}}}


# The same tournament corrected: the file names its country only by an id it does not define (5, the id
# its Chinese tournaments and players carry), so the import leaves `country` empty; the correction adds it.
CORRECT_TOURNAMENT_EXAMPLES: dict[str, dict[str, Any]] = {
    "real-2017": {
        "summary": "The real tournament of 2017 with its country added",
        "description": "The whole tournament is sent again, as it should be stored; here `country` is added.",
        "value": {**REAL_TOURNAMENT, "country": "CHN"},
    },
}

CREATE_PLAYER_EXAMPLES: dict[str, dict[str, Any]] = {
    "real": {
        "summary": "A player of the Chinese file",
        "value": {"id": "3578", "name": "Wenhui", "surname": "Ma"},
    },
}

UPDATE_PLAYER_EXAMPLES: dict[str, dict[str, Any]] = {
    "real": {
        "summary": "Add a country",
        "description": "Only `country` changes; the name stays as it was.",
        "value": {"country": "CHN"},
    },
}

# Four players of the Chinese file, with ratings given them before its first tournament (2009-11-14),
# as the README's walk-through of the historical Elo list does.
SEEDS_EXAMPLES: dict[str, dict[str, Any]] = {
    "real": {
        "summary": "Four players of the Chinese file as of 2009-11-01",
        "value": {
            "seeds": [
                {"player_id": "1193", "rating": 2300, "status": "established", "as_of": "2009-11-01"},
                {"player_id": "2223", "rating": 2250, "status": "established", "as_of": "2009-11-01"},
                {"player_id": "1168", "rating": 2200, "status": "established", "as_of": "2009-11-01"},
                {"player_id": "487", "rating": 2150, "status": "established", "as_of": "2009-11-01"},
            ]
        },
    },
}

PARAMS_EXAMPLES: dict[str, dict[str, Any]] = {
    "whr": {"summary": "rif-whr: the rule text's drift and virtual games", "value": {"w2": 12.9, "virtual_games": 2}},
    "elo": {"summary": "rif-elo: start the replay from a bootstrap rating", "value": {"bootstrap_rating": 1800}},
    "rivne": {
        "summary": "rivne: newcomers start from the rating their file declares",
        "value": {"newcomer_start": "declared_rating"},
    },
    "eru": {"summary": "eru: unranked newcomers are evaluated from 12 kyu", "value": {"first_rank": "12k"}},
}

UPDATE_RATING_LIST_EXAMPLES: dict[str, dict[str, Any]] = {
    "real": {
        "summary": "Stop recomputing after each submission",
        "description": "The list is then recomputed only by `POST /v1/rating-lists/{list_id}/recompute`.",
        "value": {"auto_recompute": False},
    },
}


# --- answers ------------------------------------------------------------------------------------------
# What the service answered in the replay of the Chinese file (see the module's docstring). Fields the
# file leaves empty are null, as the service sends them.


def _player(player_id: str, name: str | None = None, surname: str | None = None, country: str | None = None) -> dict[str, Any]:
    return {"id": player_id, "name": name, "surname": surname, "native_name": None, "country": country, "city": None,
            "gender": None, "birth_year": None}  # fmt: skip


def _tournament_player(player: dict[str, Any]) -> dict[str, Any]:
    return {**player, "rank": None, "rating": None, "club": None, "egf_pin": None, "rating_origin": None}


def _stored_game(game: dict[str, Any]) -> dict[str, Any]:
    return {**game, "played": True, "date": REAL_TOURNAMENT["end"], "handicap": None, "board_size": None}


def _tournament_summary(tournament: dict[str, Any], games_count: int) -> dict[str, Any]:
    """A submission's fields as stored: the defaults of what it leaves out filled in."""
    return {
        "id": tournament["id"], "name": tournament["name"], "category": tournament["category"],
        "rule": tournament.get("rule"), "start": tournament["start"], "end": tournament["end"],
        "country": tournament.get("country"), "city": None, "time_control_minutes": None, "rated": True,
        "format": "face-to-face", "complete_records": True, "board_size": None, "eru_calendar": False,
        "referee_accepted": False, "international": False, "championship": None, "games_recorded": False,
        "byo_yomi": False, "tournament_class": None, "handicap_rule": None, "komi": None, "games_count": games_count,
    }  # fmt: skip


def _example(summary: str, value: Any, description: str | None = None) -> dict[str, dict[str, Any]]:
    return {"real": {"summary": summary, **({"description": description} if description else {}), "value": value}}


_WENHUI_MA = _player("3578", "Wenhui", "Ma")
_T0017_PLAYERS = [_tournament_player(_player(p["id"], p.get("name"), p.get("surname"))) for p in REAL_TOURNAMENT["players"]]
_T0017_PLAYERS.sort(key=lambda player: player["id"])  # the service lists a tournament's players by id
_T0017_GAMES = [_stored_game(game) for game in REAL_TOURNAMENT["games"]]
# Each player's change under the rif-whr list once it has been recomputed over the whole file; 3578,
# in his first tournament, starts from the list's start rating and is provisional after 4 games.
_T0017_CHANGES = [
    {"list_id": "rif-whr", "snapshot_id": 1, "player_id": player_id, "system": "rif-whr", "rating_before": before,
     "rating_after": after, "change": change, "change_unrounded": change, "games_counted": 4, "status_after": status,
     "title_after": None, "details": {"deviation_after": deviation, "day_after": "2017-04-09"}}
    for player_id, before, after, change, deviation, status in [
        ("1003", 2236.603517922445, 2247.568929204488, 10.965411282043078, 80.45846171593881, "active"),
        ("1193", 2450.728422184298, 2447.5807957851302, -3.1476263991676205, 72.20559250250061, "active"),
        ("3578", 1900.0, 2029.9818611658388, 129.98186116583884, 178.05664434099145, "provisional"),
        ("498", 2449.2086887340492, 2446.00558608754, -3.203102646509251, 80.08348698874084, "active"),
        ("503", 2162.4565009920143, 2217.414447433177, 54.957946441162676, 135.26517196300338, "active"),
    ]
]  # fmt: skip
_T0017_READ = {**_tournament_summary(REAL_TOURNAMENT, 10), "players": _T0017_PLAYERS, "games": _T0017_GAMES}

SUBMIT_TOURNAMENT = {
    "real-2017": {
        "summary": "The real tournament of 2017, stored",
        "description": "Submitted while the file's other tournaments were being submitted: rif-whr rates it and "
        "its recompute is queued (job 1); the historical rif-elo list rates it too but recomputes only when asked; "
        "no snapshot has rated it yet, so `rating_changes` is empty.",
        "value": {
            **_T0017_READ,
            "rating_changes": [],
            "lists": [
                {"id": "rif-elo", "rated": True, "reason": None, "job_id": None},
                {"id": "rif-whr", "rated": True, "reason": None, "job_id": 1},
            ],
        },
    },
}
GET_TOURNAMENT = _example(
    "The real tournament of 2017 after the rif-whr list's recompute",
    {**_T0017_READ, "rating_changes": _T0017_CHANGES},
)
REPLACE_TOURNAMENT = {
    "real-2017": {
        "summary": "The real tournament of 2017, corrected",
        "description": "The country is stored; rif-whr, which rates the tournament, queues a recompute (job 2); "
        "until it has run, `rating_changes` are those of the current snapshot. Player 3578's country had been "
        "set by `PATCH /v1/players/3578`.",
        "value": {
            **_T0017_READ,
            "country": "CHN",
            "players": [{**player, "country": "CHN"} if player["id"] == "3578" else player for player in _T0017_PLAYERS],
            "rating_changes": _T0017_CHANGES,
            "lists": [
                {"id": "rif-elo", "rated": True, "reason": None, "job_id": None},
                {"id": "rif-whr", "rated": True, "reason": None, "job_id": 2},
            ],
        },
    },
}
LIST_TOURNAMENTS = _example(
    "The first three tournaments of 2017 (year=2017&limit=3)",
    {
        "items": [
            _tournament_summary(
                {
                    "id": "T0003",
                    "name": "Chinese National Championship 2017, Men Group",
                    "category": "renju",
                    "rule": "RIF",
                    "start": "2017-10-01",
                    "end": "2017-10-03",
                },
                77,
            ),
            _tournament_summary(
                {
                    "id": "T0004",
                    "name": "Chinese National Championship 2017, Women Group",
                    "category": "renju",
                    "rule": "RIF",
                    "start": "2017-10-01",
                    "end": "2017-10-03",
                },
                42,
            ),
            _tournament_summary(
                {
                    "id": "T0005",
                    "name": "Chinese National University Championship 2017, Men Group",
                    "category": "renju",
                    "rule": "RIF",
                    "start": "2017-08-19",
                    "end": "2017-08-21",
                },
                70,
            ),
        ],
        "total": 6,
        "limit": 3,
        "offset": 0,
    },  # fmt: skip
)

CREATE_PLAYER = _example("A player of the Chinese file, created", _WENHUI_MA)
GET_PLAYER = _example("A player of the Chinese file", _WENHUI_MA)
UPDATE_PLAYER = _example("The player with his country added", {**_WENHUI_MA, "country": "CHN"})
SEARCH_PLAYERS = _example(
    "Players whose name contains 'wang' (q=wang&limit=3)",
    {
        "items": [_player("3625", "Chunxu", "Wang"), _player("4091", "Ciyu", "Wang"), _player("3709", "Di", "Wang")],
        "total": 23,
        "limit": 3,
        "offset": 0,
    },
)

_WHR_PARAMS = {"w2": 12.9, "virtual_games": 2, "virtual_rating": 1900.0, "start_rating": 1900.0}
_WHR_ELIGIBILITY = {"rated_only": True, "min_time_control_minutes": 30, "formats": ["face-to-face", "supervised-online"],
                    "complete_records": True}  # fmt: skip
_RIF_WHR = {
    "id": "rif-whr",
    "name": "RIF rating (Whole-History Rating), renju",
    "system": "rif-whr",
    "category": "renju",
    "params": _WHR_PARAMS,
    "eligibility": {
        **_WHR_ELIGIBILITY,
        "certified_rules": ["RIF", "Yamaguchi", "Soosyrv-N", "Taraguchi-N", "Yamasyrv-N", "Sakata"],
    },
    "auto_recompute": True,
    "current_snapshot_id": 1,
}
_RIF_ELO = {
    "id": "rif-elo",
    "name": "Historical RIF Elo list (1995 rules to 1996, 1997 rules to 2021-08-07)",
    "system": "rif-elo",
    "category": "renju",
    "params": {"switch_to_1997": "1997-01-01", "last_day": "2021-08-07", "bootstrap_rating": None},
    "eligibility": {"rated_only": True},
    "auto_recompute": False,
    "current_snapshot_id": None,
}
_RIVNE = {"id": "rivne", "name": "Go club rating (Rivne)", "system": "rivne", "category": "go",
          "params": {"newcomer_start": "rank"}, "eligibility": {"rated_only": True}, "auto_recompute": True,
          "current_snapshot_id": None}  # fmt: skip
_ERU = {"id": "eru", "name": "Estonian kyu/dan ranks and rating (ERU)", "system": "eru", "category": "renju",
        "params": {"first_rank": "15k"},
        "eligibility": {"rated_only": True, "recognised_by": ["eru_calendar", "referee_accepted", "international"]},
        "auto_recompute": True, "current_snapshot_id": None}  # fmt: skip
LIST_RATING_LISTS = _example(
    "The lists a new installation has, the WHR list recomputed once",
    [
        _ERU,
        {
            "id": "olufsen",
            "name": "Shogi rating (Olufsen)",
            "system": "olufsen",
            "category": "shogi",
            "params": {"provisional_highest_grade": False, "fesa": False},
            "eligibility": {"rated_only": True},
            "auto_recompute": True,
            "current_snapshot_id": None,
        },
        _RIF_ELO,
        _RIF_WHR,
        {
            "id": "rif-whr-gomoku",
            "name": "RIF rating (Whole-History Rating), gomoku",
            "system": "rif-whr",
            "category": "gomoku",
            "params": _WHR_PARAMS,
            "eligibility": {**_WHR_ELIGIBILITY, "certified_rules": None},
            "auto_recompute": True,
            "current_snapshot_id": None,
        },
        _RIVNE,
    ],  # fmt: skip
)
GET_RATING_LIST = _example("The WHR list of renju, recomputed over the Chinese file", _RIF_WHR)
UPDATE_RATING_LIST = _example("The WHR list, no longer recomputed after each submission", {**_RIF_WHR, "auto_recompute": False})
UPDATE_RATING_LIST_PARAMS = {
    "whr": {"summary": "The WHR list with the rule text's parameters", "value": _RIF_WHR},
    "elo": {
        "summary": "The historical Elo list with a bootstrap rating",
        "value": {**_RIF_ELO, "params": {**_RIF_ELO["params"], "bootstrap_rating": 1800}},
    },
    "rivne": {
        "summary": "The Go list, newcomers starting from their declared rating",
        "value": {**_RIVNE, "params": {"newcomer_start": "declared_rating"}},
    },
    "eru": {
        "summary": "The Estonian list, unranked newcomers evaluated from 12 kyu",
        "value": {**_ERU, "params": {"first_rank": "12k"}},
    },
}

# The recompute over the whole file: 526 players, 4,644 games, run on the day its list_date names.
_NOTES = ["converged in 7 Newton steps (largest last change 5.14e-09 Elo)"]
_SNAPSHOT = {
    "id": 1,
    "list_id": "rif-whr",
    "list_date": "2026-11-23",
    "created_at": "2026-11-23T16:26:49",
    "job_id": 1,
    "params": _WHR_PARAMS,
    "players": 526,
    "games": 4644,
    "tournaments": 59,
    "notes": _NOTES,
    "current": True,
}
LIST_SNAPSHOTS = _example("The WHR list's only snapshot", {"items": [_SNAPSHOT], "total": 1, "limit": 50, "offset": 0})
GET_SNAPSHOT = _example("The WHR list's snapshot over the Chinese file", _SNAPSHOT)
GET_RATINGS = _example(
    "The three best on the file's last day (as_of=2019-12-15&limit=3)",
    {
        "list_id": "rif-whr",
        "snapshot_id": 1,
        "list_date": "2026-11-23",
        "as_of": "2019-12-15",
        "items": [
            {
                "rank": 1,
                "player_id": "952",
                "name": None,
                "country": None,
                "rating": 2522.477960046187,
                "deviation": 143.11369670739222,
                "games": 108,
                "last_played": "2017-10-03",
                "status": "active",
                "title": None,
                "counters": None,
            },
            {
                "rank": 2,
                "player_id": "498",
                "name": None,
                "country": None,
                "rating": 2490.340594387879,
                "deviation": 123.6098302780354,
                "games": 62,
                "last_played": "2018-07-16",
                "status": "active",
                "title": None,
                "counters": None,
            },
            {
                "rank": 3,
                "player_id": "676",
                "name": None,
                "country": None,
                "rating": 2468.231650214607,
                "deviation": 141.63568197927017,
                "games": 27,
                "last_played": "2019-12-15",
                "status": "active",
                "title": None,
                "counters": None,
            },
        ],
        "total": 128,
        "limit": 3,
        "offset": 0,
    },  # fmt: skip
    "The file names these players by id alone, so `name` and `country` are null. 128 of the 526 players are "
    "active on 2019-12-15: at least 10 rated games, the last one within five years (RIF 2021 #10).",
)
GET_PLAYER_HISTORY = _example(
    "A player's three tournament days in the file",
    {
        "player_id": "503",
        "list_id": "rif-whr",
        "snapshot_id": 1,
        "points": [
            {
                "date": "2009-11-18",
                "rating": 2176.735670949026,
                "deviation": 85.84272626138113,
                "games": 11,
                "status": "active",
                "title": None,
                "counters": None,
                "tournament_ids": ["T0057"],
            },
            {
                "date": "2011-11-16",
                "rating": 2162.4565009920143,
                "deviation": 88.59853811945975,
                "games": 20,
                "status": "active",
                "title": None,
                "counters": None,
                "tournament_ids": ["T0050"],
            },
            {
                "date": "2017-04-09",
                "rating": 2217.414447433177,
                "deviation": 135.26517196300338,
                "games": 24,
                "status": "active",
                "title": None,
                "counters": None,
                "tournament_ids": ["T0017"],
            },
        ],
    },  # fmt: skip
)

_JOB = {
    "id": 1,
    "kind": "recompute",
    "list_id": "rif-whr",
    "status": "succeeded",
    "progress": 1.0,
    "error": None,
    "result": {"snapshot_id": 1, "players": 526, "games": 4644, "notes": _NOTES,
               "timings_s": {"read": 0.0831, "compute": 0.0526, "write": 0.1322}},
    "snapshot_id": 1,
    "created_at": "2026-11-23T16:26:45",
    "started_at": "2026-11-23T16:26:49.474194",
    "finished_at": "2026-11-23T16:26:49.748461",
}  # fmt: skip
GET_JOB = _example("The recompute the file's submissions queued, finished", _JOB)
LIST_JOBS = _example("The WHR list's jobs (list=rif-whr)", {"items": [_JOB], "total": 1, "limit": 50, "offset": 0})
RECOMPUTE_RATING_LIST = _example(
    "A recompute queued",
    {"job_id": 2, "status": "queued", "list_id": "rif-whr"},
    "A correction had queued job 2 already: asking again while it waits returns the same job.",
)

_SEEDS = {
    "list_id": "rif-elo",
    "seeds": [
        {**seed, "title": None, "counters": None}
        for seed in sorted(SEEDS_EXAMPLES["real"]["value"]["seeds"], key=lambda seed: seed["player_id"])
    ],
}
REPLACE_SEEDS = _example("The four seeds stored, by player id", _SEEDS)
GET_SEEDS = _example("The historical Elo list's seeds", _SEEDS)

HEALTH: dict[str, dict[str, Any]] = {
    "postgresql": {"summary": "A service on PostgreSQL", "value": {"status": "ok", "database": "postgresql"}},
    "sqlite": {"summary": "A service on its embedded SQLite file", "value": {"status": "ok", "database": "sqlite"}},
}
