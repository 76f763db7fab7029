"""The eru list's replay on plain values: ranks and ratings carried from tournament to tournament,
where a player's rank at a tournament's start comes from, the tournaments that count for nothing,
seeds, and the list on its date (text 003, INTERPRETATIONS section 4)."""

import datetime as dt
from fractions import Fraction
from itertools import combinations

import pytest
from pydantic import ValidationError

from app.rating import eru
from app.rating.eru.rating_list import EruListParams, EruSeed, eru_standings_on, replay_eru
from app.rating.system import HeldPoints, Replay, ReplayInput, Seed, StoredGame, StoredTournament

START = dt.date(2024, 1, 1)
# An ERU-calendar tournament meeting every band's conditions up to 4 dan (ERU 4.5).
CALENDAR = {"category": "renju", "rule": "RIF", "eru_calendar": True, "games_recorded": True, "format": "face-to-face"}
EIGHT = ["a", "b", "c", "d", "e", "f", "g", "h"]


def _round_robin(
    tid: str, end: dt.date, players: list[str], minutes: int = 60, participants: dict | None = None, **fields: object
) -> StoredTournament:
    """Everyone meets everyone once; the player listed first wins (a wins all, the last loses all)."""
    games = [StoredGame(None, end, black, white, 1.0) for black, white in combinations(players, 2)]
    return StoredTournament(tid, end, end, games, minutes, fields={**CALENDAR, **fields}, participants=participants or {})


def _replay(
    tournaments: list[StoredTournament], seeds: list[Seed], list_date: dt.date = dt.date(2024, 12, 31), **params: object
) -> Replay:
    return replay_eru(ReplayInput(tournaments, seeds, EruListParams(**params), list_date))


def _seeds(rank: str, rating: int = 1600, players: list[str] = EIGHT) -> list[Seed]:
    return [Seed(p, rating, "estonian", START, rank) for p in players]


def _changes(replayed: Replay, tid: str) -> dict:
    return {c.player_id: c for c in replayed.changes if c.tournament_id == tid}


def test_one_tournament_promotes_keeps_and_demotes_by_the_norms_and_moves_the_ratings():
    # Eight 5k players rated 1600, 7 games each against 5k: keep 7 x 30 % = 2.1 -> 2.5, +1 kyu 4.55 -> 5.0,
    # +2 kyu 5.6 -> 6.0 (ERU 4.2, 4.3). Equal ratings: a win is +16, a loss -16 (ERU 4.9, row 0-10).
    replayed = _replay([_round_robin("spring", dt.date(2024, 3, 3), EIGHT)], _seeds("5k"))
    rows = {e.player_id: (e.title, e.rating, e.games) for e in replayed.entries}
    assert rows == {
        "a": ("3k", 1712.0, 7),  # 7 points >= 6.0: +2 kyu; 3k's conditions (30 min, recorded) are met
        "b": ("3k", 1680.0, 7),  # 6 points
        "c": ("4k", 1648.0, 7),  # 5 points >= 5.0: +1 kyu
        "d": ("5k", 1616.0, 7),  # 4 points: keeps
        "e": ("5k", 1584.0, 7),  # 3 points >= 2.5: keeps
        "f": ("6k", 1552.0, 7),  # 2 points < 2.5: one rank down, 5k's conditions met
        "g": ("6k", 1520.0, 7),
        "h": ("6k", 1488.0, 7),
    }
    a = _changes(replayed, "spring")["a"]
    assert (a.rating_before, a.rating_after, a.change, a.games_counted, a.title_after, a.system) == (
        1600,
        1712,
        112,
        7,
        "3k",
        "eru",
    )
    assert a.details["norms"] == {"keep": 2.5, "up1": 5.0, "up2": 6.0}
    assert (a.details["decision"], a.details["norm_reached"], a.details["score"]) == ("promoted", "up2", 7.0)
    assert a.details["rank_before"] == "5k" and a.details["rank_source"] == "list"
    assert "Promoted to 3k" in a.details["reason"] and "ERU 4.9" in a.details["rating_reason"]
    assert _changes(replayed, "spring")["h"].details["decision"] == "demoted"
    assert replayed.notes == ["1 of 1 tournaments rated; unranked newcomers start from 15k (INTERPRETATIONS 4.8)"]


