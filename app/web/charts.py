"""A player's rating under one list drawn as inline SVG on the server: no script, no external file.

The chart follows what the list's points carry, never the system's name: points with a deviation
(WHR) are a continuous estimate, drawn as a line through the points inside a band of one deviation
either side; points without one (Elo, Olufsen, Rivne, …) hold from their date until the next, drawn
as steps. A point whose grade or rank (``title``) differs from the previous one is marked and
labelled with the new title. The SVG names itself (``<title>``, ``<desc>``) for screen readers."""

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from gettext import NullTranslations

from markupsafe import Markup, escape

from app.web.display import number, with_deviation

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 22, 30
PLOT_WIDTH, PLOT_HEIGHT = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
DOTS_AT_MOST = 80  # beyond this many points a dot per point only blurs the line
_NICE_STEPS = (1, 2, 2.5, 5)


@dataclass(frozen=True)
class ChartPoint:
    date: dt.date
    rating: float
    deviation: float | None = None
    title: str | None = None


@dataclass(frozen=True)
class TitleMark:
    date: dt.date
    title: str
    previous: str | None


def rating_chart(
    points: Sequence[ChartPoint],
    *,
    chart_id: str,
    subject: str,
    translations: NullTranslations | None = None,
    format_day: Callable[[dt.date], str] = dt.date.isoformat,
) -> Markup:
    """The chart of ``points`` (oldest first). ``subject`` names it ("Zha Shicheng, RIF rating");
    its description is in the language of ``translations``, its days as ``format_day`` writes them."""
    if not points:
        return Markup("")
    banded = any(p.deviation is not None for p in points)
    lows = [p.rating - (p.deviation or 0) for p in points]
    highs = [p.rating + (p.deviation or 0) for p in points]
    plot = _Plot.covering(points[0].date, points[-1].date, min(lows), max(highs))
    x, y, y_ticks = plot.x, plot.y, plot.y_ticks

    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    marks = title_marks(points)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{title_id} {desc_id}" focusable="false">',
        f'<title id="{title_id}" translate="no">{escape(subject)}</title>',
        f'<desc id="{desc_id}">{escape(describe(points, marks, banded, translations or NullTranslations(), format_day))}</desc>',
    ]
    parts += _grid(y_ticks, y, plot.first_day, plot.last_day, x)
    if banded:
        upper = [(x(p.date), y(p.rating + (p.deviation or 0))) for p in points]
        lower = [(x(p.date), y(p.rating - (p.deviation or 0))) for p in reversed(points)]
        parts.append(f'<polygon class="band" points="{_coords(upper + lower)}"/>')
        parts.append(f'<polyline class="line" points="{_coords([(x(p.date), y(p.rating)) for p in points])}"/>')
    else:
        path = [f"M{x(points[0].date):.1f},{y(points[0].rating):.1f}"]
        for point in points[1:]:
            path.append(f"H{x(point.date):.1f}V{y(point.rating):.1f}")
        parts.append(f'<path class="line" d="{"".join(path)}"/>')
    if len(points) <= DOTS_AT_MOST:
        # Each point named as a reader hovers it: its day and its rating, ± its deviation (issue 46 item 1).
        parts += [
            f'<circle class="dot" cx="{x(p.date):.1f}" cy="{y(p.rating):.1f}" r="3">'
            f"<title>{escape(format_day(p.date))}: {escape(shown_rating(p))}</title></circle>"
            for p in points
        ]
    by_date = {p.date: p for p in points}
    for mark in marks:
        cx, cy = x(mark.date), y(by_date[mark.date].rating)
        parts.append(f'<path class="mark" d="M{cx:.1f},{cy - 7:.1f}l6,7l-6,7l-6,-7z"/>')
        label_x = min(max(cx, LEFT + 12), WIDTH - RIGHT - 12)
        label_y = cy - 11 if cy - 11 > TOP + 4 else cy + 22
        parts.append(
            f'<text class="mark-label" x="{label_x:.1f}" y="{label_y:.1f}" text-anchor="middle">{escape(mark.title)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def title_marks(points: Sequence[ChartPoint]) -> list[TitleMark]:
    """Every point whose grade or rank differs from the previous point's."""
    marks = []
    for previous, point in zip(points, points[1:]):
        if point.title and point.title != previous.title:
            marks.append(TitleMark(point.date, point.title, previous.title))
    return marks


def describe(
    points: Sequence[ChartPoint],
    marks: Sequence[TitleMark],
    banded: bool,
    translations: NullTranslations,
    format_day: Callable[[dt.date], str] = dt.date.isoformat,
) -> str:
    """The chart in words: its span, its highest and lowest points and every title change."""
    gettext, ngettext = translations.gettext, translations.ngettext
    first, last = points[0], points[-1]
    best = max(points, key=lambda p: p.rating)
    worst = min(points, key=lambda p: p.rating)
    words = [
        ngettext(
            "%(num)d rating point from %(first)s (%(first_rating)s) to %(last)s (%(last_rating)s);",
            "%(num)d rating points from %(first)s (%(first_rating)s) to %(last)s (%(last_rating)s);",
            len(points),
        )
        % {
            "num": len(points),
            "first": format_day(first.date),
            "first_rating": shown_rating(first),
            "last": format_day(last.date),
            "last_rating": shown_rating(last),
        },
        gettext("highest %(best)s on %(best_day)s, lowest %(worst)s on %(worst_day)s.")
        % {
            "best": shown_rating(best),
            "best_day": format_day(best.date),
            "worst": shown_rating(worst),
            "worst_day": format_day(worst.date),
        },
    ]
    if banded:
        words.append(gettext("The shaded band is one deviation either side of the rating."))
    if first.title:
        words.append(gettext("Starts at %(title)s.") % {"title": first.title})
    for mark in marks:
        words.append(
            gettext("%(previous)s to %(title)s on %(day)s.")
            % {"previous": mark.previous or gettext("No title"), "title": mark.title, "day": format_day(mark.date)}
        )
    return " ".join(words)


def shown_rating(point: ChartPoint) -> str:
    return with_deviation(point.rating, point.deviation)


@dataclass(frozen=True)
class _Plot:
    """Where a day and a rating fall in the plot's area: the days of the points (a few weeks given room
    either side), the ratings between round ticks."""

    first_day: dt.date
    last_day: dt.date
    y_ticks: list[float]

    @classmethod
    def covering(cls, first: dt.date, last: dt.date, lowest: float, highest: float) -> "_Plot":
        if (last - first).days < 60:  # one tournament or a few weeks: give the points room
            first, last = first - dt.timedelta(days=45), last + dt.timedelta(days=45)
        return cls(first, last, _rating_ticks(lowest, highest))

    def x(self, day: dt.date) -> float:
        return LEFT + (day - self.first_day).days / (self.last_day - self.first_day).days * PLOT_WIDTH

    def y(self, rating: float) -> float:
        low, high = self.y_ticks[0], self.y_ticks[-1]
        return TOP + (high - rating) / (high - low) * PLOT_HEIGHT


def _rating_ticks(low: float, high: float) -> list[float]:
    """Four to eight round values covering [low, high], at least 50 apart in all."""
    if high - low < 50:
        middle = (high + low) / 2
        low, high = middle - 25, middle + 25
    raw = (high - low) / 5
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next((s * magnitude for s in _NICE_STEPS if s * magnitude >= raw), 10 * magnitude)
    start, stop = math.floor(low / step), math.ceil(high / step)
    return [i * step for i in range(start, stop + 1)]


def _date_ticks(first: dt.date, last: dt.date) -> list[tuple[dt.date, str]]:
    """Year starts over a long span (every 1, 2, 5 or 10 years), month starts over a short one; the
    two end dates when fewer than two such starts fall inside."""
    years = (last - first).days / 365.25
    if years >= 2:
        every = next(n for n in (1, 2, 5, 10, 20, 50) if years / n <= 8)
        ticks = [dt.date(year, 1, 1) for year in range(first.year + 1, last.year + 1) if year % every == 0]
        labelled = [(tick, str(tick.year)) for tick in ticks]
    else:
        months = max(1, round(years * 12))
        every = next(n for n in (1, 2, 3, 6, 12) if months / n <= 6)
        labelled = []
        year, month = first.year, first.month
        while True:
            month += 1
            if month > 12:
                year, month = year + 1, 1
            tick = dt.date(year, month, 1)
            if tick > last:
                break
            if (month - 1) % every == 0:
                labelled.append((tick, f"{year}-{month:02d}"))
    if len(labelled) < 2:
        labelled = [(first, first.isoformat()), (last, last.isoformat())]
    return labelled


def _grid(
    y_ticks: list[float], y: Callable[[float], float], first: dt.date, last: dt.date, x: Callable[[dt.date], float]
) -> list[str]:
    parts = ['<g class="grid">']
    for tick in y_ticks:
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>')
    parts.append("</g>")
    parts.append('<g class="axis">')
    for tick in y_ticks:
        parts.append(f'<text x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{number(tick)}</text>')
    for day, label in _date_ticks(first, last):
        tick_x = x(day)
        anchor = "start" if tick_x - LEFT < 30 else ("end" if WIDTH - RIGHT - tick_x < 30 else "middle")
        parts.append(f'<line x1="{tick_x:.1f}" x2="{tick_x:.1f}" y1="{TOP + PLOT_HEIGHT}" y2="{TOP + PLOT_HEIGHT + 5}"/>')
        parts.append(f'<text x="{tick_x:.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}">{escape(label)}</text>')
    parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + PLOT_HEIGHT}" y2="{TOP + PLOT_HEIGHT}"/>')
    parts.append("</g>")
    return parts


