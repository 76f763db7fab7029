"""The rating systems: a folder per system, everything about it in one place, and what they share.

Each system's folder (``eru``, ``olufsen``, ``rivne``, ``rif_elo``, ``whr``) holds its rules (pure,
cited, no I/O), its stored list (``rating_list``), its calculators (``calculator_models``,
``calculator``, ``calculator_examples``) and a README.md naming its rule text (docs/rules.md) and the
decisions it follows (docs/decisions.md); ``eru/`` is the worked example. A rating officer who knows
only one text finds all of it in that folder.

What they share: ``system`` (what every system is to the service: the values a recompute hands it
and gets back, the ``RatingSystem`` record, and how to add a system), ``registry`` (the systems by
id), ``tournament_replay`` (the one replay loop of the lists whose ratings change at tournaments),
``calculators`` (how a calculator declares its endpoints, the one envelope check of a calculated
tournament), ``rounding`` and ``examples`` (the real tournament the examples are drawn from). Each
rules module cites the rule paragraph it implements (e.g. ``# RIF 1995 #8.b``) so a rating officer
can hold the code against the rule texts.
"""
