"""The RIF Elo calculators (text 000): one game, the appendix table, a tournament under the 1995/1996
rules, an event under the 1997 rules. Check the request envelope (with pointers), hand plain values
to the rules (``app.rating.rif_elo``) and shape their results. Nothing is stored."""

import datetime as dt
from collections.abc import Sequence
from functools import cache

from app.rating import rif_elo
from app.rating.calculators import Calculator, Pointer, WebsiteForm, envelope_errors, refuse_if_any, under_the_rules
from app.rating.rif_elo import calculator_examples as examples
from app.rating.rif_elo import calculator_models as schemas
from app.rating.system import SCORE_OF_RESULT

BEFORE_1996 = dt.date(1996, 1, 1)


def elo_game(body: schemas.EloGameIn) -> schemas.EloGameOut:
    change = rif_elo.game_change(body.rating, body.opponent_rating, float(body.score))
    return schemas.EloGameOut(expected=change.expected, change=change.change, change_unrounded=change.change_unrounded)


@cache
def appendix() -> schemas.AppendixTable:
    """The table depends on nothing but the formula: computed once per process."""
    return schemas.AppendixTable(
        note=(
            "Computed from the formulas of #6/#7, which are normative (INTERPRETATIONS 1.4). The printed "
            "row 522-724 (+1/+31/+15) splits at 718: there the formula gives +0/+32/+16."
        ),
        rows=[
            schemas.AppendixRowOut(
                difference_from=row.difference_from,
                difference_to=row.difference_to,
                r1_wins=row.higher_wins,
                r2_wins=row.lower_wins,
                draw=row.draw,
            )
            for row in rif_elo.appendix_table()
        ],
    )


def rif_1995(body: schemas.Rif1995TournamentIn) -> schemas.CalcResult1995:
    errors = envelope_errors(body.players, body.games)
    for index, player in enumerate(body.players):
        if player.status == "new" and player.rating is not None:
            errors.append(Pointer(f"/players/{index}/rating", "a new player has no rating: #8 computes his start rating R0"))
        if player.status != "new" and player.rating is None:
            errors.append(Pointer(f"/players/{index}/rating", f"an {player.status} player needs his start rating"))
    if body.before_1996 is None and body.end is None:
        errors.append(Pointer("/end", "give the tournament's end date (or before_1996) so #8.c can be applied or waived"))
    refuse_if_any(errors)
    before_1996 = body.before_1996 if body.before_1996 is not None else body.end is not None and body.end < BEFORE_1996
    results = under_the_rules(
        rif_elo.rate_tournament_1995,
        [rif_elo.Player1995(p.id, p.rating, rif_elo.Status1995(p.status)) for p in body.players],
        _games(body.games),
        before_1996=before_1996,
    )
    return schemas.CalcResult1995(
        before_1996=before_1996,
        players=[schemas.Rif1995PlayerOut(**{**r.__dict__, "status_after": str(r.status_after)}) for r in results],
    )


def rif_1997(body: schemas.Rif1997TournamentIn) -> schemas.CalcResult1997:
    errors = envelope_errors(body.players, body.games)
    for index, player in enumerate(body.players):
        if player.status == "established" and player.rating is None:
            errors.append(Pointer(f"/players/{index}/rating", "an established player needs his rating"))
        record = player.record
        points = record.wins + (record.games - record.wins - record.losses) / 2
        if record.wins + record.losses > record.games:
            errors.append(Pointer(f"/players/{index}/record", "wins + losses exceed games"))
        elif record.points != points:
            # Exactly, as a score is (docs/decisions.md 104): a point is a win or two draws.
            errors.append(
                Pointer(f"/players/{index}/record/points", f"points are wins + draws/2, {points:g}, not {record.points!r}")
            )
    refuse_if_any(errors)
    results = under_the_rules(
        rif_elo.rate_event_1997,
        [
            rif_elo.Player1997(p.id, p.rating, rif_elo.Status1997(p.status), rif_elo.ProvisionalRecord(**p.record.model_dump()))
            for p in body.players
        ],
        _games(body.games),
    )
    return schemas.CalcResult1997(
        players=[
            schemas.Rif1997PlayerOut(
                **{
                    **{k: v for k, v in r.__dict__.items() if k != "record_after"},
                    "status_after": str(r.status_after),
                    "record_after": schemas.ProvisionalRecordIO(**r.record_after.__dict__),
                }
            )
            for r in results
        ]
    )