def test_the_replay_is_the_engine_run_tournament_after_tournament():
    first = _round_robin("one", dt.date(2024, 3, 3), EIGHT)
    # The second tournament in a new order, so that ranks and ratings have moved apart by then.
    second = _round_robin("two", dt.date(2024, 6, 2), ["h", "g", "a", "f", "b", "e", "c", "d"])
    replayed = _replay([first, second], _seeds("5k"))
    players = {p: eru.Player(p, eru.parse_rank("5k"), rating=1600) for p in EIGHT}
    for tournament in (first, second):
        games = [eru.Game(g.black, g.white, Fraction(g.black_score)) for g in tournament.games]
        order = list(dict.fromkeys(p for g in tournament.games for p in (g.black, g.white)))
        results = eru.rate_tournament(
            [players[p] for p in order], games, eru.conditions_of_tournament(tournament.fields | {"time_control_minutes": 60})
        )
        changes = _changes(replayed, tournament.id)
        for result in results:
            change = changes[result.id]
            assert (change.rating_before, change.rating_after) == (result.rating.rating_before, result.rating.rating_after)
            assert change.title_after == eru.rank_name(result.rank_after)
            assert change.details["reason"] == result.norms.reason
            players[result.id] = eru.Player(result.id, result.rank_after, rating=result.rating.rating_after)
    assert {e.player_id: (e.title, e.rating) for e in replayed.entries} == {
        p: (eru.rank_name(player.rank or 0), float(player.rating or 0)) for p, player in players.items()
    }
    h_points = [(p.date, p.title, p.rating, p.tournament_ids) for p in replayed.points if p.player_id == "h"]
    assert h_points[0] == (START, "5k", 1600.0, [])  # the seed
    assert [p[1:] for p in h_points[1:]] == [
        ("6k", 1488.0, ["one"]),
        (eru.rank_name(players["h"].rank or 0), float(players["h"].rating or 0), ["two"]),
    ]
    # h, 6k after "one", wins all 7 in "two" against 6k, 3k, 6k, 3k, 5k, 4k, 5k: the +2 kyu norm is
    # (80 + 35 + 80 + 35 + 65 + 50 + 65) % = 4.1 -> 4.5 (ERU 4.3), so he rises to 4k.
    assert h_points[-1][1] == "4k" and _changes(replayed, "two")["h"].details["norms"]["up2"] == 4.5


def test_a_demotion_needs_a_tournament_meeting_the_conditions_of_the_current_rank():
    # 1d players: the one who loses every game is below the keep norm (ERU 4.3). In a 30-minute
    # tournament he keeps 1d, since 1d-4d ask for 60 minutes (ERU 4.5, INTERPRETATIONS 4.7); in a
    # 60-minute one he drops to 1k, one rank only.
    seeds = _seeds("1d")
    short = _round_robin("blitz", dt.date(2024, 3, 3), EIGHT, minutes=30)
    full = _round_robin("classic", dt.date(2024, 5, 5), EIGHT, minutes=60)
    replayed = _replay([short, full], seeds)
    blitz, classic = _changes(replayed, "blitz")["h"], _changes(replayed, "classic")["h"]
    assert (blitz.title_after, blitz.details["decision"]) == ("1d", "kept")
    assert "only a tournament meeting the conditions of the current rank can demote" in blitz.details["reason"]
    assert "60 minutes" in blitz.details["reason"]
    assert (classic.title_after, classic.details["decision"]) == ("1k", "demoted")
    # The winner of the 30-minute one is not promoted either: 2d asks for 60 minutes too.
    assert _changes(replayed, "blitz")["a"].title_after == "1d"
    assert _changes(replayed, "classic")["a"].title_after == "2d"  # +1 dan: 7 x 75 % = 5.25 -> 5.5


def test_tournaments_outside_the_calendar_acceptance_and_international_play_count_for_nothing():
    private = _round_robin("club-night", dt.date(2024, 3, 3), EIGHT, eru_calendar=False)
    replayed = _replay([private], _seeds("5k"))
    assert replayed.changes == []
    assert {e.player_id: (e.title, e.rating, e.games) for e in replayed.entries} == {p: ("5k", 1600.0, 0) for p in EIGHT}
    assert any("'club-night'" in note and "ERU 4.5" in note and "ERU 4.9" in note for note in replayed.notes), replayed.notes
    assert replayed.notes[0].startswith("0 of 1 tournaments rated")


def test_an_international_tournament_outside_the_calendar_moves_ranks_not_ratings():
    abroad = _round_robin("abroad", dt.date(2024, 3, 3), EIGHT, eru_calendar=False, international=True)
    replayed = _replay([abroad], _seeds("5k"))
    a = _changes(replayed, "abroad")["a"]
    assert (a.title_after, a.rating_before, a.rating_after, a.change, a.games_counted) == ("3k", 1600, 1600, 0, 0)
    assert a.details["rating_reason"] == "Not rated: the tournament must be in the ERU calendar (ERU 4.9)."
    assert {e.player_id: e.rating for e in replayed.entries} == {p: 1600.0 for p in EIGHT}


