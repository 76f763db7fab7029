"""Pure rule engines: one module per rating system, no I/O, no framework imports.

Each module cites the rule paragraph it implements (e.g. ``# RIF 1995 #8.b``) so a rating officer
can hold the code against the rule texts named in ``docs/rules.md`` (decisions: ``docs/decisions.md``).
"""
