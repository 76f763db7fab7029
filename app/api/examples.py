"""Request and response examples of the contract, taken from the real results in tests/data/.

The requests are real tournaments and players of the Chinese file (renju-cn-2009-2019). Each response
example is the answer the service gives to them: tests/project/test_documentation.py replays the file
through the API (every tournament submitted, the WHR list recomputed, then read, corrected and seeded)
and compares every example here with what the service answered, except for what differs between
runs (timestamps, database ids, the day of a recompute).
"""

from typing import Any

from fastapi.openapi.models import Example

from app.rating.examples import REAL_TOURNAMENT  # noqa: F401 (the tests and clients read it here)
from app.rating.rounding import change_as_shown
from app.schemas.tournaments import TournamentDetails, TournamentSummary
from app.version import VERSION

# --- a Go tournament with its own standings -----------------------------------------------------------
# The Tournoi de Juvisy 2019 as the EGD h9 reader gives it (tests/data/go/juvisy2019.h9, written by
# OpenGotha): every player French, his declared rank and club; the games with their handicap stones;
# the file"s own places with its MMS, SOS and SOSOS columns. Pinchard won all four of his games and is
# 15th: Go tournaments are decided by McMahon score, which the file gives.
_JUVISY_PLAYERS = [  # id, first name, surname, declared rank, club
    ("minieri-davide", "Davide", "Minieri", "3d", "75Ju"),
    ("daguenet-mathieu", "Mathieu", "Daguenet", "3d", "92Le"),
    ("lemoine-theo", "Theo", "Lemoine", "1d", "49An"),
    ("li-boyuan", "Boyuan", "Li", "2d", "75Op"),
    ("nemo-andre", "André", "Nemo", "2k", "78Ve"),
    ("roullier-louise", "Louise", "Roullier", "2k", "92Le"),
    ("perroux-etienne", "Etienne", "Perroux", "3k", "49An"),
    ("burq-francois", "François", "Burq", "4k", "75OB"),
    ("moscardo-leo", "Léo", "Moscardo", "3k", "75Ju"),
    ("eden-timothy", "Timothy", "Eden", "3k", "75Al"),
    ("bourgin-maxime", "Maxime", "Bourgin", "4k", "78Ve"),
    ("yung-oscar", "Oscar", "Yung", "6k", "10Tr"),
    ("ravera-sylvain", "Sylvain", "Ravera", "5k", "92Le"),
    ("vargas-olga", "Olga", "Vargas", "5k", "95Va"),
    ("pinchard-alexandre", "Alexandre", "Pinchard", "5k", "92Ge"),
    ("sebouk-david", "David", "Sebouk", "7k", "92Le"),
    ("sarocchi-pierre-luc", "Pierre-Luc", "Sarocchi", "9k", "75Op"),
    ("nicita-giovanni", "Giovanni", "Nicita", "10k", "91SM"),
    ("rebelo-manuela", "Manuela", "Rebelo", "18k", "92Ge"),
]  # fmt: skip
_JUVISY_GAMES = [  # round, black, white, result, handicap stones (within a round by black, then white: decision 143)
    ("1", "bourgin-maxime", "ravera-sylvain", "B", 0),
    ("1", "daguenet-mathieu", "minieri-davide", "W", 0),
    ("1", "eden-timothy", "perroux-etienne", "B", 0),
    ("1", "lemoine-theo", "li-boyuan", "B", 0),
    ("1", "pinchard-alexandre", "moscardo-leo", "W", 1),
    ("1", "rebelo-manuela", "nicita-giovanni", "W", 7),
    ("1", "roullier-louise", "nemo-andre", "W", 0),
    ("1", "sarocchi-pierre-luc", "yung-oscar", "W", 2),
    ("1", "sebouk-david", "burq-francois", "W", 2),
    ("2", "burq-francois", "bourgin-maxime", "B", 0),
    ("2", "minieri-davide", "lemoine-theo", "B", 0),
    ("2", "nemo-andre", "moscardo-leo", "B", 0),
    ("2", "nicita-giovanni", "vargas-olga", "W", 3),
    ("2", "perroux-etienne", "roullier-louise", "B", 0),
    ("2", "pinchard-alexandre", "li-boyuan", "W", 4),
    ("2", "ravera-sylvain", "yung-oscar", "B", 0),
    ("2", "rebelo-manuela", "sarocchi-pierre-luc", "W", 8),
    ("2", "sebouk-david", "eden-timothy", "B", 4),
    ("3", "li-boyuan", "minieri-davide", "W", 0),
    ("3", "moscardo-leo", "lemoine-theo", "W", 1),
    ("3", "nicita-giovanni", "yung-oscar", "W", 3),
    ("3", "perroux-etienne", "burq-francois", "B", 0),
    ("3", "pinchard-alexandre", "nemo-andre", "W", 4),
    ("3", "rebelo-manuela", "vargas-olga", "B", 9),
    ("3", "roullier-louise", "eden-timothy", "B", 0),
    ("3", "sarocchi-pierre-luc", "ravera-sylvain", "B", 3),
    ("3", "sebouk-david", "bourgin-maxime", "W", 2),
    ("4", "bourgin-maxime", "perroux-etienne", "W", 0),
    ("4", "eden-timothy", "burq-francois", "W", 0),
    ("4", "lemoine-theo", "nemo-andre", "B", 0),
    ("4", "moscardo-leo", "li-boyuan", "W", 1),
    ("4", "nicita-giovanni", "sarocchi-pierre-luc", "B", 1),
    ("4", "pinchard-alexandre", "minieri-davide", "W", 4),
    ("4", "rebelo-manuela", "ravera-sylvain", "W", 9),
    ("4", "sebouk-david", "roullier-louise", "W", 4),
    ("4", "yung-oscar", "vargas-olga", "B", 0),
]  # fmt: skip
_JUVISY_STANDINGS = [  # player, place, MMS, SOS, SOSOS
    ("minieri-davide", 1, 36, 128, 503),
    ("daguenet-mathieu", 2, 33, 132, 512),
    ("lemoine-theo", 3, 33, 129, 496),
    ("li-boyuan", 4, 33, 127, 493),
    ("nemo-andre", 5, 31, 120, 482),
    ("roullier-louise", 6, 30, 117, 455),
    ("perroux-etienne", 7, 30, 115, 458),
    ("burq-francois", 8, 29, 112, 447),
    ("moscardo-leo", 9, 28, 121, 491),
    ("eden-timothy", 10, 28, 117, 447),
    ("bourgin-maxime", 11, 28, 112, 433),
    ("yung-oscar", 12, 27, 103, 384),
    ("ravera-sylvain", 13, 27, 103, 373),
    ("vargas-olga", 14, 26, 99, 357),
    ("pinchard-alexandre", 15, 25, 115, 496),
    ("sebouk-david", 16, 24, 103, 458),
    ("sarocchi-pierre-luc", 17, 23, 93, 360),
    ("nicita-giovanni", 18, 22, 89, 360),
    ("rebelo-manuela", 19, 13, 65, 384),
]  # fmt: skip
REAL_GO_TOURNAMENT: dict[str, Any] = {
    "id": "tournoi-de-juvisy-2019-10-26", "name": "Tournoi de Juvisy", "category": "go",
    "start": "2019-10-26", "end": "2019-10-28", "country": None, "city": "Juvisy", "time_control_minutes": 82,
    "board_size": 19, "tournament_class": "A", "handicap_rule": "h1", "komi": 7.5,
    "players": [
        {"id": id_, "name": name, "surname": surname, "country": "FRA", "rank": rank, "club": club}
        for id_, name, surname, rank, club in _JUVISY_PLAYERS
    ],
    "games": [
        {"round": round_, "black": black, "white": white, "result": result, "played": True, "handicap": stones}
        for round_, black, white, result, stones in _JUVISY_GAMES
    ],
    "standings": [
        {"player": player, "place": place, "tie_breaks": [
            {"name": "MMS", "value": float(mms)}, {"name": "SOS", "value": float(sos)}, {"name": "SOSOS", "value": float(sosos)}
        ]}
        for player, place, mms, sos, sosos in _JUVISY_STANDINGS
    ],
}  # fmt: skip

