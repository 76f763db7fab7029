"""The recompute's machinery: jobs and their claiming, what a list rates, the snapshot's computation, its provenance, pruning and the stale mark (README in docs/design.md)."""
