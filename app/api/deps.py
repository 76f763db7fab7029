from typing import Annotated

from fastapi import Depends, Path, Query
from sqlalchemy.orm import Session

from app.db import get_session
from app.schemas.common import MAX_DATABASE_ID, MAX_OFFSET, MAX_PAGE_SIZE, Identifier
from app.security import require_writer

# scope="function": the session's exit code (the commit) runs when the endpoint returns, BEFORE the
# response is sent, so a 2xx means the transaction committed; a failed commit becomes a problem
# response instead (FastAPI's default "request" scope would commit after the response).
SessionDep = Annotated[Session, Depends(get_session, scope="function")]
Writer = Annotated[str, Depends(require_writer)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description=f"At most {MAX_PAGE_SIZE}")]
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description="Items to skip")]
# Integer ids in paths and queries fit the database's 32-bit keys, so a larger one is a 422, not a
# database error; string ids in paths follow the submitted ids' own pattern.
DatabaseId = Annotated[int, Path(ge=1, le=MAX_DATABASE_ID)]
OptionalDatabaseId = Annotated[int | None, Query(ge=1, le=MAX_DATABASE_ID)]
IdentifierPath = Annotated[Identifier, Path()]