SUBMIT_TOURNAMENT_EXAMPLES: dict[str, Example] = {
    "juvisy-2019": {
        "summary": "A Go tournament with its own standings (19 players, 36 games)",
        "description": "The Tournoi de Juvisy 2019 as the EGD h9 reader gives it: declared ranks and clubs, "
        "handicap stones, and the file's own places with its MMS, SOS and SOSOS (`standings`), stored as given.",
        "value": REAL_GO_TOURNAMENT,
    },
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


def responses(
    examples: dict[str, dict[str, Any]], status: int = 200, headers: dict[str, Any] | None = None
) -> dict[int | str, dict[str, Any]]:
    """The ``responses`` argument of a route that gives its success answer these named examples
    (and ``headers``, when it sends some worth declaring)."""
    return {status: {"content": {"application/json": {"examples": examples}}, **({"headers": headers} if headers else {})}}


# The same tournament corrected: the file names its country only by an id it does not define (5, the id
# its Chinese tournaments and players carry), so the import leaves `country` empty; the correction adds it.
CORRECT_TOURNAMENT_EXAMPLES: dict[str, Example] = {
    "real-2017": {
        "summary": "The real tournament of 2017 with its country added",
        "description": "The whole tournament is sent again, as it should be stored; here `country` is added.",
        "value": {**REAL_TOURNAMENT, "country": "CHN"},
    },
}

CREATE_PLAYER_EXAMPLES: dict[str, Example] = {
    "real": {
        "summary": "A player of the Chinese file",
        "value": {"id": "3578", "name": "Wenhui", "surname": "Ma", "external_ids": ["renjunet:3578"]},
    },
}

UPDATE_PLAYER_EXAMPLES: dict[str, Example] = {
    "real": {
        "summary": "Add a country",
        "description": "Only `country` changes; the name stays as it was.",
        "value": {"country": "CHN"},
    },
}

# Four players of the Chinese file, with ratings given them before its first tournament (2009-11-14),
# as the README's walk-through of the historical Elo list does.
_SEEDS_IN: list[dict[str, Any]] = [
    {"player_id": "1193", "rating": 2300, "status": "established", "as_of": "2009-11-01"},
    {"player_id": "2223", "rating": 2250, "status": "established", "as_of": "2009-11-01"},
    {"player_id": "1168", "rating": 2200, "status": "established", "as_of": "2009-11-01"},
    {"player_id": "487", "rating": 2150, "status": "established", "as_of": "2009-11-01"},
]
SEEDS_EXAMPLES: dict[str, Example] = {
    "real": {"summary": "Four players of the Chinese file as of 2009-11-01", "value": {"seeds": _SEEDS_IN}},
}

# One player's seed on the Go club list, fractional as text 004 keeps ratings (INTERPRETATIONS 5.10).
_PLAYER_SEED_IN: dict[str, Any] = {"rating": 1533.62, "as_of": "2019-12-31", "title": "2d"}
PUT_SEED_EXAMPLES: dict[str, Example] = {
    "real": {"summary": "A fractional Go club rating and rank as of 2019-12-31", "value": _PLAYER_SEED_IN},
}

# Two players of the Chinese file meet again after its last tournament: what would the WHR list say?
WHAT_IF_EXAMPLES: dict[str, Example] = {
    "real": {
        "summary": "Two players of the Chinese file in a tournament after it",
        "value": {
            "id": "what-if-2019",
            "name": "After the file",
            "category": "renju",
            "start": "2019-12-20",
            "end": "2019-12-21",
            "players": [],
            "games": [{"black": "3578", "white": "503", "result": "B"}, {"black": "503", "white": "3578", "result": "D"}],
        },
    },
}

PARAMS_EXAMPLES: dict[str, Example] = {
    "whr": {"summary": "rif-whr: the rule text's drift and virtual games", "value": {"w2": 12.9, "virtual_games": 2}},
    "elo": {"summary": "rif-elo: start the replay from a bootstrap rating", "value": {"bootstrap_rating": 1800}},
    "rivne": {
        "summary": "rivne: newcomers start from the rating their file declares",
        "value": {"newcomer_start": "declared_rating"},
    },
    "eru": {"summary": "eru: unranked newcomers are evaluated from 12 kyu", "value": {"first_rank": "12k"}},
}

UPDATE_RATING_LIST_EXAMPLES: dict[str, Example] = {
    "real": {
        "summary": "Stop recomputing after each submission",
        "description": "The list is then recomputed only by `POST /v1/rating-lists/{list_id}/recompute`.",
        "value": {"auto_recompute": False},
    },
    "review": {
        "summary": "Rate a tournament only once an officer has confirmed it",
        "description": "Each tournament submitted or corrected from now on waits, pending, for an officer of the list "
        "(`POST /v1/rating-lists/{list_id}/reviews/{tournament_id}`), as the European Go Database does.",
        "value": {"requires_review": True},
    },
}

REVIEW_EXAMPLES: dict[str, Example] = {
    "confirm": {
        "summary": "Confirm: the list rates the tournament",
        "value": {"decision": "confirm", "reason": "crosstable checked against the organiser's report"},
    },
    "reject": {
        "summary": "Reject: the list does not rate it",
        "value": {"decision": "reject", "reason": "a club's internal event, not open to rating"},
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
    """A submission's fields as stored and read back: the defaults of what it leaves out filled in."""
    declared = TournamentDetails.model_fields
    stored = {name: tournament[name] if name in tournament else field.get_default() for name, field in declared.items()}
    return TournamentSummary.model_validate({**stored, "games_count": games_count}).model_dump(mode="json")


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
     "rating_after": after, "change": change_as_shown(before, after, change), "change_unrounded": change,
     "games_counted": 4, "status_after": status,
     "title_after": None, "details": {"deviation_after": deviation, "day_after": "2017-04-09"}}
    for player_id, before, after, change, deviation, status in [
        ("1003", 2236.603517922445, 2247.568929204488, 10.965411282043078, 80.45846171593881, "active"),
        ("1193", 2450.728422184298, 2447.5807957851302, -3.1476263991676205, 72.20559250250061, "active"),
        ("3578", 1900.0, 2029.9818611658388, 129.98186116583884, 178.05664434099145, "provisional"),
        ("498", 2449.2086887340492, 2446.00558608754, -3.203102646509251, 80.08348698874084, "active"),
        ("503", 2162.4565009920143, 2217.414447433177, 54.957946441162676, 135.26517196300338, "active"),
    ]
]  # fmt: skip
_T0017_READ = {
    **_tournament_summary(REAL_TOURNAMENT, 10), "players": _T0017_PLAYERS, "games": _T0017_GAMES, "standings": []
}  # fmt: skip
# The historical list does not recompute itself: the scenario's first submission made it stale
# (docs/decisions.md 7.106), and nothing has recomputed it since.
_ELO_STALE_SINCE = "2026-11-24T19:24:08.210944Z"
_ELO_STALE_REASON = "tournament T0001 submitted"
# rivne's parameters are changed in the scenario (the params example) before the Go tournament comes.
_RIVNE_STALE = {
    "stale_since": "2026-11-24T19:24:10.005512Z",
    "stale_reason": "parameters changed: newcomer_start 'rank' → 'declared_rating'",
}
# Why a list queued no recompute (``no_recompute_reason``), as the service words it.
_ELO_NOT_AUTOMATIC = (
    "the list does not recompute itself (auto_recompute false): it shows the tournament as it was until an "
    "officer recomputes it (POST /v1/rating-lists/rif-elo/recompute), and is stale until then (its stale_since)"
)
_NOT_RATED = "the list does not rate the tournament, and did not before the change: its ratings do not change"
_ELO_STALE_LISTS = [{"list_id": "rif-elo", "stale_since": _ELO_STALE_SINCE, "stale_reason": _ELO_STALE_REASON}]
_T0017_LISTS = [
    {"id": "rif-elo", "rated": True, "reason": None, "job_id": None, "review": None, "no_recompute_reason": _ELO_NOT_AUTOMATIC},
    {"id": "rif-whr", "rated": True, "reason": None, "job_id": 1, "review": None, "no_recompute_reason": None},
]

SUBMIT_TOURNAMENT = {
    "real-2017": {
        "summary": "The real tournament of 2017, stored",
        "description": "Submitted while the file's other tournaments were being submitted: rif-whr rates it and "
        "its recompute is queued (job 1); the historical rif-elo list rates it too but recomputes only when asked, "
        "so it queues none, says why, and is stale (`stale_lists`) from the file's first tournament on; no snapshot "
        "has rated it yet, so `rating_changes` is empty.",
        "value": {
            **_T0017_READ,
            "rating_changes": [],
            "stale_lists": _ELO_STALE_LISTS,
            "lists": _T0017_LISTS,
            "player_reviews": [],
        },
    },
}
# The smallest submission, sent to rif-whr once it requires reviews (and no longer recomputes itself).
_DEMO: dict[str, Any] = SUBMIT_TOURNAMENT_EXAMPLES["minimal"]["value"]  # type: ignore[assignment]  # (set above)
SUBMIT_TOURNAMENT["pending-review"] = {
    "summary": "A tournament stored pending an officer's review",
    "description": "rif-whr requires an officer's confirmation (`requires_review`): the tournament waits for it "
    "(`review: pending`); the historical rif-elo list ends in 2021, and eru rates only recognised tournaments.",
    "value": {
        **_tournament_summary(_DEMO, 1),
        "players": [_tournament_player(_player(p["id"], country=p["country"])) for p in _DEMO["players"]],
        "games": [{"id": None, "round": None, **_stored_game(game), "date": _DEMO["end"]} for game in _DEMO["games"]],
        "standings": [],
        "rating_changes": [],
        "stale_lists": [],
        "lists": [
            {"id": "eru", "rated": False, "job_id": None, "review": None, "no_recompute_reason": _NOT_RATED,
             "reason": "the tournament is marked none of: eru_calendar, referee_accepted, international"},
            {"id": "rif-elo", "rated": False, "job_id": None, "review": None, "no_recompute_reason": _NOT_RATED,
             "reason": "the tournament ends on 2024-05-02, after the list's last day 2021-08-07"},
            {"id": "rif-whr", "rated": False, "job_id": None, "review": "pending",
             "reason": "an officer of the list has not confirmed it yet (POST /v1/rating-lists/rif-whr/reviews/{tournament_id})",
             "no_recompute_reason": "the tournament waits for the review of an officer of the list, whose confirmation "
             "queues its recompute (POST /v1/rating-lists/rif-whr/reviews/demo-2024)"},
        ],
        "player_reviews": [],
    },
}  # fmt: skip
_DEMO_REVIEW = {
    "list_id": "rif-whr", "tournament_id": "demo-2024", "status": "pending", "submitted_at": "2026-11-24T22:10:00.000000Z",
    "reason": None, "decided_by": None, "decided_at": None,
}  # fmt: skip
LIST_REVIEWS = _example(
    "The tournament waiting for rif-whr's officer (status=pending)",
    {"items": [_DEMO_REVIEW], "total": 1, "limit": 50, "offset": 0},
)
REVIEW_TOURNAMENT = _example(
    "The tournament confirmed: rif-whr rates it from the recompute queued",
    {
        **_DEMO_REVIEW, "status": "confirmed", "reason": "crosstable checked against the organiser's report",
        "decided_by": "tester", "decided_at": "2026-11-24T22:10:01.000000Z", "job_id": 3,
    },
)  # fmt: skip
_JUVISY_READ = {
    **_tournament_summary(REAL_GO_TOURNAMENT, 36),
    "players": sorted(
        (
            {**_tournament_player(_player(player["id"], player["name"], player["surname"], "FRA")),
             "rank": player["rank"], "club": player["club"]}
            for player in REAL_GO_TOURNAMENT["players"]
        ),
        key=lambda player: player["id"],
    ),
    "games": [
        {"id": None, **game, "date": REAL_GO_TOURNAMENT["end"], "board_size": 19} for game in REAL_GO_TOURNAMENT["games"]
    ],
    "standings": REAL_GO_TOURNAMENT["standings"],
    "rating_changes": [],
    # rivne's parameters were changed before (the params example), and it has not been recomputed since.
    "stale_lists": [{"list_id": "rivne", **_RIVNE_STALE}],
}  # fmt: skip
SUBMIT_TOURNAMENT["juvisy-2019"] = {
    "summary": "The Go tournament, stored with its own standings",
    "description": "`standings` as the file gave them, by place; the Go list rates it and queues its recompute, "
    "which reads the parameters changed before (until it has run, the list is stale: `stale_lists`).",
    "value": {
        **_JUVISY_READ,
        "lists": [{"id": "rivne", "rated": True, "reason": None, "job_id": 3, "review": None, "no_recompute_reason": None}],
        "player_reviews": [],
    },
}
GET_TOURNAMENT = {
    **_example(
        "The real tournament of 2017 after the rif-whr list's recompute",
        {**_T0017_READ, "rating_changes": _T0017_CHANGES, "stale_lists": _ELO_STALE_LISTS},
        "rif-elo rates it too, but has not been recomputed since the file's first tournament was submitted "
        "(`stale_lists`): it shows no change of it yet.",
    ),
    "juvisy-2019": {
        "summary": "A Go tournament with its own standings",
        "description": "Its places and tie-breaks (MMS, SOS, SOSOS) as its file gave them; no list has rated it yet, "
        "and rivne is stale since its parameters changed.",
        "value": _JUVISY_READ,
    },
}
_T0017_CORRECTED: dict[str, Any] = {
    **_T0017_READ,
    "country": "CHN",
    "players": [{**player, "country": "CHN"} if player["id"] == "3578" else player for player in _T0017_PLAYERS],
    "rating_changes": _T0017_CHANGES,
    "stale_lists": _ELO_STALE_LISTS,
    "lists": [_T0017_LISTS[0], {**_T0017_LISTS[1], "job_id": 2}],
    "player_reviews": [],
}
REPLACE_TOURNAMENT = {
    "real-2017": {
        "summary": "The real tournament of 2017, corrected",
        "description": "The country is stored; rif-whr, which rates the tournament, queues a recompute (job 2); "
        "until it has run, `rating_changes` are those of the current snapshot. Player 3578's country had been "
        "set by `PATCH /v1/players/3578`.",
        "value": _T0017_CORRECTED,
    },
}
WITHDRAW_TOURNAMENT = _example(
    "The real tournament of 2017, withdrawn (reason=entered twice)",
    {
        **_T0017_CORRECTED,
        "withdrawn_at": "2026-11-24T19:24:09.604021Z",
        "withdrawn_reason": "entered twice",
        # No stale list rates it now, and rif-elo, never computed, shows none of its changes.
        "stale_lists": [],
        "lists": [
            {
                "id": "rif-elo",
                "rated": False,
                "reason": "the tournament was withdrawn: entered twice",
                "job_id": None,
                "review": None,
                "no_recompute_reason": _ELO_NOT_AUTOMATIC,
            },
            {
                "id": "rif-whr",
                "rated": False,
                "reason": "the tournament was withdrawn: entered twice",
                "job_id": 2,
                "review": None,
                "no_recompute_reason": None,
            },
        ],
    },
    "Still stored and readable; rif-whr, which rated it, joins the recompute the correction had queued (job 2). "
    "Until that has run, `rating_changes` are those of the current snapshot. rif-elo, which rated it too, queues "
    "none and stays stale.",
)
RESTORE_TOURNAMENT = _example(
    "The real tournament of 2017, restored",
    {**_T0017_CORRECTED, "lists": _T0017_CORRECTED["lists"]},
    "The lists that rate it do so again from the recompute it joins (job 2).",
)
_T0017_SUBMITTED_REVISION = {
    "id": 16, "subject": "tournament", "subject_id": "T0017", "number": 1, "kind": "submitted", "list_id": None,
    "actor": "tester", "at": "2026-11-24T19:24:08.940058Z",
    "summary": "submitted 'Qualification to Chinese National Network Mind Sports Games 2016', 2017-04-08–2017-04-09, "
    "5 players, 10 games",
}  # fmt: skip
_T0017_CORRECTED_REVISION = {
    **_T0017_SUBMITTED_REVISION, "id": 60, "number": 2, "kind": "corrected", "at": "2026-11-24T19:24:09.569610Z",
    "summary": "corrected: country None → 'CHN'",
}  # fmt: skip
LIST_TOURNAMENT_REVISIONS = _example(
    "The real tournament of 2017: submitted, then corrected",
    {"items": [_T0017_SUBMITTED_REVISION, _T0017_CORRECTED_REVISION], "total": 2, "limit": 50, "offset": 0},
)
GET_TOURNAMENT_REVISION = _example(
    "Its correction, with the version it replaced",
    {
        **_T0017_CORRECTED_REVISION,
        "previous": {
            **{k: v for k, v in REAL_TOURNAMENT.items() if k not in ("players", "games")},
            "rated": True, "format": "face-to-face", "complete_records": True, "conditions": {}, "players": [],
            "games": [{**game, "played": True, "date": REAL_TOURNAMENT["end"]} for game in REAL_TOURNAMENT["games"]],
            "withdrawn": None,
        },
    },
    "`previous` is the tournament as submitted, in the form `PUT /v1/tournaments/T0017` takes: nothing was declared "
    "for its players, so `players` is empty (they are stored, and its games may name them).",
)  # fmt: skip


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

_WENHUI_MA_DETAIL = {**_WENHUI_MA, "external_ids": ["renjunet:3578"], "earlier_names": [], "merged_into": None}
CREATE_PLAYER = _example("A player of the Chinese file, created", {**_WENHUI_MA_DETAIL, "player_reviews": []})
GET_PLAYER = _example("A player of the Chinese file", _WENHUI_MA_DETAIL)
UPDATE_PLAYER = _example("The player with his country added", {**_WENHUI_MA_DETAIL, "country": "CHN"})
_WENHUI_MA_RENAMED = {
    **_WENHUI_MA_DETAIL,
    "country": "CHN",
    "native_name": "马文慧",
    "earlier_names": [{"name": "Wenhui", "surname": "Ma", "native_name": None, "until": "2019-12-31"}],
}
_WENHUI_MA_CREATED_REVISION = {
    "id": 3, "subject": "player", "subject_id": "3578", "number": 1, "kind": "player_created", "list_id": None,
    "actor": "tester", "at": "2026-11-24T19:24:08.940058Z", "summary": "created by POST /v1/players",
}  # fmt: skip
LIST_PLAYER_REVISIONS = _example(
    "A player of the Chinese file: created, then his country added by an officer",
    {
        "items": [
            _WENHUI_MA_CREATED_REVISION,
            {
                **_WENHUI_MA_CREATED_REVISION, "id": 9, "number": 2, "kind": "player_updated",
                "at": "2026-11-25T09:12:40.102551Z", "summary": "changed: country None -> 'CHN'",
            },
        ],
        "total": 2, "limit": 50, "offset": 0,
    },
)  # fmt: skip
# A club's tournament names him with a city the record lacks: kept as stored, queued for an officer.
_CITY_REVIEW = {
    "id": 2, "player_id": "3578", "kind": "details", "status": "pending", "tournament_id": "club-2019", "actor": "tester",
    "differences": [{"field": "city", "stored": None, "given": "Shanghai"}], "candidates": [],
    "created_at": "2026-11-24T21:03:11.220431Z", "decided_by": None, "decided_at": None, "reason": None,
}  # fmt: skip
LIST_PLAYER_REVIEWS = _example(
    "A club's tournament gave a stored player a city (status=pending&kind=details)",
    {"items": [_CITY_REVIEW], "total": 1, "limit": 50, "offset": 0},
)
GET_PLAYER_REVIEW = _example("A club's tournament gave a stored player a city", _CITY_REVIEW)
DECIDE_PLAYER_REVIEW = _example(
    "The city accepted: the player's revision records it",
    {
        **_CITY_REVIEW, "status": "accepted", "decided_by": "tester", "decided_at": "2026-11-25T09:12:40.102551Z",
        "reason": "as on the federation's own list", "lists_recomputing": [],
    },
)  # fmt: skip
PLAYER_REVIEW_EXAMPLES: dict[str, Example] = {
    "accept": {
        "summary": "Accept the details: they become the player's",
        "value": {"decision": "accept", "reason": "as on the federation's own list"},
    },
    "merge": {
        "summary": "Accept a possible duplicate: the new record is merged into the stored player",
        "value": {"decision": "accept", "into": "3578", "reason": "the same person, entered under the club's own id"},
    },
    "dismiss": {
        "summary": "Dismiss: nothing changes",
        "value": {"decision": "dismiss", "reason": "a namesake: another person"},
    },
}
_SECOND_RECORD = {**_player("ma-wenhui", "Wenhui", "Ma"), "external_ids": [], "earlier_names": [], "merged_into": None}
MERGE_PLAYER = _example(
    "A second record of him, with no game yet, merged into the first",
    {"player": {**_SECOND_RECORD, "merged_into": "3578"}, "into": _WENHUI_MA_RENAMED, "lists_recomputing": []},
)
UNMERGE_PLAYER = _example(
    "The merge undone: both records as they were",
    {"player": _SECOND_RECORD, "into": _WENHUI_MA_RENAMED, "lists_recomputing": []},
)
RENAME_PLAYER_EXAMPLES: dict[str, Example] = {
    "real": {
        "summary": "A native spelling added from a day on",
        "description": "His Chinese name, from 2020 on; the spelling before is kept in `earlier_names`.",
        "value": {"native_name": "马文慧", "since": "2020-01-01"},
    },
}
MERGE_PLAYER_EXAMPLES: dict[str, Example] = {
    "real": {
        "summary": "A second record of one person merged into the first",
        "value": {"into": "3578"},
    },
}
RENAME_PLAYER = _example("The player renamed, his earlier spelling kept", _WENHUI_MA_RENAMED)


def _hit(player: dict[str, Any], rating: float, status: str) -> dict[str, Any]:
    """A search hit of the Chinese file: a renju player whose name starts with the query, rated on rif-whr."""
    return {
        **player,
        "external_ids": [],
        "earlier_names": [],
        "merged_into": None,
        "match": "prefix",
        "disciplines": ["renju"],
        "ratings": [{"list_id": "rif-whr", "category": "renju", "rating": rating, "status": status}],
    }


SEARCH_PLAYERS = _example(
    "Players whose name starts with 'wang' (q=wang&limit=3), best match first",
    {
        "items": [
            _hit(_player("3625", "Chunxu", "Wang"), 1899.6972349160335, "provisional"),
            _hit(_player("4091", "Ciyu", "Wang"), 1587.51675891784, "inactive"),
            _hit(_player("3709", "Di", "Wang"), 1843.7361003868357, "inactive"),
        ],
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
    "requires_review": False,
    "current_snapshot_id": 1,
    "publication_days": None,
    "stale_since": None,
    "stale_reason": None,
    "drift_threshold": None,
}
_RIF_ELO: dict[str, Any] = {
    "id": "rif-elo",
    "name": "Historical RIF Elo list (1995 rules to 1996, 1997 rules to 2021-08-07)",
    "system": "rif-elo",
    "category": "renju",
    "params": {"switch_to_1997": "1997-01-01", "last_day": "2021-08-07", "bootstrap_rating": None},
    "eligibility": {"rated_only": True},
    "auto_recompute": False,
    "requires_review": False,
    "current_snapshot_id": None,
    "publication_days": ["04-30", "08-31", "12-31"],
    "stale_since": _ELO_STALE_SINCE,
    "stale_reason": _ELO_STALE_REASON,
    "drift_threshold": None,
}
_RIVNE = {"id": "rivne", "name": "Go club rating (Rivne)", "system": "rivne", "category": "go",
          "params": {"newcomer_start": "rank"}, "eligibility": {"rated_only": True}, "auto_recompute": True,
          "requires_review": False, "current_snapshot_id": None, "publication_days": None, "stale_since": None,
          "stale_reason": None, "drift_threshold": None}  # fmt: skip
_ERU = {"id": "eru", "name": "Estonian kyu/dan ranks and rating (ERU)", "system": "eru", "category": "renju",
        "params": {"first_rank": "15k"},
        "eligibility": {"rated_only": True, "recognised_by": ["eru_calendar", "referee_accepted", "international"]},
        "auto_recompute": True, "requires_review": False, "current_snapshot_id": None, "publication_days": None,
        "stale_since": None, "stale_reason": None, "drift_threshold": None}  # fmt: skip
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
            "requires_review": False,
            "current_snapshot_id": None,
            "publication_days": None,
            "stale_since": None,
            "stale_reason": None,
            "drift_threshold": None,
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
            "requires_review": False,
            "current_snapshot_id": None,
            "publication_days": None,
            "stale_since": None,
            "stale_reason": None,
            "drift_threshold": None,
        },
        _RIVNE,
    ],  # fmt: skip
)
GET_RATING_LIST = _example("The WHR list of renju, recomputed over the Chinese file", _RIF_WHR)
UPDATE_RATING_LIST = {
    **_example("The WHR list, no longer recomputed after each submission", {**_RIF_WHR, "auto_recompute": False}),
    "review": {
        "summary": "The WHR list, rating tournaments only once an officer has confirmed them",
        "value": {**_RIF_WHR, "auto_recompute": False, "requires_review": True},
    },
}
UPDATE_RATING_LIST_PARAMS = {
    "whr": {"summary": "The WHR list with the rule text's parameters", "value": _RIF_WHR},
    "elo": {
        "summary": "The historical Elo list with a bootstrap rating",
        "value": {**_RIF_ELO, "params": {**_RIF_ELO["params"], "bootstrap_rating": 1800}},
    },
    "rivne": {
        "summary": "The Go list, newcomers starting from their declared rating",
        "description": "The new parameter applies from the list's next recompute, which this change does not queue: "
        "the list is stale until then (`stale_since`).",
        "value": {**_RIVNE, "params": {"newcomer_start": "declared_rating"}, **_RIVNE_STALE},
    },
    "eru": {
        "summary": "The Estonian list, unranked newcomers evaluated from 12 kyu",
        "value": {
            **_ERU,
            "params": {"first_rank": "12k"},
            "stale_since": "2026-11-24T19:24:10.012003Z",
            "stale_reason": "parameters changed: first_rank '15k' → '12k'",
        },
    },
}