def _coords(pairs: list[tuple[float, float]]) -> str:
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in pairs)


@dataclass(frozen=True)
class DriftPoint:
    """One month of a list's drift (``app.schemas.drift.DriftMonth``): None where it had no active player."""

    date: dt.date
    mean: float | None
    median: float | None
    lower_quartile: float | None
    upper_quartile: float | None
    cohort_mean: float | None


def drift_chart(
    points: Sequence[DriftPoint],
    *,
    chart_id: str,
    subject: str,
    translations: NullTranslations | None = None,
    format_rating: Callable[[float], str] = number,
    format_day: Callable[[dt.date], str] = dt.date.isoformat,
) -> Markup:
    """A list's drift (issue 46 item 4) drawn as the player's chart is: the active players' mean (a
    line), their median (dashed) inside the band of their middle half (25th to 75th percentile), and
    the cohort's mean (dotted); a month without a value breaks its line."""
    shown = [p for p in points if p.mean is not None or p.cohort_mean is not None]
    if not shown:
        return Markup("")
    values = [v for p in shown for v in (p.mean, p.median, p.lower_quartile, p.upper_quartile, p.cohort_mean) if v is not None]
    plot = _Plot.covering(points[0].date, points[-1].date, min(values), max(values))
    x, y, y_ticks = plot.x, plot.y, plot.y_ticks

    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    words = describe_drift(points, translations or NullTranslations(), format_rating, format_day)
    parts = [
        f'<svg class="chart drift" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{title_id} {desc_id}" focusable="false">',
        f'<title id="{title_id}" translate="no">{escape(subject)}</title>',
        f'<desc id="{desc_id}">{escape(words)}</desc>',
    ]
    parts += _grid(y_ticks, y, plot.first_day, plot.last_day, x)
    for run in _runs(points, lambda p: p.lower_quartile is not None and p.upper_quartile is not None):
        upper = [(x(p.date), y(p.upper_quartile or 0.0)) for p in run]
        lower = [(x(p.date), y(p.lower_quartile or 0.0)) for p in reversed(run)]
        parts.append(f'<polygon class="band" points="{_coords(upper + lower)}"/>')
    for css, field_name in (("line", "mean"), ("line median", "median"), ("line cohort", "cohort_mean")):
        for run in _runs(points, partial(_has, field_name)):
            line = [(x(p.date), y(getattr(p, field_name))) for p in run]
            parts.append(f'<polyline class="{css}" points="{_coords(line)}"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def describe_drift(
    points: Sequence[DriftPoint],
    translations: NullTranslations,
    format_rating: Callable[[float], str] = number,
    format_day: Callable[[dt.date], str] = dt.date.isoformat,
) -> str:
    """The drift chart in words: its months, and the mean's and the cohort's first and last values."""
    gettext, ngettext = translations.gettext, translations.ngettext
    words = [
        ngettext("%(num)d month from %(first)s to %(last)s.", "%(num)d months from %(first)s to %(last)s.", len(points))
        % {"num": len(points), "first": format_day(points[0].date), "last": format_day(points[-1].date)}
    ]
    for label, field_name in (
        (gettext("The active players' mean rating went from %(first)s to %(last)s."), "mean"),
        (gettext("The cohort's mean rating went from %(first)s to %(last)s."), "cohort_mean"),
    ):
        known: list[float] = [getattr(p, field_name) for p in points if getattr(p, field_name) is not None]
        if known:
            words.append(label % {"first": format_rating(known[0]), "last": format_rating(known[-1])})
    return " ".join(words)


