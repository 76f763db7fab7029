"""A throwaway system, "coin", for tests/systems/test_throwaway_system.py: everything about it is in this
folder, as app/rating/system.py says a system is, and the test adds its one line to the registry."""
