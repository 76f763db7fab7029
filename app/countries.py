"""One country standard: every stored country is the three-letter code the renju world and the IOC use
(EST, CHN, TPE, GER). What files and clients send is mapped to it on the way in (docs/decisions.md
7.52): an IOC code as it is; an ISO 3166-1 two-letter code (Go files: ``FR``) or three-letter code
(``DEU``) through the ISO table of ``pycountry`` and, where the IOC's code differs from ISO's, the
explicit table below; a country's English or Chinese name (the renju WHR site's directory: ``Chinese
Taipei``, ``中国台湾``) likewise. Anything else is unknown (``None``): a 422 on submission, a counted
reason in an import report."""

import functools
import gettext
import unicodedata

import pycountry

__all__ = ["ACCEPTED_CODES", "IOC_CODES", "country_code"]

# ISO 3166-1 alpha-3 -> IOC, for every country whose IOC code differs from its ISO one.
ISO_TO_IOC = {
    "ABW": "ARU", "AGO": "ANG", "ARE": "UAE", "ASM": "ASA", "ATG": "ANT", "BGD": "BAN", "BGR": "BUL",
    "BFA": "BUR", "BHR": "BRN", "BHS": "BAH", "BLZ": "BIZ", "BMU": "BER", "BRB": "BAR", "BRN": "BRU",
    "BTN": "BHU", "BWA": "BOT", "CHE": "SUI", "CHL": "CHI", "COG": "CGO", "CRI": "CRC", "CYM": "CAY",
    "DEU": "GER", "DNK": "DEN", "DZA": "ALG", "FJI": "FIJ", "GMB": "GAM", "GNB": "GBS", "GNQ": "GEQ",
    "GRC": "GRE", "GRD": "GRN", "GTM": "GUA", "GIN": "GUI", "HND": "HON", "HRV": "CRO", "HTI": "HAI",
    "IDN": "INA", "IRN": "IRI", "KHM": "CAM", "KNA": "SKN", "KWT": "KUW", "LBN": "LIB", "LBY": "LBA",
    "LKA": "SRI", "LSO": "LES", "LVA": "LAT", "MCO": "MON", "MDG": "MAD", "MMR": "MYA", "MNG": "MGL",
    "MRT": "MTN", "MUS": "MRI", "MWI": "MAW", "MYS": "MAS", "NER": "NIG", "NGA": "NGR", "NIC": "NCA",
    "NLD": "NED", "NPL": "NEP", "OMN": "OMA", "PHL": "PHI", "PRI": "PUR", "PRT": "POR", "PRY": "PAR",
    "PSE": "PLE", "SAU": "KSA", "SDN": "SUD", "SLB": "SOL", "SLV": "ESA", "SVN": "SLO", "SYC": "SEY",
    "TCD": "CHA", "TGO": "TOG", "TON": "TGA", "TWN": "TPE", "TZA": "TAN", "URY": "URU", "VCT": "VIN",
    "VGB": "IVB", "VIR": "ISV", "VNM": "VIE", "VUT": "VAN", "WSM": "SAM", "ZAF": "RSA", "ZMB": "ZAM",
    "ZWE": "ZIM",
}  # fmt: skip
# Names the ISO tables spell otherwise, as the renju directory and Go files write them.
NAME_ALIASES = {
    "usa": "USA", "south korea": "KOR", "korea": "KOR", "north korea": "PRK", "russia": "RUS",
    "chinese taipei": "TPE", "taiwan": "TPE", "macao, china": "MAC", "macau": "MAC", "hong kong, china": "HKG",
    "czech republic": "CZE", "vietnam": "VIE", "moldova": "MDA", "turkey": "TUR", "great britain": "GBR",
    "uk": "GBR", "england": "GBR", "iran": "IRI", "syria": "SYR", "laos": "LAO", "bolivia": "BOL",
    "venezuela": "VEN", "tanzania": "TAN",
    "韩国": "KOR", "南韩": "KOR", "朝鲜": "PRK", "中国台湾": "TPE", "台湾": "TPE", "中华台北": "TPE",
    "中国澳门": "MAC", "中国香港": "HKG", "美国": "USA", "英国": "GBR", "捷克": "CZE", "摩尔多瓦": "MDA",
    "俄罗斯": "RUS", "越南": "VIE",
}  # fmt: skip
# Codes that are not ISO countries but that the IOC and the renju world use.
EXTRA_IOC_CODES = {"KOS": "Kosovo"}


def country_code(value: str | None) -> str | None:
    """The IOC code of a code or name, or None when it is none the tables know (or empty)."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    if text.isascii() and text.isalpha() and len(text) in (2, 3) and text.upper() == text:
        return _codes().get(text)
    return _names().get(_folded(text))


@functools.cache
def _codes() -> dict[str, str]:
    """Every accepted code -> IOC code: IOC codes themselves first (an IOC code that is another
    country's ISO alpha-3, MON, is the IOC's: Monaco), then ISO alpha-2 and alpha-3."""
    codes: dict[str, str] = {}
    for country in pycountry.countries:
        ioc = ISO_TO_IOC.get(country.alpha_3, country.alpha_3)
        codes.setdefault(country.alpha_2, ioc)
    for country in pycountry.countries:
        codes.setdefault(country.alpha_3, ISO_TO_IOC.get(country.alpha_3, country.alpha_3))
    for ioc in {*ISO_TO_IOC.values(), *EXTRA_IOC_CODES}:
        codes[ioc] = ioc
    codes["UK"] = "GBR"  # the EGD writes UK for the United Kingdom
    return codes


@functools.cache
def _names() -> dict[str, str]:
    chinese = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["zh_CN"], fallback=True)
    names: dict[str, str] = {}
    for country in pycountry.countries:
        ioc = ISO_TO_IOC.get(country.alpha_3, country.alpha_3)
        for attribute in ("name", "official_name", "common_name"):
            name = getattr(country, attribute, None)
            if name:
                names.setdefault(_folded(name), ioc)
                names.setdefault(_folded(chinese.gettext(name)), ioc)
    names.update({_folded(alias): code for alias, code in NAME_ALIASES.items()})
    names.update({_folded(name): code for code, name in EXTRA_IOC_CODES.items()})
    return names


def _folded(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


IOC_CODES: frozenset[str] = frozenset(_codes().values())
# What a client may send where a country code is asked for: IOC codes and ISO two- and three-letter codes.
ACCEPTED_CODES: tuple[str, ...] = tuple(sorted(_codes()))
