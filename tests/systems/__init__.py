"""Throwaway rating systems: folders shaped as app/rating/<system>/ is, registered by the tests alone."""
