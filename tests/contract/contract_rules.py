"""The rules a request body follows that JSON Schema cannot state, applied to schemathesis' positive
examples so that ``positive_data_acceptance`` can run on every operation.

A rule here ties a field to another field (a game's players are among ``players``), to the path (a
PUT's body names the tournament of its path; which parameters a list takes depends on its system) or to
stored data (a seed names a stored player; a publication follows the list's latest). Each operation's
description in the contract states its rule; schemathesis draws bodies the schema allows, and
``keep_the_rules`` turns a positive one into the nearest body that also keeps the rule, changing only
what the rule is about. Negative examples are left alone: they must still be refused.

The stored data the rules point to is what ``STORED_PLAYERS`` names: the test stores it before the
run (a real tournament of the Chinese results, T0017).
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import uuid
from collections.abc import Callable
from typing import Any

from schemathesis.generation.case import Case

from app.rating.olufsen.rules import grade_index
from app.rating.registry import get_system
from app.schemas.conditions import flat_condition_systems
from app.schemas.evaluations import MAX_GRID
from app.schemas.opening_rules import CATEGORIES_WITH_KNOWN_RULES, GOMOKU_RULES, RENJU_RULES
from app.services.tournaments import CATEGORY_RANGES
from app.settings import get_settings
from tests.helpers import default_lists

# The players of T0017 (renju.net ids), stored by the test before schemathesis runs.
STORED_PLAYERS = ("498", "503", "1003", "1193", "3578")
RATED_GAMES_OF_CATEGORY = {"unrated": (0, 8), "provisional": (9, 17), "established": (18, 100_000)}
SYSTEM_OF_LIST = {rating_list["id"]: rating_list["system"] for rating_list in default_lists()}
LIST_WITH_SEEDS = "rif-elo"


def keep_the_rules(case: Case) -> Case:
    """The schemathesis ``map_case`` hook: a positive example of an operation with a cross-field rule is
    made to keep it; every other example is returned as drawn."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return case
    if case.headers and any(name.lower() == "if-match" for name in case.headers):
        # An If-Match names the version the change was made against (decisions 7.32): a drawn tag
        # names none, and a stale one is a 412 by design; "*" is any current version.
        case.headers = {name: "*" if name.lower() == "if-match" else value for name, value in case.headers.items()}
    operation = f"{case.operation.method.upper()} {case.operation.path}"
    if operation in PERIODS and case.query:
        a_period_from_its_first_day_to_its_last(case)
    if not isinstance(case.body, dict):
        return case
    rule = RULES.get(operation)
    if rule is not None:
        case.body = copy.deepcopy(case.body)
        rule(case)
        # Schemathesis sends what was drawn unless the body is assigned anew: assigning marks it changed.
        case.body = copy.deepcopy(case.body)
    return case


def within_the_body_limit(case: Case) -> bool:
    """The schemathesis ``filter_case`` hook: a positive example must fit the byte limit of its path (the
    contract states it in words; JSON Schema counts items, not bytes). A larger one is a 413 whatever it
    holds, which tests/api/test_calc_limits.py and test_request_bodies.py check."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or not isinstance(case.body, dict | list):
        return True
    settings = get_settings()
    limit = settings.max_calc_body_bytes if case.operation.path.startswith("/v1/calc/") else settings.max_body_bytes
    return len(json.dumps(case.body).encode()) <= limit


def games_between_the_players_given(case: Case) -> None:
    """A calculator's games are between two different players of its ``players`` (each given once)."""
    players = _each_once(case.body["players"])
    case.body["players"] = players
    _pair_the_games(case.body["games"], [player["id"] for player in players])


def a_new_player_has_no_rating(case: Case) -> None:
    """RIF 1995 (#8): a new player has no rating yet; the others are rated; the tournament's end date (or
    an explicit before_1996) decides whether #8.c applies (GA 1996 #3)."""
    games_between_the_players_given(case)
    if case.body.get("end") is None and case.body.get("before_1996") is None:
        case.body["before_1996"] = False
    for player in case.body["players"]:
        if player["status"] == "new":
            player.pop("rating", None)
        elif player.get("rating") is None:
            player["rating"] = 1800


