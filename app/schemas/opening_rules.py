"""The opening rules of renju and gomoku, by the names the service stores (docs/decisions.md 7.16).

A list's eligibility reads a tournament's rule (RIF 2021 #9.1: "one of the R.I.F. certified rules,
including the R.I.F. rule, the Yamaguchi rule, the Soosyrv-N rule, the Taraguchi-N rule, the
Yamasyrv-N rule, and the Sakata rule"; ERU 4.5: "RIF official rules"), so a rule is one of these
names, whatever case or spelling a file uses; anything else is refused at submission instead of
being stored and silently left unrated. ``-N`` names take the number of the rule's variant
(Soosyrv-8, Taraguchi-10). Go and shogi tournaments are rated whatever their rule, so their
``rule`` stays free text.
"""

import re

RENJU_RULES = ("RIF", "Yamaguchi", "Soosyrv-N", "Taraguchi-N", "Yamasyrv-N", "Sakata", "Tarannikov")
# "Gomoku" is the renju.net database's own name of its gomoku rule (rule id 2).
GOMOKU_RULES = ("Gomoku", "Freestyle", "Standard", "Swap1", "Swap2", "Pro", "Long Pro", "Caro", "Omok")
KNOWN_RULES = RENJU_RULES + GOMOKU_RULES
CATEGORIES_WITH_KNOWN_RULES = frozenset({"renju", "gomoku"})

# Spellings seen in tournament files and programs, by their key (see _key), for the stored name.
_ALIASES = {
    "renju": "RIF",
    "rifrule": "RIF",
    "rifrules": "RIF",
    "renjuinternationalfederation": "RIF",
    "gomokufree": "Freestyle",
    "freestylegomoku": "Freestyle",
    "free": "Freestyle",
    "standardgomoku": "Standard",
    "exactlyfive": "Standard",
    "swap": "Swap1",
    "longpro": "Long Pro",
}
# Soosõrv is the Estonian spelling the transliteration Soosyrv renders.
_NUMBERED = re.compile(r"^(soosyrv|soosorv|soosõrv|taraguchi|yamasyrv)(\d{1,2})$")
_NUMBERED_NAMES = {
    "soosyrv": "Soosyrv",
    "soosorv": "Soosyrv",
    "soosõrv": "Soosyrv",
    "taraguchi": "Taraguchi",
    "yamasyrv": "Yamasyrv",
}
_BY_KEY = {re.sub(r"[\s_.\-]+", "", name.lower()): name for name in KNOWN_RULES if not name.endswith("-N")}


def canonical_rule(written: str) -> str:
    """The stored name of the rule written this way; ValueError naming every known rule otherwise."""
    key = _key(written)
    numbered = _NUMBERED.match(key)
    if numbered:
        return f"{_NUMBERED_NAMES[numbered.group(1)]}-{int(numbered.group(2))}"
    name = _BY_KEY.get(key) or _ALIASES.get(key)
    if name is None:
        raise ValueError(
            f"unknown opening rule {written!r}; known: {', '.join(KNOWN_RULES)} "
            "(case and spacing free; -N is the variant's number, e.g. Soosyrv-8)"
        )
    return name


def rule_family(rule: str) -> str:
    """The name a list's certified rules give the rule: Soosyrv-8 is a Soosyrv-N rule."""
    return re.sub(r"-\d+$", "-N", rule)


def _key(written: str) -> str:
    return re.sub(r"[\s_.\-]+", "", written.strip().lower())
