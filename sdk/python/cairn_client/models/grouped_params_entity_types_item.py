from enum import StrEnum


class GroupedParamsEntityTypesItem(StrEnum):
    CONCEPT = "concept"
    FACT = "fact"
    LOCATION = "location"
    ORGANIZATION = "organization"
    PERSON = "person"
    PREFERENCE = "preference"
    PROJECT = "project"
    TOOL = "tool"

    def __str__(self) -> str:
        return str(self.value)
