"""The website: server-rendered pages over the same services as the API (issue 14)."""

from app.web.router import router

__all__ = ["router"]
