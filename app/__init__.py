"""The renju rating service."""

from app import performance

# Before any module of the package imports NumPy (app/performance.py says why).
performance.before_numpy()
