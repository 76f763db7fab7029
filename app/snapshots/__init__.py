"""The column store: how a snapshot's points and changes are stored, read and kept per process (README.md)."""
