"""What the tests of why a rating changed share (issue 22 item 4, issue 47 item 1): a small round robin of
Estonian players and a history with publications, a correction and a withdrawal, and the ratings and
parts of a change as the player's page shows them."""

import datetime as dt

from tests.helpers import AUTH, recompute_now, tournament_body

PLAYERS = [
    {"id": "p1", "name": "Ants", "surname": "Soosõrv", "country": "EST"},
    {"id": "p2", "name": "Ando", "surname": "Meritee", "country": "EST"},
    {"id": "p3", "name": "Tunnet", "surname": "Taimla", "country": "EST"},
    {"id": "p4", "name": "Yusui", "surname": "Nakamura", "country": "JPN"},
]
RESULTS = "BWDBWBBDWWBBWDBWBWBBDWWB"


def round_robin(tournament_id: str, start: str, players: list[dict] = PLAYERS, results: str = RESULTS) -> dict:
    """Each pair of players meets four times, on the tournament's three days."""
    ids = [p["id"] for p in players]
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    first = dt.date.fromisoformat(start)
    games = []
    for round_ in range(4):
        for k, (a, b) in enumerate(pairs):
            black, white = (a, b) if round_ % 2 == 0 else (b, a)
            games.append(
                {
                    "id": f"{tournament_id}-g{len(games)}",
                    "round": str(round_ + 1),
                    "black": black,
                    "white": white,
                    "result": results[(round_ * len(pairs) + k) % len(results)],
                    "date": str(first + dt.timedelta(days=min(round_, 2))),
                }
            )
    return tournament_body(tournament_id, start=start, end=str(first + dt.timedelta(days=2)), players=players, games=games)


OTHERS = [PLAYERS[0], PLAYERS[1], {"id": "q1", "name": "Olev"}, {"id": "q2", "name": "Mati"}]


def shown(value: float | None) -> str:
    """A rating as the pages show it (rounded half away from zero)."""
    if value is None:
        return ""
    return str(int(abs(value) + 0.5) * (1 if value >= 0 else -1))


def why_section(html: str, list_id: str) -> str:
    """The why-changed part of a list's section of a player's page."""
    start = html.index(f'<section class="why" id="why-{list_id}"')
    return html[start : html.index("</section>", start)]


def shown_difference(later: float | None, earlier: float | None) -> str:
    """A part of the change as the section shows it: the shown later rating minus the shown earlier."""
    if later is None or earlier is None:
        return ""
    value = int(shown(later)) - int(shown(earlier))
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def publish(client, day: str) -> int:  # type: ignore[no-untyped-def]
    answer = client.post("/v1/rating-lists/rif-whr/publications", json={"date": day, "title": f"List of {day}"}, headers=AUTH)
    assert answer.status_code == 201, answer.text
    return int(answer.json()["number"])


def submit(client, body: dict) -> None:  # type: ignore[no-untyped-def]
    assert client.post("/v1/tournaments", json=body, headers=AUTH).status_code == 201
    recompute_now(client)


def history_with_a_correction(client) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """T0 and T1, published; T1 corrected and T0 withdrawn; T2 added, published again."""
    submit(client, round_robin("T0", "2020-04-01", OTHERS))
    submit(client, round_robin("T1", "2020-05-01"))
    first = publish(client, "2020-06-01")
    assert (
        client.put("/v1/tournaments/T1", json=round_robin("T1", "2020-05-01", results=RESULTS[::-1]), headers=AUTH).status_code
        == 200
    )
    assert client.request("DELETE", "/v1/tournaments/T0", params={"reason": "entered twice"}, headers=AUTH).status_code == 200
    submit(client, round_robin("T2", "2021-03-01", PLAYERS[:3] + [{"id": "p5", "name": "Uus"}]))
    return first, publish(client, "2021-06-01")
