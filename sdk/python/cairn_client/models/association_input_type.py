from enum import StrEnum


class AssociationInputType(StrEnum):
    CONTRADICTS = "CONTRADICTS"
    DERIVED_FROM = "DERIVED_FROM"
    EVOLVED_INTO = "EVOLVED_INTO"
    EXEMPLIFIES = "EXEMPLIFIES"
    INVALIDATED_BY = "INVALIDATED_BY"
    LEADS_TO = "LEADS_TO"
    OCCURRED_BEFORE = "OCCURRED_BEFORE"
    PART_OF = "PART_OF"
    PREFERS_OVER = "PREFERS_OVER"
    REINFORCES = "REINFORCES"
    RELATES_TO = "RELATES_TO"

    def __str__(self) -> str:
        return str(self.value)
