"""What the API (``app.api``) and the website (``app.web``) share of HTTP: cache lifetimes, ETags and
If-None-Match (``caching``), answers kept as the bytes sent (``response_cache``), the request's
database session (``session``) and the security headers of every answer (``security_headers``). The two front ends stand side by side: both import this package,
neither imports the other (tests/project/test_layers.py checks it)."""
