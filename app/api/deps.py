from typing import Annotated

from fastapi import Depends, Query
from sqlalchemy.orm import Session

from app.db import get_session
from app.schemas.common import MAX_PAGE_SIZE
from app.security import require_writer

SessionDep = Annotated[Session, Depends(get_session)]
Writer = Annotated[str, Depends(require_writer)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description=f"At most {MAX_PAGE_SIZE}")]
Offset = Annotated[int, Query(ge=0, le=2**63 - 1, description="Items to skip (a 64-bit integer, as the database takes)")]
