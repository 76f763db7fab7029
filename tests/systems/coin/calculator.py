"""The coin's calculation and its endpoint, mounted under /v1/calc from the registry."""

from app.rating.calculators import CalculationRefused, Calculator, Pointer, WebsiteForm, answers
from tests.systems.coin import rules
from tests.systems.coin.calculator_models import EXAMPLE, CoinIn, CoinOut


def toss(body: CoinIn) -> CoinOut:
    if not body.options.fair:
        raise CalculationRefused(
            "The request has 1 invalid field(s).", [Pointer("/options/fair", "an unfair coin rates nothing")]
        )
    moved = rules.change([game.score for game in body.games], body.options.step)
    return CoinOut(rating_after=body.rating + moved, change=moved, games_counted=len(body.games))


REQUESTS = {"two": {"summary": "A win and a toss on its edge", "value": EXAMPLE}}
ENDPOINTS = (
    Calculator(
        path="/coin/toss",
        operation_id="calc_coin_toss",
        doc="""Rate a player's tosses

        The rating the coin gives a player after his games.""",
        request_model=CoinIn,
        response_model=CoinOut,
        function=toss,
        request_examples=REQUESTS,
        response_examples=answers(REQUESTS, {"two": {"rating_after": 1505.0, "change": 5.0, "games_counted": 2}}),
        within_budget=False,
        website=WebsiteForm(slug="coin-toss", title="Coin: a player's tosses", about="The coin's rule, toss by toss."),
    ),
)