def test_a_referee_accepted_tournament_ranks_only_up_to_10k():
    # 15k-10k may be won in a tournament an ERU referee accepted; 9k and up need the calendar or an
    # international competition (ERU 4.5). Eight 11k players: a's +2 kyu (9k) falls back to +1 (10k).
    accepted = _round_robin("school", dt.date(2024, 3, 3), EIGHT, eru_calendar=False, referee_accepted=True)
    replayed = _replay([accepted], _seeds("11k"))
    a = _changes(replayed, "school")["a"]
    assert a.title_after == "10k" and a.details["norm_reached"] == "up1"
    assert "9k–4k needs a tournament in the ERU calendar or an international competition" in a.details["reason"]


def test_a_newcomer_is_unranked_for_his_opponents_until_a_tournament_evaluates_him():
    # n plays 3 games in "first" (not evaluated: fewer than 7, ERU 4.5): he stays unranked, so in "second"
    # his games are out of his opponents' norms and their count (INTERPRETATIONS 4.6).
    first = StoredTournament(
        "first",
        dt.date(2024, 2, 1),
        dt.date(2024, 2, 1),
        [StoredGame(None, dt.date(2024, 2, 1), "n", p, 1.0) for p in ("a", "b", "c")],
        60,
        fields=CALENDAR,
    )
    second = _round_robin("second", dt.date(2024, 3, 3), ["n", *EIGHT])
    replayed = _replay([first, second], _seeds("12k"))
    n_first = _changes(replayed, "first")["n"]
    assert (n_first.title_after, n_first.details["decision"], n_first.details["rank_source"]) == (
        None,
        "not-evaluated",
        "unranked",
    )
    assert n_first.details["evaluated_from"] == "15k"
    # His first Estonian rating: 1500 after his first tournament (ERU 4.10); his games do not count for a, b, c.
    assert (n_first.rating_before, n_first.rating_after) == (None, 1500)
    assert _changes(replayed, "first")["a"].rating_after == 1600
    second_changes = _changes(replayed, "second")
    assert second_changes["a"].details["games_counted"] == 7  # 8 games, the one against n left out
    # In "second" n beats eight 12k players from 15k (3 or more ranks stronger: +2 kyu at 35 %):
    # he is evaluated, promoted by two kyu, and ranked from then on.
    assert (second_changes["n"].details["decision"], second_changes["n"].title_after) == ("promoted", "13k")
    # ... and by then his rating counts for everybody: 1500 against eight 1600s, a win is +20 (row 77-100).
    assert (second_changes["n"].rating_before, second_changes["n"].rating_after) == (1500, 1660)
    assert second_changes["a"].games_counted == 8


def test_the_first_rank_comes_from_the_seed_or_the_list():
    lone = StoredTournament(
        "t",
        dt.date(2024, 2, 1),
        dt.date(2024, 2, 1),
        [StoredGame(None, dt.date(2024, 2, 1), "n", p, 0.0) for p in EIGHT[:7]],
        60,
        fields=CALENDAR,
    )
    seeds = [*_seeds("9k", players=EIGHT[:7]), Seed("n", 1500, "new", START, None, {"first_rank": "8k"})]
    change = _changes(_replay([lone], seeds), "t")["n"]
    # Evaluated from 8k against 9k opponents and losing all: below the keep norm, demoted to 9k.
    assert change.details["evaluated_from"] == "8k" and change.title_after == "9k"
    listed = _changes(_replay([lone], seeds[:-1], first_rank="5k"), "t")["n"]
    assert listed.details["evaluated_from"] == "5k"


def test_a_declared_rank_is_the_rank_at_the_start():
    # x, a guest, is declared 2d in his own federation's scale (ERU 4.1): his games count in the
    # others' norms at 2d. y is declared 20k: not on ERU's scale, not read (unranked). a is declared 4k
    # while the list holds 5k: the declaration is his rank at the start, and the remark says so.
    participants = {"x": {"rank": "2d"}, "y": {"rank": "20k"}, "a": {"rank": "4k"}}
    replayed = _replay([_round_robin("open", dt.date(2024, 3, 3), [*EIGHT, "x", "y"], participants=participants)], _seeds("5k"))
    changes = _changes(replayed, "open")
    assert changes["x"].details["rank_source"] == "declared" and changes["x"].details["rank_before"] == "2d"
    assert (
        changes["y"].details["rank_source"] == "unranked" and "20k is not on ERU's scale" in changes["y"].details["rank_remark"]
    )
    assert changes["a"].details["rank_before"] == "4k" and changes["a"].details["rank_on_list"] == "5k"
    assert "the declared rank is used" in changes["a"].details["rank_remark"]
    # b played x (2d, ranked) and y (unranked): 8 of his 9 games count.
    assert changes["b"].details["games_counted"] == 8