def _has(field_name: str, point: DriftPoint) -> bool:
    return getattr(point, field_name) is not None


def _runs(points: Sequence[DriftPoint], has: Callable[[DriftPoint], bool]) -> list[list[DriftPoint]]:
    """The runs of consecutive points that ``has`` a value (a single point is drawn as a run of one)."""
    runs: list[list[DriftPoint]] = []
    current: list[DriftPoint] = []
    for point in points:
        if has(point):
            current.append(point)
        elif current:
            runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round values covering [low, high], about ``count`` steps apart (a span of zero is widened)."""
    if high - low <= 0:
        spread = abs(high) * 0.05 or 0.5
        low, high = low - spread, high + spread
    raw = (high - low) / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next((s * magnitude for s in _NICE_STEPS if s * magnitude >= raw), 10 * magnitude)
    start, stop = math.floor(low / step + 1e-9), math.ceil(high / step - 1e-9)
    return [round(i * step, 12) for i in range(start, stop + 1)]


@dataclass(frozen=True)
class CalibrationPoint:
    """One bin of an evaluation's calibration (``app.schemas.evaluations.CalibrationBin``) with games."""

    low: float
    high: float
    games: int
    expected: float
    observed: float
    interval_low: float
    interval_high: float


CALIBRATION_SIZE = 340
CAL_LEFT, CAL_RIGHT, CAL_TOP, CAL_BOTTOM = 48, 12, 12, 40
CAL_PLOT = CALIBRATION_SIZE - CAL_LEFT - CAL_RIGHT  # square: the same scale both ways


