"""Content negotiation headers (RFC 9110 12.4.2, 12.5.1, 12.5.4): a list of values, each with an
optional quality weight ``;q=``. Shared by the website's choice of language (``Accept-Language``)
and of HTML or JSON for an error (``Accept``)."""


def weighted_values(header: str | None) -> list[tuple[str, float]]:
    """Each value of the header with its quality, in the header's order: 1 when no ``q`` is given, 0
    when it is not a number (such a value is not wanted)."""
    weighted = []
    for item in (header or "").split(","):
        value, *parameters = (part.strip() for part in item.split(";"))
        quality = 1.0
        for parameter in parameters:
            name, _, given = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(given)
                except ValueError:
                    quality = 0.0
        weighted.append((value, quality))
    return weighted
