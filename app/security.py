"""Write access: ``Authorization: Bearer <key>`` checked against RATING_API_KEYS in constant time."""

import hmac

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.problems import Forbidden, Unauthorized
from app.settings import Settings, get_settings

bearer = HTTPBearer(auto_error=False, description="An API key from RATING_API_KEYS (name:secret pairs)")


def require_writer(
    credentials: HTTPAuthorizationCredentials | None = Depends(bearer),
    settings: Settings = Depends(get_settings),
) -> str:
    """The name of the key that authorised this write."""
    if credentials is None or credentials.scheme.lower() != "bearer" or not credentials.credentials:
        raise Unauthorized(
            "This operation needs an API key: send Authorization: Bearer <key>.",
            headers={"WWW-Authenticate": "Bearer"},
        )
    presented = credentials.credentials.encode()
    matched: str | None = None
    # Compare against every key, always, so the time taken does not reveal which prefix matched.
    for secret, name in settings.api_keys().items():
        if hmac.compare_digest(secret.encode(), presented):
            matched = name
    if matched is None:
        raise Forbidden("The API key is not valid for this service.")
    return matched