def calibration_chart(
    points: Sequence[CalibrationPoint],
    *,
    chart_id: str,
    subject: str,
    translations: NullTranslations | None = None,
    format_share: Callable[[float], str] = lambda value: f"{value:.2f}",
    format_count: Callable[[int], str] = str,
) -> Markup:
    """Predicted against observed score (issue 45 item 4), both 0 to 1 on a square plot: the diagonal
    where a perfect forecast falls, each bin with games a dot at (its mean predicted score, its observed
    score), its area growing with its games, and its 95 % Wilson interval a vertical bar."""
    if not points:
        return Markup("")
    gettext, ngettext = (translations or NullTranslations()).gettext, (translations or NullTranslations()).ngettext

    def x(value: float) -> float:
        return CAL_LEFT + value * CAL_PLOT

    def y(value: float) -> float:
        return CAL_TOP + (1 - value) * CAL_PLOT

    most = max(p.games for p in points)
    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    words = describe_calibration(points, translations or NullTranslations(), format_share, format_count)
    parts = [
        f'<svg class="chart calibration" viewBox="0 0 {CALIBRATION_SIZE} {CALIBRATION_SIZE}" role="img" '
        f'aria-labelledby="{title_id} {desc_id}" focusable="false">',
        f'<title id="{title_id}" translate="no">{escape(subject)}</title>',
        f'<desc id="{desc_id}">{escape(words)}</desc>',
        '<g class="grid">',
    ]
    ticks = [i / 5 for i in range(6)]
    for tick in ticks:
        parts.append(f'<line x1="{CAL_LEFT}" x2="{x(1):.1f}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>')
        parts.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="{CAL_TOP}" y2="{y(0):.1f}"/>')
    parts.append("</g>")
    parts.append('<g class="axis">')
    for tick in ticks:
        label = escape(format_share(tick))
        parts.append(f'<text x="{CAL_LEFT - 5}" y="{y(tick) + 4:.1f}" text-anchor="end">{label}</text>')
        anchor = "start" if tick == 0 else ("end" if tick == 1 else "middle")
        parts.append(f'<text x="{x(tick):.1f}" y="{y(0) + 17:.1f}" text-anchor="{anchor}">{label}</text>')
    parts.append(f'<line x1="{CAL_LEFT}" x2="{x(1):.1f}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>')
    parts.append(f'<line x1="{CAL_LEFT}" x2="{CAL_LEFT}" y1="{CAL_TOP}" y2="{y(0):.1f}"/>')
    across = escape(gettext("Predicted score"))
    parts.append(f'<text x="{x(0.5):.1f}" y="{CALIBRATION_SIZE - 4}" text-anchor="middle">{across}</text>')
    parts.append("</g>")
    parts.append(f'<line class="diagonal" x1="{x(0):.1f}" y1="{y(0):.1f}" x2="{x(1):.1f}" y2="{y(1):.1f}"/>')
    for p in points:
        cx = x(p.expected)
        parts.append(
            f'<line class="interval" x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(p.interval_low):.1f}" y2="{y(p.interval_high):.1f}"/>'
        )
    for p in points:
        radius = 2.5 + 6.5 * math.sqrt(p.games / most)
        tip = ngettext(
            "%(low)s to %(high)s predicted: %(num)d game, %(expected)s expected, %(observed)s observed",
            "%(low)s to %(high)s predicted: %(num)d games, %(expected)s expected, %(observed)s observed",
            p.games,
        ) % {
            "num": p.games,
            "low": format_share(p.low),
            "high": format_share(p.high),
            "expected": format_share(p.expected),
            "observed": format_share(p.observed),
        }
        parts.append(
            f'<circle class="dot" cx="{x(p.expected):.1f}" cy="{y(p.observed):.1f}" r="{radius:.1f}"><title>{escape(tip)}</title></circle>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def describe_calibration(
    points: Sequence[CalibrationPoint],
    translations: NullTranslations,
    format_share: Callable[[float], str] = lambda value: f"{value:.2f}",
    format_count: Callable[[int], str] = str,
) -> str:
    """The calibration plot in words: how many bins, and the one farthest from the diagonal."""
    ngettext = translations.ngettext
    farthest = max(points, key=lambda p: abs(p.observed - p.expected))
    return " ".join(
        [
            ngettext(
                "%(num)d bin of predicted scores with games, against the score observed in them.",
                "%(num)d bins of predicted scores with games, against the score observed in them.",
                len(points),
            )
            % {"num": len(points)},
            ngettext(
                "Farthest from the diagonal: %(expected)s predicted, %(observed)s observed (%(num)d game).",
                "Farthest from the diagonal: %(expected)s predicted, %(observed)s observed (%(num)d games).",
                farthest.games,
            )
            % {
                "num": farthest.games,
                "expected": format_share(farthest.expected),
                "observed": format_share(farthest.observed),
            },
        ]
    )