# The calculator endpoints, mounted under /v1/calc from the registry (app/api/calculators.py).
ENDPOINTS = (
    Calculator(
        path="/rif-elo/game",
        operation_id="calc_rif_elo_game",
        doc="""Rate one game under RIF Elo

        The player's expected score We = 1/(1 + 2^((opponent − rating)/120)) and his change
        32(W − We), rounded to the nearest integer, halves away from zero: the rules of 1995 (#6, #7 with
        one game) and of 1997 (#8) agree on a single game. The opponent's change is the negative of the
        player's. Nothing is stored; no key is needed.""",
        request_model=schemas.EloGameIn,
        response_model=schemas.EloGameOut,
        function=elo_game,
        request_examples=examples.ELO_GAME_REQUESTS,
        response_examples=examples.ELO_GAME_EXAMPLES,
        within_budget=False,
        asked_often=True,
        website=WebsiteForm(
            slug="rif-elo-game",
            title="RIF Elo: one game",
            about="Text 000: the expected score and the change 32(W − We), rounded and unrounded.",
        ),
    ),
    Calculator(
        path="/rif-elo/table",
        operation_id="get_rif_elo_table",
        doc="""The RIF Elo appendix table (GA 1995)

        The change of one game for each band of rating difference, as the appendix of the 1995 rules
        prints it "for an estimation", but computed from the formula, which decides (INTERPRETATIONS
        1.4): the formula and the print differ only at differences 718 to 724, where the table's row
        522–724 is split. R1 is the higher-rated player, R2 the lower-rated one; the other player loses
        what the row's winner (or, in a draw, R2) gains (INTERPRETATIONS 1.5).""",
        request_model=None,
        response_model=schemas.AppendixTable,
        function=appendix,
        request_examples={},
        response_examples=examples.APPENDIX_TABLE_ANSWERS,
        within_budget=False,
        asked_often=True,
    ),
    Calculator(
        path="/rif-1995/tournament",
        operation_id="calc_rif_1995_tournament",
        doc="""Rate one tournament under RIF Elo of 1995/1996

        Each player's change F = 32(Et − Ee), where Ee comes from the game-weighted mean of his
        opponents' ratings (#6, #7; INTERPRETATIONS 1.1, 1.2), rounded once for the tournament. A new
        player gets a start rating R0 from his games against players who had one (#8), inside the interval
        of #8.b; from 1996 on he gets none without a point against official players (#8.c, waived for
        tournaments before 1996 by the 1996 Assembly). New players are rated first, and their R0 counts
        for the others (#8.d).

        Give `end` or `before_1996`: they decide whether #8.c applies (422 at `/end` without either).
        Official and unofficial players need `rating`; new players must have none. Nothing is stored; no
        key is needed. At most 1,000 players and 10,000 games.""",
        request_model=schemas.Rif1995TournamentIn,
        response_model=schemas.CalcResult1995,
        function=rif_1995,
        request_examples=examples.RIF_1995_REQUESTS,
        response_examples=examples.RIF_1995_EXAMPLES,
        asked_often=True,
    ),
    Calculator(
        path="/rif-1997/tournament",
        operation_id="calc_rif_1997_tournament",
        doc="""Rate one event under RIF Elo of 1997

        Every game is rated from the ratings held at the event's start (#8); each established player's
        unrounded per-game changes are added and the sum rounded once (INTERPRETATIONS 1.3). An
        established player's games against provisional players do not count for him (#6, #9). A
        provisional player carries a record of his games against established players and gets
        Rp = Ra + 400(W − L)/N, at most Ra + 300 (#7); he becomes established after at least 10 such games
        and 3 points (#5), with Rp as his rating. Send each provisional player's `record_after` back as
        his `record` for his next event.

        Established players need `rating`. Nothing is stored; no key is needed. At most 1,000 players and
        10,000 games.""",
        request_model=schemas.Rif1997TournamentIn,
        response_model=schemas.CalcResult1997,
        function=rif_1997,
        request_examples=examples.RIF_1997_REQUESTS,
        response_examples=examples.RIF_1997_EXAMPLES,
        asked_often=True,
    ),
)


def _games(games: Sequence[schemas.CalcGame]) -> list[rif_elo.Game]:
    # RIF 1995 #4: only games played in reality are rated.
    return [rif_elo.Game(g.black, g.white, SCORE_OF_RESULT[g.result]) for g in games if g.played]
