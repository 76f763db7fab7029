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