SCORE_DIGITS = 3  # a mean log-likelihood's decimals, unless its ticks need more
SWEEP_LEFT = LEFT + 24  # room for a score's decimals, at a phone's font size too
SWEEP_WIDTH = WIDTH - SWEEP_LEFT - RIGHT


@dataclass(frozen=True)
class SweepValue:
    """One value of a swept parameter and the mean log-likelihood of the games with it."""

    value: float
    mean_log_likelihood: float


def sweep_chart(
    points: Sequence[SweepValue],
    *,
    current: float | None,
    best: float | None,
    interval: tuple[float, float] | None,
    chart_id: str,
    subject: str,
    translations: NullTranslations | None = None,
    format_value: Callable[[float], str] = lambda value: f"{value:g}",
    format_score: Callable[[float, int], str] = lambda value, digits: f"{value:.{digits}f}",
) -> Markup:
    """The mean log-likelihood against one parameter's values (issue 45 item 4): a line through the
    values tried, the likelihood-ratio interval shaded, the list's own value a dashed vertical line and
    the best value a diamond (each left out when the evaluation has none: a value that scored no game
    is no point of the line)."""
    if len(points) < 2:
        return Markup("")
    ordered = sorted(points, key=lambda p: p.value)
    span = [ordered[0].value, ordered[-1].value] + ([current] if current is not None else [])
    x_ticks = nice_ticks(min(span), max(span))
    y_ticks = nice_ticks(min(p.mean_log_likelihood for p in ordered), max(p.mean_log_likelihood for p in ordered), 4)
    x_low, x_high, y_low, y_high = x_ticks[0], x_ticks[-1], y_ticks[0], y_ticks[-1]
    # As many decimals as the ticks' step needs (the values tried often differ in the fourth).
    digits = max(SCORE_DIGITS, -math.floor(math.log10(y_ticks[1] - y_ticks[0]) + 1e-9))

    def x(value: float) -> float:
        return SWEEP_LEFT + (value - x_low) / (x_high - x_low) * SWEEP_WIDTH

    def y(value: float) -> float:
        return TOP + (y_high - value) / (y_high - y_low) * PLOT_HEIGHT

    title_id, desc_id = f"{chart_id}-title", f"{chart_id}-desc"
    words = describe_sweep(
        ordered, current, best, interval, translations or NullTranslations(), format_value, lambda v: format_score(v, digits)
    )
    parts = [
        f'<svg class="chart sweep" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="{title_id} {desc_id}" focusable="false">',
        f'<title id="{title_id}" translate="no">{escape(subject)}</title>',
        f'<desc id="{desc_id}">{escape(words)}</desc>',
    ]
    if interval is not None:
        band_width = max(x(interval[1]) - x(interval[0]), 2)
        parts.append(f'<rect class="band" x="{x(interval[0]):.1f}" y="{TOP}" width="{band_width:.1f}" height="{PLOT_HEIGHT}"/>')
    parts.append('<g class="grid">')
    for tick in y_ticks:
        parts.append(f'<line x1="{SWEEP_LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>')
    parts.append("</g>")
    parts.append('<g class="axis">')
    for tick in y_ticks:
        parts.append(
            f'<text x="{SWEEP_LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{escape(format_score(tick, digits))}</text>'
        )
    for tick in x_ticks:
        tick_x = x(tick)
        anchor = "start" if tick_x - SWEEP_LEFT < 30 else ("end" if WIDTH - RIGHT - tick_x < 30 else "middle")
        parts.append(f'<line x1="{tick_x:.1f}" x2="{tick_x:.1f}" y1="{TOP + PLOT_HEIGHT}" y2="{TOP + PLOT_HEIGHT + 5}"/>')
        parts.append(f'<text x="{tick_x:.1f}" y="{HEIGHT - 8}" text-anchor="{anchor}">{escape(format_value(tick))}</text>')
    parts.append(f'<line x1="{SWEEP_LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + PLOT_HEIGHT}" y2="{TOP + PLOT_HEIGHT}"/>')
    parts.append("</g>")
    if current is not None:
        parts.append(f'<line class="current" x1="{x(current):.1f}" x2="{x(current):.1f}" y1="{TOP}" y2="{TOP + PLOT_HEIGHT}"/>')
    parts.append(f'<polyline class="line" points="{_coords([(x(p.value), y(p.mean_log_likelihood)) for p in ordered])}"/>')
    for p in ordered:
        tip = f"{format_value(p.value)}: {format_score(p.mean_log_likelihood, digits)}"
        parts.append(
            f'<circle class="dot" cx="{x(p.value):.1f}" cy="{y(p.mean_log_likelihood):.1f}" r="3"><title>{escape(tip)}</title></circle>'
        )
    top = next((p for p in ordered if p.value == best), None)
    if top is not None:
        bx, by = x(top.value), y(top.mean_log_likelihood)
        parts.append(f'<path class="mark" d="M{bx:.1f},{by - 7:.1f}l6,7l-6,7l-6,-7z"/>')
    parts.append("</svg>")
    return Markup("".join(parts))


