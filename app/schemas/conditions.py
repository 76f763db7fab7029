"""A tournament's conditions: what a rating system's rules ask of a tournament beyond the fields every
system reads, one document per system under the system's id (docs/decisions.md 112). Each document
is declared and validated by the system's own model (``RatingSystem.conditions_model``, in its
folder); the registry is read when a tournament is validated and when the contract is drawn, not
when this module is imported, so that a system a test registers is known as well.

A submission's documents are stored as what differs from their models' defaults (nothing for a
document of defaults alone), so that the same conditions are always stored alike; every read gives
every system's document whole, its defaults filled in. The fields of a system declared
``flat_conditions`` are also taken at the tournament's top level and read back there, where the
contract had them before they moved into the documents (the Estonian ones).
"""

from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, GetJsonSchemaHandler, ValidationError, create_model
from pydantic.fields import FieldInfo
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, InitErrorDetails, PydanticCustomError

from app.rating.registry import systems
from app.rating.system import RatingSystem

CONDITIONS_DESCRIPTION = (
    "What each rating system asks of the tournament beyond the fields every system reads, one document per "
    "system, under its id; validated by the system's own rules"
)


def conditioned_systems() -> list[RatingSystem[Any, Any]]:
    """The registered systems whose rules ask something of a tournament, in registry order."""
    return [system for system in systems() if system.conditions_model is not None]


def stored_documents(given: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """A submission's documents, each validated by its system's model (a 422 at
    `/conditions/{system}/…`; a system that has none, or none registered, at `/conditions/{system}`),
    as they are stored: what differs from the defaults."""
    checked = _documents(whole=False).model_validate(given)
    stored = {}
    for system_id in given:
        document = getattr(checked, _field_name(system_id)).model_dump(mode="json", exclude_defaults=True)
        if document:
            stored[system_id] = document
    return stored


def whole_documents(stored: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Every registered system's document as a read gives it: the stored one with its defaults."""
    return {system.id: system.conditions((stored or {}).get(system.id)) for system in conditioned_systems()}


def _field_name(system_id: str) -> str:
    """The documents model's field of a system (its id is the JSON name: ids hold dashes)."""
    return "system_" + system_id.replace("-", "_")


def _documents(*, whole: bool) -> type[BaseModel]:
    declared = tuple(
        (system.id, system.conditions_model, system.description)
        for system in conditioned_systems()
        if system.conditions_model is not None
    )
    return _documents_model(declared, whole)


@cache
def _documents_model(declared: tuple[tuple[str, type[BaseModel], str], ...], whole: bool) -> type[BaseModel]:
    """The documents as one model, a field per system: the submission's (each document may be left
    out) or the read's (each is there, whole)."""
    fields: dict[str, Any] = {}
    for system_id, model, description in declared:
        about = f"{description or system_id}: what it asks of the tournament"
        if whole:
            fields[_field_name(system_id)] = (model, Field(alias=system_id, description=about))
        else:
            fields[_field_name(system_id)] = (model, Field(default_factory=model, alias=system_id, description=about))
    name = "TournamentConditionsRead" if whole else "TournamentConditions"
    documents: type[BaseModel] = create_model(name, __config__=ConfigDict(extra="forbid"), **fields)
    return documents


class _DocumentsSchema:
    """The documents' place in the contract: an object with a property per registered system, each
    the system's own model, drawn from the registry when the contract is."""

    def __init__(self, *, whole: bool) -> None:
        self.whole = whole

    def __get_pydantic_json_schema__(self, core_schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        schema: JsonSchemaValue = handler(_documents(whole=self.whole).__pydantic_core_schema__)
        schema.pop("title", None)
        return schema


# A submission's ``conditions``, as stored (``stored_documents``).
SubmittedConditions = Annotated[dict[str, dict[str, Any]], AfterValidator(stored_documents), _DocumentsSchema(whole=False)]
# A read's ``conditions``: every system's document whole (``whole_documents``).
ReadConditions = Annotated[dict[str, dict[str, Any]], _DocumentsSchema(whole=True)]


# --- the fields taken at the tournament's top level too --------------------------------------------


def flat_condition_fields() -> dict[str, tuple[Any, FieldInfo]]:
    """The documents' fields of the systems declared ``flat_conditions`` as fields of the tournament
    itself, for ``create_model``: their types, checks, defaults and descriptions, marked deprecated
    in the contract (the documents are where they are given now). Read when the tournaments'
    schemas are built, from the systems registered then."""
    fields: dict[str, tuple[Any, FieldInfo]] = {}
    for system in conditioned_systems():
        if not system.flat_conditions or system.conditions_model is None:
            continue
        for name, field in system.conditions_model.model_fields.items():
            if name in fields:
                raise ValueError(f"two systems take the tournament's field {name!r} flat")
            described = FieldInfo.merge_field_infos(
                field,
                description=f"{field.description}. The same as `conditions.{system.id}.{name}`, where it is given "
                "now; taken and read here too, as before the conditions moved there (given in both, the two agree)",
                json_schema_extra={"deprecated": True},
            )
            fields[name] = (field.annotation, described)
    return fields


def flat_condition_systems() -> dict[str, str]:
    """Each field taken flat (``flat_condition_fields``) and the system whose document it belongs to."""
    return {
        name: system.id
        for system in conditioned_systems()
        if system.flat_conditions and system.conditions_model is not None
        for name in system.conditions_model.model_fields
    }


def with_flat_conditions(documents: Mapping[str, dict[str, Any]], given: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The stored documents with the conditions given at the top level joined to their system's;
    a field given both ways with two values is a 422 at the top-level one."""
    owner = flat_condition_systems()
    joined = {system_id: dict(document) for system_id, document in documents.items()}
    clashes = []
    for name, value in given.items():
        document = joined.setdefault(owner[name], {})
        if name in document and document[name] != value:
            clashes.append(
                InitErrorDetails(
                    type=PydanticCustomError(
                        "conditions_clash",
                        "given here and in conditions.{system}.{name} with another value",
                        {"system": owner[name], "name": name},
                    ),
                    loc=(name,),
                    input=value,
                )
            )
        document[name] = value
    if clashes:
        raise ValidationError.from_exception_data("TournamentIn", clashes)
    return stored_documents(joined)


def flat_values(documents: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """The fields taken flat as the whole documents (``whole_documents``) give them."""
    return {name: documents[system_id][name] for name, system_id in flat_condition_systems().items()}
