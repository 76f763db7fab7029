"""The WHR calculator (text 002): a whole history of games rated from nothing but itself. Check the
request (with pointers), hand the games as arrays to the model (``app.rating.whr``) and shape its fit.
Nothing is stored."""

import datetime as dt

import numpy as np

from app.rating import whr
from app.rating.calculators import Calculator, Pointer, WebsiteForm, refuse_if_any, under_the_rules
from app.rating.system import SCORE_OF_RESULT
from app.rating.whr import calculator_examples as examples
from app.rating.whr import calculator_models as schemas


def whr_history(body: schemas.WhrCalcIn) -> schemas.WhrCalcOut:
    errors = [
        Pointer(f"/games/{i}/white", f"player {g.white!r} cannot play against himself")
        for i, g in enumerate(body.games)
        if g.black == g.white
    ]
    refuse_if_any(errors)
    index: dict[str, int] = {}
    black = np.array([index.setdefault(g.black, len(index)) for g in body.games], dtype=np.int64)
    white = np.array([index.setdefault(g.white, len(index)) for g in body.games], dtype=np.int64)
    score = np.array([SCORE_OF_RESULT[g.result] for g in body.games], dtype=np.float64)
    day = np.array([g.date.toordinal() for g in body.games], dtype=np.int64)
    params = whr.WhrParams(
        w2=body.params.w2,
        virtual_games=body.params.virtual_games,
        virtual_rating=body.params.virtual_rating,
        start_rating=body.params.virtual_rating,
    )
    fitted = under_the_rules(whr.fit, black, white, score, day, len(index), params)
    players = []
    for player_id, p in index.items():
        rows = fitted.history(p)
        players.append(
            schemas.WhrPlayerOut(
                id=player_id,
                history=[
                    schemas.WhrPoint(date=dt.date.fromordinal(int(d)), rating=float(r), deviation=float(s), games=int(n))
                    for d, r, s, n in zip(fitted.day[rows], fitted.rating[rows], fitted.deviation[rows], fitted.games[rows])
                ],
            )
        )
    return schemas.WhrCalcOut(players=players)


# The calculator endpoints, mounted under /v1/calc from the registry (app/api/calculators.py).
ENDPOINTS = (
    Calculator(
        path="/whr",
        operation_id="calc_whr",
        doc="""Rate games by Whole-History Rating

        The RIF rating from 2021 (text 002, which adopts Coulom's Whole-History Rating) over the request's
        games alone: every player's rating and deviation on each day he played, the most probable set of
        ratings given all the games at once, converged until no rating moves by 1e-6 or more
        (INTERPRETATIONS 3.1–3.4). Every player has virtual draws on his first day (by default two,
        against a 1900-rated opponent: `params`), which are not rated games. Ratings and deviations are unrounded, on the Elo scale. Nothing is
        stored; no key is needed. At most 20,000 games.""",
        request_model=schemas.WhrCalcIn,
        response_model=schemas.WhrCalcOut,
        function=whr_history,
        request_examples=examples.WHR_REQUESTS,
        response_examples=examples.WHR_EXAMPLES,
        asked_often=True,
        website=WebsiteForm(
            slug="whr",
            title="Whole-History Rating: a set of games",
            about="Text 002: the ratings and deviations at the optimum, one point a day played.",
        ),
    ),
)