def describe_sweep(
    ordered: Sequence[SweepValue],
    current: float | None,
    best: float | None,
    interval: tuple[float, float] | None,
    translations: NullTranslations,
    format_value: Callable[[float], str],
    format_score: Callable[[float], str],
) -> str:
    """The parameter's curve in words: the values tried, the best with its score, the list's own value
    and the interval."""
    gettext, ngettext = translations.gettext, translations.ngettext
    words = [
        ngettext(
            "%(num)d value tried, from %(first)s to %(last)s.",
            "%(num)d values tried, from %(first)s to %(last)s.",
            len(ordered),
        )
        % {"num": len(ordered), "first": format_value(ordered[0].value), "last": format_value(ordered[-1].value)}
    ]
    top = next((p for p in ordered if p.value == best), None)
    if top is not None:
        words.append(
            gettext("The best, %(best)s, has a mean log-likelihood of %(score)s.")
            % {"best": format_value(top.value), "score": format_score(top.mean_log_likelihood)}
        )
    if current is not None:
        words.append(gettext("The list's own value is %(current)s.") % {"current": format_value(current)})
    if interval is not None:
        words.append(
            gettext("The values within the 95 %% interval run from %(low)s to %(high)s.")
            % {"low": format_value(interval[0]), "high": format_value(interval[1])}
        )
    return " ".join(words)
