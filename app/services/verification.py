"""Reproducing a publication: ``python -m app.cli verify LIST PUBLICATION``.

The publication's snapshot is computed again from the data stored now, with what the snapshot
records it was computed with (its system, parameters, eligibility, list date and the tournaments
it read: one stored later is left out, one corrected or withdrawn since is read as it is now; from a
cold start, not the warm start of the recompute that wrote it), read as of the publication's day as publishing
reads it, and compared player by player with the publication's stored rows. The inputs' digest
(``app.recompute.provenance``) says whether the stored data the snapshot read has changed since.
WHR converges to 1e-6 Elo from any start, so ratings within ``TOLERANCE`` are the same number."""

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.models import Publication, PublicationEntry, RatingList, RatingSnapshot
from app.rating.registry import get_system
from app.recompute import compute
from app.services import publications
from app.services.rating_lists import get_rating_list
from app.snapshots import timelines
from app.version import VERSION

TOLERANCE = 1e-3


@dataclass(frozen=True)
class Difference:
    player_id: str
    published: float | None  # None: not on the publication
    recomputed: float | None  # None: not on the recomputed list


@dataclass(frozen=True)
class Verification:
    publication: Publication
    snapshot: RatingSnapshot
    players: int
    differences: list[Difference]
    digest_then: str | None
    digest_now: str
    counts_then: tuple[int, int, int | None]  # tournaments, games, seeds
    counts_now: tuple[int, int, int]

    @property
    def identical(self) -> bool:
        return not self.differences

    @property
    def inputs_changed(self) -> bool | None:
        return None if self.digest_then is None else self.digest_then != self.digest_now


def verify(session: Session, list_id: str, number: int, tolerance: float = TOLERANCE) -> Verification:
    rating_list = get_rating_list(session, list_id)
    publication = publications.get_publication(session, list_id, number)
    snapshot = session.get(RatingSnapshot, publication.snapshot_id)
    assert snapshot is not None  # a foreign key keeps it
    # The list as the snapshot was computed: not added to the session, never written.
    stand_in = RatingList(
        id=list_id,
        name=rating_list.name,
        system=snapshot.system or rating_list.system,
        category=rating_list.category,
        params=dict(snapshot.params or {}),
        eligibility=dict(snapshot.eligibility if snapshot.eligibility is not None else rating_list.eligibility or {}),
        current_snapshot_id=None,
        input_changes=rating_list.input_changes,
    )
    # The tournaments it read (those stored later are left out; a withdrawn one is not eligible now).
    only = snapshot.input_tournaments
    data = compute.compute_snapshot(session, stand_in, snapshot.list_date, lambda _: None, only, from_rows=True)
    system = get_system(stand_in.system)
    rows = publications.rows_from_timeline(
        session, timelines.timeline_from_archive(session, data.points), system, data.params, publication.date
    )
    recomputed = {row["player_id"]: row["rating"] for row in rows}
    published = dict(
        session.execute(
            select(PublicationEntry.player_id, PublicationEntry.rating).where(PublicationEntry.publication_id == publication.id)
        ).all()
    )
    differences = []
    for player_id in sorted(published.keys() | recomputed.keys()):
        before, after = published.get(player_id), recomputed.get(player_id)
        if before is None or after is None or abs(after - before) > tolerance:
            differences.append(Difference(player_id, before, after))
    return Verification(
        publication=publication,
        snapshot=snapshot,
        players=len(published),
        differences=differences,
        digest_then=snapshot.inputs_digest,
        digest_now=data.inputs_digest or "",
        counts_then=(snapshot.tournaments, snapshot.games, snapshot.seeds),
        counts_now=(data.tournaments, data.games, data.seeds),
    )


def report(result: Verification, tolerance: float = TOLERANCE) -> list[str]:
    """The verification in lines of text, as the command prints it."""
    publication, snapshot = result.publication, result.snapshot
    lines = [
        f"Publication {publication.number} of {publication.list_id} ({publication.title!r}, as of {publication.date}), "
        f"snapshot {snapshot.id} of {snapshot.list_date} ({snapshot.system or 'system not recorded'}, "
        f"computed by service {snapshot.service_version or 'of a version not recorded'}), computed again by service"
        f" {VERSION} from the stored data:"
    ]
    if result.identical:
        lines.append(f"identical: the same {result.players} players with the same ratings (within {tolerance:g})")
    else:
        lines.append(f"differs for {len(result.differences)} of {result.players} players:")
        for d in result.differences:
            if d.published is None:
                lines.append(f"  {d.player_id}: not published, recomputed {d.recomputed:g}")
            elif d.recomputed is None:
                lines.append(f"  {d.player_id}: published {d.published:g}, not on the recomputed list")
            else:
                lines.append(
                    f"  {d.player_id}: published {d.published:g}, recomputed {d.recomputed:g} ({d.recomputed - d.published:+g})"
                )
    tournaments, games, seeds = result.counts_then
    now_t, now_g, now_s = result.counts_now
    counts = f"tournaments {tournaments} → {now_t}, games {games} → {now_g}, seeds {seeds} → {now_s}"
    if result.inputs_changed is None:
        lines.append(
            f"inputs: the snapshot records no digest (written before it was recorded); now {result.digest_now}; {counts}"
        )
    elif result.inputs_changed:
        lines.append(f"inputs: changed since (digest {result.digest_then} then, {result.digest_now} now); {counts}")
    else:
        lines.append(f"inputs: unchanged (digest {result.digest_now}); {counts}")
    return lines