def records_that_add_up(case: Case) -> None:
    """RIF 1997 (#3): an established or provisional player has a rating; a player's record so far adds
    up: points are wins and half the draws, and the wins and losses are among his games."""
    games_between_the_players_given(case)
    for player in case.body["players"]:
        if player.get("status") in ("established", "provisional") and player.get("rating") is None:
            player["rating"] = 1800
        record = player.get("record")
        if record is None:
            continue
        wins, losses = record.get("wins", 0), record.get("losses", 0)
        record["games"] = max(record.get("games", 0), wins + losses)
        record["points"] = wins + (record["games"] - wins - losses) / 2


def handicap_games_unrated(case: Case) -> None:
    """Olufsen (001): a handicap game is not rated (the text has no rule for it). A player's streaks
    toward a promotion (001 (11)) tie runs to his rating and to each other in ways the schema cannot
    state: a positive example starts every player without one."""
    games_between_the_players_given(case)
    for player in case.body["players"]:
        player.pop("streaks", None)
        # (3): a category is a count of rated games: unrated up to 8, provisional 9-17, established 18 on.
        low, high = RATED_GAMES_OF_CATEGORY[player.get("category", "unrated")]
        # (12): a 5 or 6 dan awaiting approval is above the grade held.
        pending, held = player.get("pending_grade"), player.get("grade")
        if pending is not None and held is not None and grade_index(pending) <= grade_index(held):
            player.pop("pending_grade")
        if player.get("category", "unrated") != "unrated" and player.get("rating") is None:
            player["rating"] = 1500  # a provisional or established player has a published rating
        player["rated_games"] = min(max(player.get("rated_games", 0), low), high)
        # (6): an unrated player is rated from all his results so far, one recorded result a rated game
        # (the dummy results of (7) are not games); the others carry none.
        if player.get("category", "unrated") == "unrated":
            kept, games = [], 0
            for result in player.get("prior_results", []):
                if not result.get("dummy"):
                    if games == high:
                        continue
                    games += 1
                kept.append(result)
            player["prior_results"], player["rated_games"] = kept, games
        else:
            player.pop("prior_results", None)
        # (6) (7): an unrated player's rating is determined by something beyond the table's unrated
        # players: a positive example gives one without recorded results a prior grade.
        if player.get("category", "unrated") == "unrated" and not player["prior_results"] and player.get("grade") is None:
            player["grade"] = "1k"
    for game in case.body["games"]:
        if game.get("handicap"):
            game["rated"] = False


def the_bonus_only_on_a_first_rating(case: Case) -> None:
    """ERU 4.10: the referee's bonus is added to a first Estonian rating only."""
    games_between_the_players_given(case)
    for player in case.body["players"]:
        if player.get("estonian_rating") is not None or player.get("rif_rating") is not None:
            player["rating_bonus"] = False


def a_player_gives_a_rating_or_a_rank(case: Case) -> None:
    """Rivne (5.11): a player's start is his rating or, for a newcomer, his declared rank."""
    games_between_the_players_given(case)
    handicap_games = any(game.get("handicap") for game in case.body["games"])
    for player in case.body["players"]:
        # (5.11) a newcomer starts from his declared rank; (Kf) a handicap game reads both ranks.
        if player.get("rank") is None and (handicap_games or player.get("rating") is None):
            player["rank"] = "10k"
    # (3): a player plays one game a round; each game gets a round of its own.
    for number, game in enumerate(case.body["games"], start=1):
        game["round"] = number


def a_performance_has_a_win_and_a_loss_to_stand_on(case: Case) -> None:
    """A performance rating is undefined at 0 % and at 100 % (001 (5)): some game is not won or not lost."""
    results = case.body["results"]
    scores = {result["score"] for result in results}
    if scores <= {0} or scores <= {1}:
        results[0]["score"] = 0.5


def whr_games_between_two_players(case: Case) -> None:
    """A game is between two different players (text 002 rates pairs)."""
    for game in case.body["games"]:
        if game["white"] == game["black"]:
            game["white"] = _another_id(game["black"])


