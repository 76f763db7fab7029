"""The olufsen list's replay on plain values: when a seed takes over, what a table the rules cannot
rate leaves behind, and the list's statuses."""

import datetime as dt

from app.rating import olufsen
from app.rating.olufsen.rating_list import OlufsenListParams, olufsen_standings_on, replay_olufsen
from app.rating.system import HeldPoints, ReplayInput, Seed, StoredGame, StoredTournament

DAY = dt.date(2024, 3, 1)


def _table(tid: str, end: dt.date, games: list[tuple[str, str, float]], handicap: int | None = None) -> StoredTournament:
    return StoredTournament(tid, end, end, [StoredGame(None, end, b, w, s, handicap=handicap) for b, w, s in games])


def _replay(tournaments: list[StoredTournament], seeds: list[Seed]) -> object:
    return replay_olufsen(ReplayInput(tournaments, seeds, OlufsenListParams(), dt.date(2024, 12, 31)))


def _established(rating: int) -> olufsen.PlayerState:
    return olufsen.PlayerState(rating=rating, rated_games=18, category=olufsen.Category.ESTABLISHED)


def test_a_seed_supersedes_the_tables_ending_on_its_day_and_holds_for_later_ones():
    seeds = [Seed("a", 1900, "established", DAY), Seed("b", 1900, "established", DAY)]
    on_the_day = _table("on", DAY, [("a", "b", 1.0)])
    later = _table("later", DAY + dt.timedelta(days=1), [("a", "b", 1.0)])
    replayed = _replay([on_the_day, later], seeds)
    # "on" rated a and b as newcomers; the seed then replaced that, and "later" is rated from 1900 each.
    expected = {
        r.id: r for r in olufsen.rate_table({"a": _established(1900), "b": _established(1900)}, [olufsen.Game("a", "b", 1.0)])
    }
    by_player = {e.player_id: e for e in replayed.entries}
    assert by_player["a"].rating == expected["a"].rating_after and by_player["b"].rating == expected["b"].rating_after
    a_points = [(p.date, p.rating, p.tournament_ids) for p in replayed.points if p.player_id == "a"]
    assert a_points == [(DAY, 1900.0, ["on"]), (later.end, float(expected["a"].rating_after), ["later"])]
    assert {(c.tournament_id, c.player_id) for c in replayed.changes} >= {("on", "a"), ("later", "a")}


def test_a_table_of_newcomers_nothing_anchors_is_skipped_with_a_note():
    # 001 (6): two newcomers who drew each other have a rating only up to a common shift.
    undetermined = _table("loose", DAY, [("n1", "n2", 0.5)])
    rated = _table("fine", DAY + dt.timedelta(days=1), [("a", "n1", 1.0)])
    replayed = _replay([undetermined, rated], [Seed("a", 1900, "established", DAY - dt.timedelta(days=1))])
    assert any("'loose' was not rated" in note and "not determined" in note for note in replayed.notes)
    assert {c.tournament_id for c in replayed.changes} == {"fine"}
    assert "n2" not in {e.player_id for e in replayed.entries}
    assert replayed.notes[0] == "rated 1 table(s)"


def test_statuses_and_standing_between_points():
    seeds = [Seed("a", 1900, "established", DAY), Seed("p", 1500, "provisional", DAY, "3k", {"rated_games": 10})]
    replayed = _replay([_table("t", DAY + dt.timedelta(days=5), [("a", "p", 0.0), ("a", "q", 1.0)], handicap=None)], seeds)
    statuses = {e.player_id: (e.status, e.counters["category"]) for e in replayed.entries}
    assert statuses == {"a": ("active", "established"), "p": ("provisional", "provisional"), "q": ("provisional", "unrated")}
    point = next(p for p in replayed.points if p.player_id == "p" and p.tournament_ids == ["t"])
    standing = olufsen_standings_on(HeldPoints.around([point], [None]), DAY + dt.timedelta(days=400), OlufsenListParams()).at(0)
    # p (provisional, 3k) beat a and reached 2 kyu's UB 1560: the next grade up (001 (12)), held on.
    assert (standing.rating, standing.title, standing.status) == (1560.0, "2k", "provisional")
    assert standing.games == point.games == 11


def test_handicap_games_leave_a_table_unrated():
    replayed = _replay(
        [_table("h", DAY, [("a", "b", 1.0)], handicap=3)], [Seed("a", 1900, "established", DAY - dt.timedelta(days=1))]
    )
    assert replayed.changes == [] and "1 handicap game(s) not rated (INTERPRETATIONS 2.17)" in replayed.notes
    assert [e.player_id for e in replayed.entries] == ["a"]
