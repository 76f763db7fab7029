"""Pure rule engines: one module (or package) per rating system, no I/O, no framework imports.

``system`` is what every system is to the service (the values a recompute hands it and gets back,
the ``RatingSystem`` record), ``registry`` the systems by id; ``whr`` / ``whr_list`` and
``rif_elo`` / ``rif_elo_list`` are the engines and their lists. Each module cites the rule
paragraph it implements (e.g. ``# RIF 1995 #8.b``) so a rating officer can hold the code against
the rule texts named in ``docs/rules.md`` (decisions: ``docs/decisions.md``).
"""