# The recompute over the whole file: 526 players, 4,644 games, run on the day its list_date names.
_NOTES = ["converged in 7 Newton steps (largest last change 5.14e-09 Elo)"]
_SNAPSHOT = {
    "id": 1,
    "list_id": "rif-whr",
    "list_date": "2026-11-23",
    "created_at": "2026-11-23T16:26:49Z",
    "job_id": 1,
    "params": _WHR_PARAMS,
    "players": 526,
    "games": 4644,
    "tournaments": 59,
    "notes": _NOTES,
    "current": True,
    "system": "rif-whr",
    "service_version": VERSION,
    "seeds": 0,
    "eligibility": _RIF_WHR["eligibility"],
    "inputs_digest": "073777b9619563af2142dd963f561ae09f325c33af8034e338dd4c06eba65127",
}
LIST_SNAPSHOTS = _example("The WHR list's only snapshot", {"items": [_SNAPSHOT], "total": 1, "limit": 50, "offset": 0})
GET_SNAPSHOT = _example("The WHR list's snapshot over the Chinese file", _SNAPSHOT)
# The three best in 2019 as of 2019-12-15; the publication of 2019-12-31 has the same rows (no
# tournament between the two days) but for the deviations, each compared with publication no. 1.
_TOP_THREE_2019: list[dict[str, Any]] = [
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
        "previous_rating": 2522.477960046187,
        "previous_rank": 1,
        "change": 0.0,
        "change_unrounded": 0.0,
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
        "previous_rating": 2476.862796068698,
        "previous_rank": 2,
        "change": 13.0,
        "change_unrounded": 13.477798319180692,
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
        "previous_rating": 2442.4664317083207,
        "previous_rank": 3,
        "change": 26.0,
        "change_unrounded": 25.765218506286146,
    },
]  # fmt: skip
GET_RATINGS = _example(
    "The three best on the file's last day (as_of=2019-12-15&limit=3)",
    {
        "list_id": "rif-whr",
        "snapshot_id": 1,
        "list_date": "2026-11-23",
        "as_of": "2019-12-15",
        "compared_with": {"number": 1, "date": "2017-12-31", "title": "RIF rating list, December 2017"},
        "stale_since": None,
        "stale_reason": None,
        "items": _TOP_THREE_2019,
        "total": 128,
        "limit": 3,
        "offset": 0,
    },  # fmt: skip
    "The file names these players by id alone, so `name` and `country` are null. 128 of the 526 players are "
    "active on 2019-12-15: at least 10 rated games, the last one within five years (RIF 2021 #10). Each row is "
    "compared with the list's latest publication, here no. 1 as of 2017-12-31.",
)
GET_PLAYER_HISTORY = _example(
    "A player's three tournament days in the file",
    {
        "player_id": "503",
        "list_id": "rif-whr",
        "snapshot_id": 1,
        "stale_since": None,
        "stale_reason": None,
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
    "created_at": "2026-11-23T16:26:45Z",
    "started_at": "2026-11-23T16:26:49.474194Z",
    "finished_at": "2026-11-23T16:26:49.748461Z",
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
    "seeds": [{**seed, "title": None, "counters": None} for seed in sorted(_SEEDS_IN, key=lambda seed: seed["player_id"])],
}
REPLACE_SEEDS = _example("The four seeds stored, by player id", _SEEDS)
GET_SEEDS = _example("The historical Elo list's seeds", _SEEDS)
PUT_SEED = _example(
    "Player 3578 seeded on the Go club list",
    {"player_id": "3578", **_PLAYER_SEED_IN, "status": "active", "counters": None, "job_id": 3},
    "The rivne list recomputes itself, so the seed queued its recompute.",
)
DELETE_SEED = _example("Player 3578's seed removed again", {"list_id": "rivne", "player_id": "3578", "job_id": 3})

WHAT_IF = _example(
    "What the WHR list would make of it",
    {
        "list_id": "rif-whr", "rated": True, "reason": None, "list_date": "2026-11-24",
        "players": [
            {"player_id": "3578", "system": "rif-whr", "rating_before": 2106.859069283636,
             "rating_after": 2142.7973188114925, "change": 36.0, "change_unrounded": 35.93824952785644,
             "games_counted": 2, "status_after": "provisional", "title_after": None,
             "details": {"deviation_after": 157.36817904210974, "day_after": "2019-12-21"}},
            {"player_id": "503", "system": "rif-whr", "rating_before": 2175.5508682921763,
             "rating_after": 2139.612618765018, "change": -36.0, "change_unrounded": -35.938249527158405,
             "games_counted": 2, "status_after": "active", "title_after": None,
             "details": {"deviation_after": 143.14919913185102, "day_after": "2019-12-21"}},
        ],
        "notes": [],
    },
    "Nothing is stored: the list and the tournaments stay as they were.",
)  # fmt: skip

HEALTH: dict[str, dict[str, Any]] = {
    "postgresql": {"summary": "A service on PostgreSQL", "value": {"status": "ok", "database": "postgresql"}},
    "sqlite": {"summary": "A service on its embedded SQLite file", "value": {"status": "ok", "database": "sqlite"}},
}
READINESS: dict[str, dict[str, Any]] = {
    "postgresql": {
        "summary": "A service on PostgreSQL, migrated",
        "value": {"status": "ready", "database": "postgresql", "revision": "0020"},
    },
    "sqlite": {
        "summary": "A service on its embedded SQLite file, migrated",
        "value": {"status": "ready", "database": "sqlite", "revision": "0020"},
    },
}
LIST_AUDIT = _example(
    "The WHR list's last two changes (list=rif-whr&limit=2)",
    {
        "items": [
            {"id": 70, "subject": "rating_list", "subject_id": "rif-whr", "number": 5, "kind": "settings_changed",
             "list_id": "rif-whr", "actor": "tester", "at": "2026-11-24T19:24:09.684256Z",
             "summary": "settings: auto_recompute True → False"},
            {"id": 66, "subject": "rating_list", "subject_id": "rif-whr", "number": 4, "kind": "params_changed",
             "list_id": "rif-whr", "actor": "tester", "at": "2026-11-24T19:24:09.655048Z",
             "summary": "params: unchanged"},
        ],
        "total": 5, "limit": 2, "offset": 0,
    },
    "Its three publications (kind `published`) came before them.",
)  # fmt: skip


# --- publications (filled from the scenario of tests/project/test_documentation.py) -----------------------
PUBLISH_EXAMPLES: dict[str, dict[str, Any]] = {
    "real": {
        "summary": "The WHR list over the Chinese file, published as of the end of 2019",
        "value": {"date": "2019-12-31", "title": "RIF rating list, December 2019"},
    },
    "real-2017": {
        "summary": "The same list as of the end of 2017 (published first: publications follow each other)",
        "value": {"date": "2017-12-31", "title": "RIF rating list, December 2017"},
    },
}
# Published over the Chinese file: no. 1 as of 2017-12-31, no. 2 as of 2019-12-31 (compared with 1),
# both from the list's one snapshot. 27 players active on no. 1 are inactive on no. 2.
_PUBLICATION_1 = {
    "list_id": "rif-whr",
    "number": 1,
    "date": "2017-12-31",
    "title": "RIF rating list, December 2017",
    "snapshot_id": 1,
    "previous_number": None,
    "scheduled_for": None,
    "published_by": "tester",
    "created_at": "2026-11-24T19:51:12.214555Z",
    "players": 415,
    "left": [],
}
_LEFT_BY_2019: list[dict[str, Any]] = [
    {
        "player_id": "377",
        "name": None,
        "country": None,
        "previous_rating": 2288.9888810762336,
        "previous_rank": 20,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "950",
        "name": None,
        "country": None,
        "previous_rating": 2254.4632311563064,
        "previous_rank": 25,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "1195",
        "name": None,
        "country": None,
        "previous_rating": 2211.4472865539565,
        "previous_rank": 37,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "332",
        "name": None,
        "country": None,
        "previous_rating": 2132.536968827716,
        "previous_rank": 55,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3702",
        "name": "Xingda Chen",
        "country": None,
        "previous_rating": 2093.4220670698687,
        "previous_rank": 60,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "2116",
        "name": None,
        "country": None,
        "previous_rating": 2006.1081401154022,
        "previous_rank": 78,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3216",
        "name": None,
        "country": None,
        "previous_rating": 1971.2232223359263,
        "previous_rank": 84,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "1998",
        "name": "Weixin Shi",
        "country": None,
        "previous_rating": 1961.8136291918295,
        "previous_rank": 86,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3721",
        "name": "Chou Kang",
        "country": None,
        "previous_rating": 1961.3209215980698,
        "previous_rank": 87,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3115",
        "name": None,
        "country": None,
        "previous_rating": 1942.2187215507179,
        "previous_rank": 91,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3706",
        "name": "Jianfei Dong",
        "country": None,
        "previous_rating": 1931.740143565977,
        "previous_rank": 93,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "2015",
        "name": None,
        "country": None,
        "previous_rating": 1922.7509288057922,
        "previous_rank": 94,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "2774",
        "name": None,
        "country": None,
        "previous_rating": 1922.6043196368973,
        "previous_rank": 95,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "1148",
        "name": None,
        "country": None,
        "previous_rating": 1886.9748799354572,
        "previous_rank": 100,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "1109",
        "name": None,
        "country": None,
        "previous_rating": 1873.7822203825745,
        "previous_rank": 101,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3717",
        "name": "Jiamin Luo",
        "country": None,
        "previous_rating": 1866.4918881436552,
        "previous_rank": 102,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3119",
        "name": None,
        "country": None,
        "previous_rating": 1856.5110388665553,
        "previous_rank": 106,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3709",
        "name": "Di Wang",
        "country": None,
        "previous_rating": 1843.7361003868357,
        "previous_rank": 108,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "1267",
        "name": None,
        "country": None,
        "previous_rating": 1838.5927027962002,
        "previous_rank": 109,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "355",
        "name": None,
        "country": None,
        "previous_rating": 1836.5822373860276,
        "previous_rank": 110,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3718",
        "name": "Wenjun Liao",
        "country": None,
        "previous_rating": 1833.7460159506995,
        "previous_rank": 111,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3710",
        "name": "Hailian Lin",
        "country": None,
        "previous_rating": 1822.1671822669302,
        "previous_rank": 113,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "2489",
        "name": None,
        "country": None,
        "previous_rating": 1801.7487539008525,
        "previous_rank": 116,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "1456",
        "name": None,
        "country": None,
        "previous_rating": 1783.7309867637641,
        "previous_rank": 118,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "2103",
        "name": None,
        "country": None,
        "previous_rating": 1675.8283541735343,
        "previous_rank": 124,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "3386",
        "name": "Haixia Zhao",
        "country": None,
        "previous_rating": 1661.8236661962346,
        "previous_rank": 125,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
    {
        "player_id": "2480",
        "name": None,
        "country": None,
        "previous_rating": 1636.0938646529285,
        "previous_rank": 127,
        "previous_status": "active",
        "reason": "became_inactive",
        "detail": "became inactive: no rated game in the period the list's rules allow",
        "tournaments": [],
    },
]
_PUBLICATION_2 = {
    **{
        "list_id": "rif-whr",
        "number": 2,
        "date": "2019-12-31",
        "title": "RIF rating list, December 2019",
        "snapshot_id": 1,
        "previous_number": 1,
        "scheduled_for": None,
        "published_by": "tester",
        "created_at": "2026-11-24T19:51:12.343153Z",
        "players": 526,
    },
    "left": _LEFT_BY_2019,
}
PUBLISH_RATING_LIST = {
    "real-2017": {"summary": "The first publication: nothing to compare with", "value": _PUBLICATION_1},
    "real": {"summary": "The second, with who left the list since the first", "value": _PUBLICATION_2},
}
LIST_PUBLICATIONS = _example(
    "The WHR list's latest publication (limit=1)", {"items": [_PUBLICATION_2], "total": 2, "limit": 1, "offset": 0}
)
GET_PUBLICATION = _example("The WHR list's second publication", _PUBLICATION_2)
GET_PUBLICATION_RATINGS = _example(
    "The three best of the second publication, against the first (limit=3)",
    {
        "list_id": "rif-whr",
        "number": 2,
        "date": "2019-12-31",
        "title": "RIF rating list, December 2019",
        "previous_number": 1,
        # The same rows sixteen days later: only the deviations have grown.
        "items": [
            {**row, "deviation": deviation}
            for row, deviation in zip(_TOP_THREE_2019, (143.83299407735157, 124.44191472877905, 142.36244732981012))
        ],
        "total": 128,
        "limit": 3,
        "offset": 0,
    },
)


# --- why a rating changed (filled from the scenario of tests/project/test_documentation.py) ---------------
GET_PLAYER_CHANGES = _example(
    "Player 498 between publications 1 (2017) and 3 (2019, after T0017's correction)",
    {
        "player_id": "498",
        "list_id": "rif-whr",
        "system": "rif-whr",
        "from": {
            "reference": "publication:1",
            "source": "publication",
            "publication": 1,
            "snapshot_id": 1,
            "date": "2017-12-31",
            "rating": 2476.862796068698,
            "status": "active",
            "games": 56,
        },
        "to": {
            "reference": "publication:3",
            "source": "publication",
            "publication": 3,
            "snapshot_id": 2,
            "date": "2019-12-31",
            "rating": 2490.340594387585,
            "status": "active",
            "games": 62,
        },
        "change": 13.477798318886926,
        "past_rating_now": 2476.8627960683784,
        "past_revised": -3.196873876731843e-10,
        "new_games": 13.477798319206613,
        "steps": [
            {
                "date": "2018-07-16",
                "rating_before": 2476.8627960683784,
                "rating_after": 2490.340594387585,
                "change": 13.477798319206613,
                "tournament_ids": ["T0015"],
                "cause": "games",
            }
        ],
        "tournaments": [
            {
                "tournament_id": "T0017",
                "name": "Qualification to Chinese National Network Mind Sports Games 2016",
                "start": "2017-04-08",
                "end": "2017-04-09",
                "how": "corrected",
                "revisions": [
                    {
                        "number": 2,
                        "kind": "corrected",
                        "at": "2026-11-24T21:46:36.201675Z",
                        "actor": "tester",
                        "summary": "corrected: country None → 'CHN'",
                    }
                ],
                "games": [
                    {
                        "date": "2017-04-09",
                        "round": "2",
                        "colour": "black",
                        "opponent_id": "503",
                        "opponent_name": None,
                        "outcome": "won",
                        "played": True,
                    },
                    {
                        "date": "2017-04-09",
                        "round": "3",
                        "colour": "white",
                        "opponent_id": "1193",
                        "opponent_name": None,
                        "outcome": "lost",
                        "played": True,
                    },
                    {
                        "date": "2017-04-09",
                        "round": "4",
                        "colour": "black",
                        "opponent_id": "1003",
                        "opponent_name": None,
                        "outcome": "lost",
                        "played": True,
                    },
                    {
                        "date": "2017-04-09",
                        "round": "5",
                        "colour": "white",
                        "opponent_id": "3578",
                        "opponent_name": "Wenhui Ma",
                        "outcome": "lost",
                        "played": True,
                    },
                ],
                "rating_before": 2449.2086887335904,
                "rating_after": 2446.0055860871953,
                "change": -3.2031026463951093,
            },
            {
                "tournament_id": "T0015",
                "name": "Chinese National Open Tournament 2018, Men Group",
                "start": "2018-07-14",
                "end": "2018-07-16",
                "how": "rated",
                "revisions": [],
                "games": [
                    {
                        "date": "2018-07-16",
                        "round": "1",
                        "colour": "white",
                        "opponent_id": "2767",
                        "opponent_name": None,
                        "outcome": "won",
                        "played": True,
                    },
                    {
                        "date": "2018-07-16",
                        "round": "2",
                        "colour": "black",
                        "opponent_id": "3081",
                        "opponent_name": None,
                        "outcome": "won",
                        "played": True,
                    },
                    {
                        "date": "2018-07-16",
                        "round": "3",
                        "colour": "white",
                        "opponent_id": "45",
                        "opponent_name": None,
                        "outcome": "won",
                        "played": True,
                    },
                    {
                        "date": "2018-07-16",
                        "round": "4",
                        "colour": "black",
                        "opponent_id": "1193",
                        "opponent_name": None,
                        "outcome": "won",
                        "played": True,
                    },
                    {
                        "date": "2018-07-16",
                        "round": "5",
                        "colour": "white",
                        "opponent_id": "135",
                        "opponent_name": None,
                        "outcome": "won",
                        "played": True,
                    },
                    {
                        "date": "2018-07-16",
                        "round": "6",
                        "colour": "black",
                        "opponent_id": "2223",
                        "opponent_name": None,
                        "outcome": "drawn",
                        "played": True,
                    },
                ],
                "rating_before": 2470.7738414977725,
                "rating_after": 2490.340594387585,
                "change": 19.566752889812506,
            },
        ],
        "list_changes": [],
    },
    "His 2017 tournament T0017 was corrected in between (its country added: no rating moved, so the past "
    "read again is the same to a billionth of a point); his one playing day since 2017, in T0015, is the step.",
)

PREDICT = _example(
    "Two players of the Chinese file on the WHR list (a=952&b=1219)",
    {
        "list_id": "rif-whr",
        "system": "rif-whr",
        "snapshot_id": 1,
        "list_date": "2026-12-02",
        "stale_since": None,
        "a": {"player_id": "952", "rating": 2522.4779600470783, "deviation": 230.86604381167254},
        "b": {"player_id": "1219", "rating": 2404.5880058278103, "deviation": 229.68695260141408},
        "a_beats_b": 0.663432664331334,
        "rule": "RIF 2021 #1-#7",
        "a_above_b": 0.6413246671060511,
    },
    "Qingqing Wang (952) against 1219 on the list's current ratings: 0.66 to win a game by the Bradley-Terry model of "
    "RIF 2021 #1-#7, 0.64 to stand above her on the list (their deviations are wide: five years and more since "
    "their last games).",
)
GET_HEAD_TO_HEAD = _example(
    "Two players of the Chinese file who met eight times (952 and 1219)",
    {
        "a": "952",
        "b": "1219",
        "a_name": None,
        "b_name": None,
        "score": {"a": 6.5, "b": 1.5, "games": 8},
        "games": [
            {
                "date": "2012-10-06",
                "tournament_id": "T0042",
                "tournament_name": "Chinese National Championship 2012, Women Group",
                "round": "6",
                "black": "1219",
                "result": "win",
                "result_as_submitted": "W",
                "played": True,
                "predictions": [
                    {
                        "list_id": "rif-whr",
                        "system": "rif-whr",
                        "as_of": "2012-10-05",
                        "a_rating": 2538.7165513447726,
                        "b_rating": 2091.2216579096207,
                        "a_beats_b": 0.9293001074466026,
                        "rule": "RIF 2021 #1-#7",
                    }
                ],
            },
            {
                "date": "2013-06-12",
                "tournament_id": "T0040",
                "tournament_name": "Chinese National Open Tournament 2013, Women Group",
                "round": "7",
                "black": "1219",
                "result": "win",
                "result_as_submitted": "W",
                "played": True,
                "predictions": [
                    {
                        "list_id": "rif-whr",
                        "system": "rif-whr",
                        "as_of": "2013-06-11",
                        "a_rating": 2548.594715542429,
                        "b_rating": 2191.036796569341,
                        "a_beats_b": 0.8867804758400967,
                        "rule": "RIF 2021 #1-#7",
                    }
                ],
            },
            {
                "date": "2013-10-05",
                "tournament_id": "T0036",
                "tournament_name": "Chinese National Championship 2013, Women Group",
                "round": "6",
                "black": "952",
                "result": "win",
                "result_as_submitted": "B",
                "played": True,
                "predictions": [
                    {
                        "list_id": "rif-whr",
                        "system": "rif-whr",
                        "as_of": "2013-10-04",
                        "a_rating": 2556.9352401155493,
                        "b_rating": 2229.4684017729755,
                        "a_beats_b": 0.8681901782973704,
                        "rule": "RIF 2021 #1-#7",
                    }
                ],
            },
            {
                "date": "2013-10-06",
                "tournament_id": "T0038",
                "tournament_name": "Chinese National Championship 2013, Women Group Final",
                "round": "3",
                "black": "952",
                "result": "win",
                "result_as_submitted": "B",
                "played": True,
                "predictions": [
                    {
                        "list_id": "rif-whr",
                        "system": "rif-whr",
                        "as_of": "2013-10-05",
                        "a_rating": 2553.9829871860384,
                        "b_rating": 2249.2928512638473,
                        "a_beats_b": 0.8524487368435483,
                        "rule": "RIF 2021 #1-#7",
                    }
                ],
            },
            {
                "date": "2014-10-06",
                "tournament_id": "T0030",
                "tournament_name": "Chinese National Championship 2014, Women Group",
                "round": "5",
                "black": "1219",
                "result": "win",
                "result_as_submitted": "W",
                "played": True,
                "predictions": [
                    {
                        "list_id": "rif-whr",
                        "system": "rif-whr",
                        "as_of": "2014-10-05",
                        "a_rating": 2526.5135804859865,
                        "b_rating": 2249.462038238488,
                        "a_beats_b": 0.8312955300650033,
                        "rule": "RIF 2021 #1-#7",
                    }
                ],
            },
            {
                "date": "2015-09-20",
                "tournament_id": "T0025",
                "tournament_name": "3rd National Mind Sports Games of China, Women Group A",
                "round": "7",
                "black": "1219",
                "result": "draw",
                "result_as_submitted": "D",
                "played": True,
                "predictions": [
                    {
                        "list_id": "rif-whr",
                        "system": "rif-whr",
                        "as_of": "2015-09-19",
                        "a_rating": 2496.292019742489,
                        "b_rating": 2296.5982152911897,
                        "a_beats_b": 0.7594250486876982,
                        "rule": "RIF 2021 #1-#7",
                    }
                ],
            },
            {
                "date": "2015-09-22",
                "tournament_id": "T0027",
                "tournament_name": "3rd National Mind Sports Games of China, Women Group Final",
                "round": "2",
                "black": "952",
                "result": "win",
                "result_as_submitted": "B",
                "played": True,
                "predictions": [
                    {
                        "list_id": "rif-whr",
                        "system": "rif-whr",
                        "as_of": "2015-09-21",
                        "a_rating": 2503.0198860492087,
                        "b_rating": 2344.0491321149834,
                        "a_beats_b": 0.7140445284956802,
                        "rule": "RIF 2021 #1-#7",
                    }
                ],
            },
            {
                "date": "2017-10-03",
                "tournament_id": "T0004",
                "tournament_name": "Chinese National Championship 2017, Women Group",
                "round": "5",
                "black": "952",
                "result": "loss",
                "result_as_submitted": "W",
                "played": True,
                "predictions": [
                    {
                        "list_id": "rif-whr",
                        "system": "rif-whr",
                        "as_of": "2017-10-02",
                        "a_rating": 2503.047156590815,
                        "b_rating": 2344.204090004753,
                        "a_beats_b": 0.7138944233486906,
                        "rule": "RIF 2021 #1-#7",
                    }
                ],
            },
        ],
    },  # fmt: skip
    "Each game with what the WHR list (the one list recomputed here) predicted of it from both players' history "
    "as of the day before.",
)


GET_DRIFT = _example(
    "The WHR list over the Chinese file (2009-11 to 2019-12; its last two months shown), its cohort of 2014",
    {
        "list_id": "rif-whr",
        "system": "rif-whr",
        "snapshot_id": 1,
        "list_date": "2026-12-03",
        "stale_since": None,
        "cohort_year": 2014,
        "cohort_size": 195,
        "months": [
            {
                "month": "2019-11",
                "date": "2019-11-30",
                "active_players": 124,
                "mean": 2081.2623313343997,
                "median": 2088.556226219376,
                "percentiles": {
                    "p10": 1806.6401881828779,
                    "p25": 1950.900210364398,
                    "p50": 2088.556226219376,
                    "p75": 2228.9551630545807,
                    "p90": 2333.0229343535607,
                },
                "cohort_active": 80,
                "cohort_mean": 2127.0308921264336,
            },
            {
                "month": "2019-12",
                "date": "2019-12-31",
                "active_players": 128,
                "mean": 2083.1472243102544,
                "median": 2088.556226219376,
                "percentiles": {
                    "p10": 1808.3366631043286,
                    "p25": 1950.900210364398,
                    "p50": 2088.556226219376,
                    "p75": 2228.9551630545807,
                    "p90": 2337.430545426585,
                },
                "cohort_active": 82,
                "cohort_mean": 2130.5316998392436,
            },
        ],
        "change_12_months": {"mean": 15.523622885450095, "median": 5.371706886148786, "cohort_mean": 29.231599189355165},
        "threshold": 50.0,
        "flagged": False,
    },
    "Every month of the series is in `months`, oldest first; the example shows the last two of its 122.",
)


# --- evaluations (issue 45): the WHR list evaluated over the Chinese file ----------------------------
# The real file's 4,644 games, one in ten held out (the RIF's 9:1 split), with a sweep of w²: what the
# service answers (tests/project/test_documentation.py replays it).
REQUEST_EVALUATION_EXAMPLES: dict[str, Example] = {
    "holdout": {
        "summary": "The RIF's own procedure: one game in ten held out, with a sweep of w²",
        "value": {"mode": "holdout", "every": 10, "offset": 0, "sweep": {"parameter": "w2", "values": [6.0, 12.9, 25.0]}},
    },
    "forward": {"summary": "Every game predicted from earlier days only (the default)", "value": {"mode": "forward"}},
    "grid": {
        "summary": "The same holdout with every pair of three values of w² and two numbers of virtual games",
        "value": {
            "mode": "holdout",
            "every": 10,
            "offset": 0,
            "sweep": {
                "parameter": "w2",
                "values": [6.0, 12.9, 25.0],
                "and_parameter": {"parameter": "virtual_games", "values": [1.0, 2.0]},
            },
        },
    },
}
# The request as the service keeps it: every field, the defaults filled in.
_HOLDOUT_ASKED = {
    "mode": "holdout",
    "period_months": 1,
    "every": 10,
    "offset": 0,
    "sweep": {"parameter": "w2", "values": [6.0, 12.9, 25.0], "and_parameter": None},
    "side_by_side": False,
}
_EVALUATION: dict[str, Any] = {
    "id": 2,
    "list_id": "rif-whr",
    "status": "succeeded",
    "progress": 1.0,
    "request": _HOLDOUT_ASKED,
    "result": {
        "manifest": {
            "list_id": "rif-whr",
            "system": "rif-whr",
            "params": {"w2": 12.9, "virtual_games": 2, "virtual_rating": 1900.0, "start_rating": 1900.0},
            "request": _HOLDOUT_ASKED,
            "rule": "RIF 2021 #1-#7",
            "games": 4644,
            "tournaments": 59,
            "inputs_digest": "073777b9619563af2142dd963f561ae09f325c33af8034e338dd4c06eba65127",
            "service_version": VERSION,
        },
        "games_considered": 465,
        "games_unscored": 1,
        "scores": {
            "games": 464,
            "mean_log_likelihood": -0.5500602913021363,
            "brier": 0.15455092679506782,
            "decisive_games": 403,
            "favourite_won": 0.7468982630272953,
            "calibration": [
                {
                    "low": 0.0,
                    "high": 0.1,
                    "games": 32,
                    "mean_expected": 0.061178987740193085,
                    "observed": 0.03125,
                    "interval_low": 0.005537860164003122,
                    "interval_high": 0.15744263820012558,
                },
                {
                    "low": 0.1,
                    "high": 0.2,
                    "games": 31,
                    "mean_expected": 0.15317841099753143,
                    "observed": 0.16129032258064516,
                    "interval_low": 0.070926244433653,
                    "interval_high": 0.3263435395879326,
                },
                {
                    "low": 0.2,
                    "high": 0.3,
                    "games": 54,
                    "mean_expected": 0.24475684600567998,
                    "observed": 0.3333333333333333,
                    "interval_low": 0.22241416537492575,
                    "interval_high": 0.46639036398870637,
                },
                {
                    "low": 0.3,
                    "high": 0.4,
                    "games": 56,
                    "mean_expected": 0.35038272634866197,
                    "observed": 0.42857142857142855,
                    "interval_low": 0.30768962683938234,
                    "interval_high": 0.5586237926918696,
                },
                {
                    "low": 0.4,
                    "high": 0.5,
                    "games": 52,
                    "mean_expected": 0.45049705185725764,
                    "observed": 0.4807692307692308,
                    "interval_low": 0.35104114445455514,
                    "interval_high": 0.6131431723194395,
                },
                {
                    "low": 0.5,
                    "high": 0.6,
                    "games": 67,
                    "mean_expected": 0.552012162500094,
                    "observed": 0.6119402985074627,
                    "interval_low": 0.49223089672129616,
                    "interval_high": 0.7195095198328899,
                },
                {
                    "low": 0.6,
                    "high": 0.7,
                    "games": 48,
                    "mean_expected": 0.6482254299370708,
                    "observed": 0.75,
                    "interval_low": 0.6121562719049204,
                    "interval_high": 0.8507936632620209,
                },
                {
                    "low": 0.7,
                    "high": 0.8,
                    "games": 50,
                    "mean_expected": 0.754858832447387,
                    "observed": 0.76,
                    "interval_low": 0.6258731624205708,
                    "interval_high": 0.8570260860300828,
                },
                {
                    "low": 0.8,
                    "high": 0.9,
                    "games": 49,
                    "mean_expected": 0.8468675703144636,
                    "observed": 0.826530612244898,
                    "interval_low": 0.6979748686459846,
                    "interval_high": 0.907610229005936,
                },
                {
                    "low": 0.9,
                    "high": 1.0,
                    "games": 25,
                    "mean_expected": 0.9414555114478429,
                    "observed": 0.96,
                    "interval_low": 0.8045593626380625,
                    "interval_high": 0.9929037664980127,
                },
            ],
            "by_band": [
                {
                    "label": "1400–1600",
                    "games": 4,
                    "mean_log_likelihood": -0.4742325682852233,
                    "brier": 0.15629197719749668,
                    "mean_expected": 0.7139269701512843,
                    "observed": 0.75,
                },
                {
                    "label": "1600–1800",
                    "games": 63,
                    "mean_log_likelihood": -0.5445062327208058,
                    "brier": 0.16108160688287704,
                    "mean_expected": 0.4989858171143903,
                    "observed": 0.4603174603174603,
                },
                {
                    "label": "1800–2000",
                    "games": 123,
                    "mean_log_likelihood": -0.4780160039322306,
                    "brier": 0.13859695457495189,
                    "mean_expected": 0.4966882683952272,
                    "observed": 0.524390243902439,
                },
                {
                    "label": "2000–2200",
                    "games": 162,
                    "mean_log_likelihood": -0.5365240303606814,
                    "brier": 0.15388088056034382,
                    "mean_expected": 0.5178462247002057,
                    "observed": 0.5679012345679012,
                },
                {
                    "label": "2200–2400",
                    "games": 104,
                    "mean_log_likelihood": -0.6453664683232816,
                    "brier": 0.16247753969969614,
                    "mean_expected": 0.48805544434218845,
                    "observed": 0.5721153846153846,
                },
                {
                    "label": "2400–2600",
                    "games": 8,
                    "mean_log_likelihood": -0.7745222652404425,
                    "brier": 0.25806608727963304,
                    "mean_expected": 0.47656966237913667,
                    "observed": 0.5625,
                },
            ],
            "by_gap": [
                {
                    "label": "0–100",
                    "games": 161,
                    "mean_log_likelihood": -0.6783563835618277,
                    "brier": 0.19920300760999302,
                    "mean_expected": 0.502352299762517,
                    "observed": 0.546583850931677,
                },
                {
                    "label": "100–200",
                    "games": 115,
                    "mean_log_likelihood": -0.6614836803710401,
                    "brier": 0.1898738367032842,
                    "mean_expected": 0.48682793851340944,
                    "observed": 0.6,
                },
                {
                    "label": "200–300",
                    "games": 93,
                    "mean_log_likelihood": -0.5009148991876408,
                    "brier": 0.13035090974170688,
                    "mean_expected": 0.525703870849712,
                    "observed": 0.521505376344086,
                },
                {
                    "label": "300–400",
                    "games": 44,
                    "mean_log_likelihood": -0.33349020564876874,
                    "brier": 0.0848848646306724,
                    "mean_expected": 0.5632322288273377,
                    "observed": 0.5454545454545454,
                },
                {
                    "label": "400–500",
                    "games": 28,
                    "mean_log_likelihood": -0.16048198484263712,
                    "brier": 0.03504067762284802,
                    "mean_expected": 0.43558575376221176,
                    "observed": 0.39285714285714285,
                },
                {
                    "label": "500–600",
                    "games": 16,
                    "mean_log_likelihood": -0.2547239253584508,
                    "brier": 0.06022968669296947,
                    "mean_expected": 0.3850027918479631,
                    "observed": 0.4375,
                },
                {
                    "label": "600–700",
                    "games": 3,
                    "mean_log_likelihood": -0.02273811333462661,
                    "brier": 0.0005126408629536686,
                    "mean_expected": 0.6596259886797163,
                    "observed": 0.6666666666666666,
                },
                {
                    "label": "700–800",
                    "games": 3,
                    "mean_log_likelihood": -0.012041654162280936,
                    "brier": 0.0001456577874034068,
                    "mean_expected": 0.9880317815243848,
                    "observed": 1.0,
                },
                {
                    "label": "800–900",
                    "games": 1,
                    "mean_log_likelihood": -0.009901811251137699,
                    "brier": 9.708061825654416e-05,
                    "mean_expected": 0.009852949723638305,
                    "observed": 0.0,
                },
            ],
            "by_year": [
                {
                    "label": "2009",
                    "games": 63,
                    "mean_log_likelihood": -0.5611592831865495,
                    "brier": 0.1466047336169798,
                    "mean_expected": 0.49524562007122314,
                    "observed": 0.6507936507936508,
                },
                {
                    "label": "2011",
                    "games": 121,
                    "mean_log_likelihood": -0.5672346304131832,
                    "brier": 0.16320248731569337,
                    "mean_expected": 0.4899927471429465,
                    "observed": 0.4793388429752066,
                },
                {
                    "label": "2012",
                    "games": 47,
                    "mean_log_likelihood": -0.6576378577002973,
                    "brier": 0.21240176563534446,
                    "mean_expected": 0.5290136387397899,
                    "observed": 0.5425531914893617,
                },
                {
                    "label": "2013",
                    "games": 31,
                    "mean_log_likelihood": -0.5807853528697108,
                    "brier": 0.15237587347589224,
                    "mean_expected": 0.527980238247882,
                    "observed": 0.6129032258064516,
                },
                {
                    "label": "2014",
                    "games": 31,
                    "mean_log_likelihood": -0.45604793638229824,
                    "brier": 0.13832022770375746,
                    "mean_expected": 0.500225009409891,
                    "observed": 0.5483870967741935,
                },
                {
                    "label": "2015",
                    "games": 82,
                    "mean_log_likelihood": -0.4818248564157479,
                    "brier": 0.11989574352803364,
                    "mean_expected": 0.5046150423681962,
                    "observed": 0.5426829268292683,
                },
                {
                    "label": "2016",
                    "games": 8,
                    "mean_log_likelihood": -0.3739483332214907,
                    "brier": 0.11457344380654695,
                    "mean_expected": 0.5398628846652904,
                    "observed": 0.625,
                },
                {
                    "label": "2017",
                    "games": 28,
                    "mean_log_likelihood": -0.6200574667947244,
                    "brier": 0.18333598058038042,
                    "mean_expected": 0.5621073317062274,
                    "observed": 0.6785714285714286,
                },
                {
                    "label": "2018",
                    "games": 27,
                    "mean_log_likelihood": -0.4647083966484549,
                    "brier": 0.13968747350390615,
                    "mean_expected": 0.48390887271262484,
                    "observed": 0.46296296296296297,
                },
                {
                    "label": "2019",
                    "games": 26,
                    "mean_log_likelihood": -0.6068760805035934,
                    "brier": 0.1569446526078943,
                    "mean_expected": 0.46601545053862786,
                    "observed": 0.4230769230769231,
                },
            ],
        },
        "sweep": {
            "parameter": "w2",
            "current": 12.9,
            "points": [
                {"value": 6.0, "mean_log_likelihood": -0.5527221263745574, "brier": 0.15581858813009575, "games": 464},
                {"value": 12.9, "mean_log_likelihood": -0.5500602913021363, "brier": 0.15455092679506782, "games": 464},
                {"value": 25.0, "mean_log_likelihood": -0.5485799155494496, "brier": 0.1537864109370905, "games": 464},
            ],
            "best": 25.0,
            "interval_low": 12.9,
            "interval_high": 25.0,
            "and_parameter": None,
            "grid": None,
        },
        "side_by_side": None,
    },
    "error": None,
    "created_at": "2026-12-03T13:50:31Z",
    "started_at": "2026-12-03T13:50:31.233597Z",
    "finished_at": "2026-12-03T13:50:31.393005Z",
}
# The same holdout with a sweep of w² and virtual games: the same scores (the list's own parameters),
# every pair's, and each parameter's profile (virtual games: each number's best w², here 25).
_GRID_ASKED = {
    **_HOLDOUT_ASKED,
    "sweep": {
        "parameter": "w2",
        "values": [6.0, 12.9, 25.0],
        "and_parameter": {"parameter": "virtual_games", "values": [1.0, 2.0]},
    },
}


def _pair(w2: float, virtual_games: float, mean_log_likelihood: float, brier: float) -> dict[str, Any]:
    return {"value": w2, "second_value": virtual_games, "mean_log_likelihood": mean_log_likelihood, "brier": brier, "games": 464}


_GRID_EVALUATION = {
    **_EVALUATION,
    "id": 3,
    "request": _GRID_ASKED,
    "result": {
        **_EVALUATION["result"],
        "manifest": {**_EVALUATION["result"]["manifest"], "request": _GRID_ASKED},
        "sweep": {
            "parameter": "w2",
            "current": 12.9,
            "points": [
                {"value": 6.0, "mean_log_likelihood": -0.5498116027265719, "brier": 0.15428443880983925, "games": 464},
                {"value": 12.9, "mean_log_likelihood": -0.5470547892925015, "brier": 0.1528693390753968, "games": 464},
                {"value": 25.0, "mean_log_likelihood": -0.5455205078107638, "brier": 0.1519517223783972, "games": 464},
            ],
            "best": 25.0,
            "interval_low": 12.9,
            "interval_high": 25.0,
            "and_parameter": {
                "parameter": "virtual_games",
                "current": 2.0,
                "points": [
                    {"value": 1.0, "mean_log_likelihood": -0.5455205078107638, "brier": 0.1519517223783972, "games": 464},
                    {"value": 2.0, "mean_log_likelihood": -0.5485799155494496, "brier": 0.1537864109370905, "games": 464},
                ],
                "best": 1.0,
                "interval_low": 1.0,
                "interval_high": 2.0,
            },
            "grid": [
                _pair(6.0, 1.0, -0.5498116027265719, 0.15428443880983925),
                _pair(6.0, 2.0, -0.5527221263745574, 0.15581858813009575),
                _pair(12.9, 1.0, -0.5470547892925015, 0.1528693390753968),
                _pair(12.9, 2.0, -0.5500602913021363, 0.15455092679506782),
                _pair(25.0, 1.0, -0.5455205078107638, 0.1519517223783972),
                _pair(25.0, 2.0, -0.5485799155494496, 0.1537864109370905),
            ],
        },
    },
}
REQUEST_EVALUATION: dict[str, dict[str, Any]] = {
    "holdout": {
        "summary": "The holdout evaluation queued",
        "value": {
            "id": 2,
            "list_id": "rif-whr",
            "status": "queued",
            "progress": 0.0,
            "request": _HOLDOUT_ASKED,
            "result": None,
            "error": None,
            "created_at": "2026-12-03T13:50:31Z",
            "started_at": None,
            "finished_at": None,
        },
    },
    "grid": {
        "summary": "The holdout with a sweep of two parameters queued",
        "value": {
            **_GRID_EVALUATION,
            "status": "queued",
            "progress": 0.0,
            "result": None,
            "started_at": None,
            "finished_at": None,
        },
    },
    "forward": {
        "summary": "A forward evaluation queued",
        "value": {
            "id": 3,
            "list_id": "rif-whr",
            "status": "queued",
            "progress": 0.0,
            "request": {"mode": "forward", "period_months": 1, "every": 10, "offset": 0, "sweep": None, "side_by_side": False},
            "result": None,
            "error": None,
            "created_at": "2026-12-03T13:50:31Z",
            "started_at": None,
            "finished_at": None,
        },
    },
}
GET_EVALUATION: dict[str, dict[str, Any]] = {
    "holdout": {
        "summary": "The holdout evaluation of the WHR list over the Chinese file, with its sweep of w²",
        "value": _EVALUATION,
    },
    "grid": {
        "summary": "The same holdout with a sweep of w² and virtual games: every pair, the best (25, 1) and each profile",
        "value": _GRID_EVALUATION,
    },
}
LIST_EVALUATIONS = _example(
    "The WHR list's newest evaluation (limit=1)", {**{"total": 1, "limit": 1, "offset": 0}, "items": [_EVALUATION]}
)
CANCEL_EVALUATION: dict[str, dict[str, Any]] = {
    "forward": {
        "summary": "A forward evaluation cancelled before it ran",
        "value": {
            "id": 3,
            "list_id": "rif-whr",
            "status": "cancelled",
            "progress": 0.0,
            "request": {"mode": "forward", "period_months": 1, "every": 10, "offset": 0, "sweep": None, "side_by_side": False},
            "result": None,
            "error": None,
            "created_at": "2026-12-03T13:50:31Z",
            "started_at": None,
            "finished_at": "2026-12-03T13:50:31.462253Z",
        },
    }
}
