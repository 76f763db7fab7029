"""The website's words that are declared with what they describe rather than written in the website's
own code: the calculators' forms (their titles and sentences, ``Calculator.website``, and the
descriptions of their request models' fields, app/web/calculators.py) and the labels of the
tournament fields and conditions its page shows (``Shown`` in app/schemas/ and in the systems'
conditions models). Babel's
extractors only read source text, so ``babel.cfg`` runs ``extract`` here, which yields the words the
website takes from those declarations, as ``make messages`` and tests/web/test_website_languages.py
gather them into the catalogues."""

from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

from app.web.calculators import forms
from app.web.pages import TOURNAMENT_FACTS, condition_facts


def declared_words() -> list[str]:
    """Every word the website shows from a declaration, each once, in a stable order."""
    words = []
    for form in forms():
        words += [form.title, form.rule]
        for field in form.fields:
            words += [field.legend, field.label, field.hint, *(text for _, text in field.choices if text != "—")]
            words += [column.label for column in field.columns]
    words += [label for _, label in TOURNAMENT_FACTS] + [label for _, _, label in condition_facts()]
    return list(dict.fromkeys(word for word in words if word))


def extract(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extractor interface: the declared words, whatever the file it is run on holds."""
    for word in declared_words():
        yield 0, None, word, []