def test_seeds_with_a_rif_rating_and_a_new_player_with_the_referees_bonus():
    # r's RIF rating 1700 is the base of his Estonian rating (ERU 4.10); n is new and the referee
    # grants the bonus: 1500 + 50 per win over a player rated above 1600 (r, at 1700).
    seeds = [
        Seed("r", 1700, "rif", START, "5k"),
        Seed("n", 1500, "new", START, None, {"rating_bonus": True}),
        *_seeds("5k", players=["a", "b"]),
    ]
    games = [StoredGame(None, dt.date(2024, 2, 1), b, w, s) for b, w, s in [("n", "r", 1.0), ("n", "a", 1.0), ("r", "a", 0.5)]]
    replayed = _replay([StoredTournament("t", dt.date(2024, 2, 1), dt.date(2024, 2, 1), games, 60, fields=CALENDAR)], seeds)
    rows = {e.player_id: e for e in replayed.entries}
    assert rows["n"].rating == 1550.0  # one win over a player above 1600 (a is at 1600, not above)
    # r: the draw with a, 100 below him, gives a the table's 4 and costs r 4 (row 77-100); his loss to the
    # new n does not count (INTERPRETATIONS 4.10).
    assert rows["r"].rating == 1700 - 4 and rows["r"].counters["rating_source"] == "estonian"
    assert rows["b"].counters == {"rating_source": "estonian", "tournaments": 0}
    seed_point = next(p for p in replayed.points if p.player_id == "r" and p.date == START)
    assert seed_point.rating == 1700.0 and seed_point.counters["rating_source"] == "rif"
    assert not any(p.player_id == "n" and p.date == START for p in replayed.points)  # no rating yet: no row


def test_a_seed_on_a_tournaments_last_day_comes_after_it_and_the_list_stands_on_its_date():
    day = dt.date(2024, 3, 3)
    spring = _round_robin("spring", day, EIGHT)
    autumn = _round_robin("autumn", dt.date(2024, 10, 1), EIGHT)
    seeds = [*_seeds("5k"), Seed("a", 2000, "estonian", day, "1d")]  # the federation's correction that day
    replayed = _replay([spring, autumn], seeds, list_date=dt.date(2024, 6, 30))
    a_points = [(p.date, p.title, p.rating, p.tournament_ids) for p in replayed.points if p.player_id == "a"]
    assert a_points[1] == (day, "1d", 2000.0, ["spring"])  # the seed replaced spring's 3k and 1712
    assert _changes(replayed, "autumn")["a"].details["rank_before"] == "1d"
    assert {e.player_id: e.title for e in replayed.entries}["a"] == "1d"  # the list on 30 June: autumn not yet
    held = HeldPoints.around([next(p for p in replayed.points if p.player_id == "h" and p.date == day)], [None])
    standing = eru_standings_on(held, dt.date(2024, 9, 1), EruListParams()).at(0)
    assert (standing.title, standing.rating, standing.status) == ("6k", 1488.0, "active")


@pytest.mark.parametrize(
    ("seed", "where"),
    [
        ({"title": "0k"}, ("title",)),
        ({"title": "10d"}, ("title",)),
        ({"title": "16k"}, ("title",)),
        ({"counters": {"first_rank": "0d"}}, ("counters", "first_rank")),
        ({"title": "3k", "counters": {"first_rank": "5k"}}, ("counters",)),
        ({"counters": {"rating_bonus": True}}, ("counters",)),
        ({"status": "new", "rating": 1600}, ("rating",)),
        ({"status": "elo"}, ("status",)),
        ({"counters": {"games": 3}}, ("counters", "games")),
    ],
)
def test_bad_seeds_are_refused_where_they_are_wrong(seed, where):
    with pytest.raises(ValidationError) as error:
        EruSeed.model_validate({"player_id": "p", "rating": 1500, "as_of": "2024-01-01", **seed})
    assert [e["loc"] for e in error.value.errors()] == [where]


def test_good_seeds_and_params():
    assert (
        EruSeed.model_validate(
            {
                "player_id": "p",
                "rating": 1500,
                "status": "new",
                "as_of": "2024-01-01",
                "counters": {"first_rank": "12k", "rating_bonus": True},
            }
        ).counters
        is not None
    )
    assert EruSeed.model_validate({"player_id": "p", "rating": 2400, "as_of": "2024-01-01", "title": "9d"}).status == "estonian"
    with pytest.raises(ValidationError):
        EruListParams(first_rank="0k")


def test_a_tournament_the_engine_refuses_is_left_out_with_a_note():
    odd = _round_robin("odd", dt.date(2024, 3, 3), EIGHT, championship="olympics")  # not a championship ERU 4.5 names
    fine = _round_robin("fine", dt.date(2024, 4, 4), EIGHT)
    replayed = _replay([odd, fine], _seeds("5k"))
    assert {c.tournament_id for c in replayed.changes} == {"fine"}
    assert any(note.startswith("tournament 'odd' (2024-03-03..2024-03-03) not rated: ") for note in replayed.notes), (
        replayed.notes
    )
