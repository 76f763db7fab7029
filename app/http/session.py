"""The request's database session, as an endpoint of the API or the website declares it."""

from typing import Annotated

from fastapi import Depends
from sqlalchemy.orm import Session

from app.db import get_session

# scope="function": the session's exit code (the commit) runs when the endpoint returns, BEFORE the
# response is sent, so a 2xx means the transaction committed; a failed commit becomes a problem
# response instead (FastAPI's default "request" scope would commit after the response).
SessionDep = Annotated[Session, Depends(get_session, scope="function")]