def the_parameters_of_the_lists_system(case: Case) -> None:
    """A list takes its own system's parameters: a parameter of another system is left out, and so is a
    value the system bounds more tightly than the schema's union of every system does."""
    system = SYSTEM_OF_LIST.get(case.path_parameters["list_id"])
    if system is None:
        return  # an unknown list is a 404, which the check accepts
    model = get_system(system).params_model
    patch = {name: value for name, value in case.body.items() if name in model.model_fields}
    defaults = model().model_dump(mode="json")
    case.body = {name: value for name, value in patch.items() if _accepted(model, {**defaults, name: value})}


def an_evaluation_the_lists_rules_take(case: Case) -> None:
    """A holdout's offset is below its ``every``, and a sweep sweeps a parameter of the list's own
    system through values its params model takes (the operation's description says both)."""
    every, offset = case.body.get("every", 10), case.body.get("offset")
    if isinstance(every, int | float) and every >= 1 and isinstance(offset, int | float) and not isinstance(offset, bool):
        case.body["offset"] = int(offset) % int(every)
    sweep = case.body.get("sweep")
    system = SYSTEM_OF_LIST.get(case.path_parameters["list_id"])
    if not isinstance(sweep, dict) or system is None:
        return
    model = get_system(system).params_model
    defaults = model().model_dump(mode="json")
    numeric = [name for name, value in defaults.items() if isinstance(value, int | float) and not isinstance(value, bool)]
    if not numeric:
        case.body["sweep"] = None
        return
    parameter = sweep["parameter"] if sweep.get("parameter") in numeric else numeric[0]
    values = [value for value in sweep.get("values", []) if _accepted(model, {**defaults, parameter: value})]
    values = (values + [defaults[parameter]] * 2)[: max(len(values), 2)]
    case.body["sweep"] = {"parameter": parameter, "values": values, "and_parameter": None}
    second = sweep.get("and_parameter")
    others = [name for name in numeric if name != parameter]
    if not isinstance(second, dict) or not others:
        return
    # Another parameter than the first, each of its values taken with each of the first's, and at most
    # MAX_GRID pairs of the two (the description of `and_parameter` says all three).
    other = second["parameter"] if second.get("parameter") in others else others[0]
    taken = [
        value
        for value in second.get("values", [])
        if all(_accepted(model, {**defaults, parameter: first, other: value}) for first in values)
    ]
    taken = (taken + [defaults[other]] * 2)[: max(min(len(taken), MAX_GRID // len(values)), 2)]
    case.body["sweep"]["and_parameter"] = {"parameter": other, "values": taken}


def seeds_of_stored_players_in_the_lists_system(case: Case) -> None:
    """A seed names a stored player, once, and holds what the list's system keeps: its statuses, and a
    title or counters only where the system has them (each system's seed model says which)."""
    system = SYSTEM_OF_LIST.get(case.path_parameters["list_id"])
    if system is None:
        return  # an unknown list is a 404, which the check accepts
    model = get_system(system).seed_model
    if model is None:
        case.body["seeds"] = []
        return
    case.body["seeds"] = [
        {**_seed_in_the_system(model, seed), "player_id": player_id}
        for player_id, seed in zip(STORED_PLAYERS, case.body["seeds"], strict=False)
    ]


def one_seed_in_a_list_that_takes_seeds(case: Case) -> None:
    """One player's seed holds what the list's system keeps; a list whose system starts from no seed
    (WHR) takes none, so the seed is sent to one that does."""
    system = SYSTEM_OF_LIST.get(case.path_parameters["list_id"])
    if system is None:
        return
    if get_system(system).seed_model is None:
        case.path_parameters = {**case.path_parameters, "list_id": LIST_WITH_SEEDS}
        system = SYSTEM_OF_LIST[LIST_WITH_SEEDS]
    model = get_system(system).seed_model
    assert model is not None
    case.body = {name: value for name, value in _seed_in_the_system(model, case.body).items() if name != "player_id"}


def _seed_in_the_system(model: Any, seed: dict[str, Any]) -> dict[str, Any]:
    status = model.model_json_schema()["properties"].get("status", {})
    statuses = status.get("enum") or [status.get("default")]
    seed = {name: value for name, value in seed.items() if name in model.model_fields}
    if "status" in model.model_fields and seed.get("status") not in statuses:
        seed["status"] = statuses[0]
    for optional in ("title", "counters"):
        if optional in seed and not _accepted(model, {"player_id": STORED_PLAYERS[0], **seed}):
            seed.pop(optional)
    return seed


def one_stored_player_into_another(case: Case) -> None:
    """A merge takes a stored player into another stored player (not himself, not a merged one: the
    first merge of a run is made, a repeat is the 409 of a merged record)."""
    case.path_parameters = {**case.path_parameters, "player_id": STORED_PLAYERS[0]}
    case.body["into"] = STORED_PLAYERS[1]


def ranks_in_a_handicap_game(case: Case) -> None:
    """Rivne (Kf): a handicap game reads both players' declared ranks, and in today's form of the single
    game the player's colour (the older form says it by black and white)."""
    if case.body.get("handicap"):
        for side in ("black", "white"):
            if isinstance(case.body.get(side), dict) and case.body[side].get("rank") is None:
                case.body[side]["rank"] = "10k"
        if "rating" in case.body:
            for name in ("rank", "opponent_rank"):
                if case.body.get(name) is None:
                    case.body[name] = "10k"
            if case.body.get("colour") is None:
                case.body["colour"] = "white"


def a_publication_follows_the_latest(case: Case) -> None:
    """A list is published as of a day neither in the future nor before its latest publication (today is
    both), from one of its own snapshots (its current one, by default)."""
    case.body["date"] = dt.datetime.now(dt.UTC).date().isoformat()
    case.body.pop("snapshot_id", None)


def a_known_opening_rule(case: Case) -> None:
    """A renju or gomoku tournament names a known opening rule (the rules' eligibility reads it); the
    games are between two different players given in ``players``."""
    category = case.body.get("category")
    if category in CATEGORIES_WITH_KNOWN_RULES:
        known = RENJU_RULES if category == "renju" else GOMOKU_RULES
        if case.body.get("rule") not in known:
            case.body["rule"] = next(rule for rule in known if not rule.endswith("-N"))
    players = _each_once(case.body.get("players") or [])
    case.body["players"] = players
    _pair_the_games(case.body.get("games") or [], [player["id"] for player in players])
    a_board_of_the_discipline(case)
    games_within_the_tournament(case)
    standings_of_the_tournaments_players(case)
    conditions_said_alike(case)
    # An Idempotency-Key names one request: a new body is sent under a key of its own.
    if case.headers:
        case.headers = {
            name: uuid.uuid4().hex if name.lower() == "idempotency-key" else value for name, value in case.headers.items()
        }


def a_board_of_the_discipline(case: Case) -> None:
    """A tournament's board and handicap (and each game's) are ones its discipline plays with (15 for
    renju, 9, 13 or 19 for Go, ...; no handicap in renju)."""
    ranges = CATEGORY_RANGES.get(case.body.get("category"))
    if ranges is None:
        return
    sizes = sorted(ranges.board_sizes)
    for holder in [case.body, *(case.body.get("games") or [])]:
        if holder.get("board_size") is not None and holder["board_size"] not in sizes:
            holder["board_size"] = sizes[0]
        if holder.get("handicap") is not None and holder["handicap"] > ranges.max_handicap:
            holder["handicap"] = ranges.max_handicap


def standings_of_the_tournaments_players(case: Case) -> None:
    """The tournament's own standings name its players, each once, and every standing names the first
    one's tie-breaks in the same order (values as drawn, 0 where a standing had none)."""
    standings = case.body.get("standings")
    if not standings:
        return
    of_tournament = {player["id"] for player in case.body.get("players") or []}
    of_tournament |= {game[side] for game in case.body.get("games") or [] for side in ("black", "white")}
    names = [tie_break["name"] for tie_break in standings[0].get("tie_breaks") or []]
    kept: dict[str, dict[str, Any]] = {}
    for standing in standings:
        if standing["player"] in of_tournament and standing["player"] not in kept:
            values = [tie_break["value"] for tie_break in standing.get("tie_breaks") or []]
            values += [0] * (len(names) - len(values))
            standing["tie_breaks"] = [{"name": name, "value": value} for name, value in zip(names, values, strict=False)]
            kept[standing["player"]] = standing
    case.body["standings"] = list(kept.values())


def conditions_said_alike(case: Case) -> None:
    """A condition given both at the tournament's top level and in its system's document
    (``conditions``) says the same in both (docs/decisions.md 112)."""
    documents = case.body.get("conditions")
    if not isinstance(documents, dict):
        return
    for name, system_id in flat_condition_systems().items():
        document = documents.get(system_id)
        if name in case.body and isinstance(document, dict) and name in document:
            document[name] = case.body[name]


def games_within_the_tournament(case: Case) -> None:
    """A tournament ends on or after its first day, and a game is played between the two."""
    start, end = case.body.get("start"), case.body.get("end")
    if start is not None and end is not None and start > end:
        case.body["start"], case.body["end"] = start, end = end, start
    for game in case.body.get("games") or []:
        if game.get("date") is not None and start is not None and end is not None and not start <= game["date"] <= end:
            game["date"] = start


def the_body_names_the_paths_tournament(case: Case) -> None:
    """A correction's body is the tournament of its path."""
    case.body["id"] = case.path_parameters["tournament_id"]
    a_known_opening_rule(case)


def a_period_from_its_first_day_to_its_last(case: Case) -> None:
    """A history's ``from`` is on or before its ``to`` (its description: a 422 otherwise)."""
    first, last = case.query.get("from"), case.query.get("to")
    if isinstance(first, str) and isinstance(last, str) and dt.date.fromisoformat(first) > dt.date.fromisoformat(last):
        # Schemathesis sends what was drawn unless the query is assigned anew.
        case.query = {**case.query, "from": last, "to": first}


# The operations whose query names a period of days.
PERIODS = {"GET /v1/players/{player_id}/history"}

RULES: dict[str, Callable[[Case], None]] = {
    "POST /v1/calc/rif-1995/tournament": a_new_player_has_no_rating,
    "POST /v1/calc/rif-1997/tournament": records_that_add_up,
    "POST /v1/calc/olufsen/tournament": handicap_games_unrated,
    "POST /v1/calc/eru/tournament": the_bonus_only_on_a_first_rating,
    "POST /v1/calc/rivne/tournament": a_player_gives_a_rating_or_a_rank,
    "POST /v1/calc/performance": a_performance_has_a_win_and_a_loss_to_stand_on,
    "POST /v1/calc/whr": whr_games_between_two_players,
    "PATCH /v1/rating-lists/{list_id}/params": the_parameters_of_the_lists_system,
    "POST /v1/rating-lists/{list_id}/evaluations": an_evaluation_the_lists_rules_take,
    "PUT /v1/rating-lists/{list_id}/seeds": seeds_of_stored_players_in_the_lists_system,
    "POST /v1/rating-lists/{list_id}/publications": a_publication_follows_the_latest,
    "POST /v1/tournaments": a_known_opening_rule,
    "POST /v1/rating-lists/{list_id}/what-if": a_known_opening_rule,
    "PUT /v1/rating-lists/{list_id}/seeds/{player_id}": one_seed_in_a_list_that_takes_seeds,
    "POST /v1/calc/rivne/game": ranks_in_a_handicap_game,
    "POST /v1/players/{player_id}/merge": one_stored_player_into_another,
    "PUT /v1/tournaments/{tournament_id}": the_body_names_the_paths_tournament,
}


def _each_once(players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    first: dict[str, dict[str, Any]] = {}
    for player in players:
        first.setdefault(player["id"], player)
    return list(first.values())


def _pair_the_games(games: list[dict[str, Any]], player_ids: list[str]) -> None:
    if len(player_ids) < 2:
        games.clear()
        return
    for i, game in enumerate(games):
        game["black"], game["white"] = player_ids[i % len(player_ids)], player_ids[(i + 1) % len(player_ids)]


def _another_id(player_id: str) -> str:
    return player_id[:-1] + ("a" if player_id[-1] != "a" else "b")


def _accepted(model: Any, value: dict[str, Any]) -> bool:
    try:
        model.model_validate(value)
    except ValueError:
        return False
    return True
