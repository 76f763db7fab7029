"""The security headers every answer carries (what the OWASP secure headers project expects of a public
site): the API's data, the website's pages, the documentation pages and every error, the 404 of an
unknown path and the answers made before routing (413, 415, 400, 304) included. They are added by
``SecurityHeadersMiddleware`` (app/middleware.py) to whatever answer lacks them.

Each answer's Content-Security-Policy fits what it is. The website's pages load one stylesheet and
inline SVG (``PAGE_POLICY``, set by app/web/router.py); the documentation pages run Swagger UI's and
ReDoc's scripts from this site (``documentation_policy``, set by app/contract.py); everything else
(JSON, problem+json, CSV, the metrics) is data, which loads nothing and is never framed
(``DATA_POLICY``)."""

from __future__ import annotations

import base64
import hashlib
import re

__all__ = ["DATA_POLICY", "PAGE_POLICY", "SECURITY_HEADERS", "documentation_policy"]

# What the templates load: the one stylesheet from this site, inline SVG charts (no style attributes),
# the favicon as a data: URL, forms posting nowhere but here; no script, frame, font or connection.
PAGE_POLICY = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
DATA_POLICY = "default-src 'none'; frame-ancestors 'none'"
# Raw ASGI headers, as the middleware adds them: the policy first, so that an answer that set its own
# (a page) is told apart by its name.
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", DATA_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"strict-origin-when-cross-origin"),
)
_INLINE = re.compile(rb"<(script|style)>(.*?)</\1>", re.DOTALL)


def documentation_policy(page: bytes, *, styles_made_by_its_script: bool = False) -> str:
    """The policy of a documentation page (Swagger UI, ReDoc, the OAuth2 redirect): its scripts and
    styles from this site and its own inline ones by their SHA-256 (CSP Level 2 hashes; nothing else
    inline runs), the contract fetched from here, the images of the scripts' stylesheets as data:
    URLs, ReDoc's search in a worker it starts from a blob: URL, and no frame around it. ReDoc writes
    its styles into the page as it renders (``styles_made_by_its_script``): they cannot be known by
    a hash, so inline styles are allowed there (styles, never scripts)."""
    inline: dict[bytes, list[str]] = {b"script": [], b"style": []}
    for tag, content in _INLINE.findall(page):
        inline[tag].append(f"'sha256-{base64.b64encode(hashlib.sha256(content).digest()).decode()}'")
    scripts = " ".join(["'self'", *inline[b"script"]])
    # (A hash would switch 'unsafe-inline' off: CSP Level 2 browsers ignore it beside one.)
    styles = "'self' 'unsafe-inline'" if styles_made_by_its_script else " ".join(["'self'", *inline[b"style"]])
    return (
        f"default-src 'none'; script-src {scripts}; style-src {styles}; img-src 'self' data:; connect-src 'self'; "
        "worker-src blob:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
