from enum import StrEnum


class RecallQueryGetTagMatch(StrEnum):
    EXACT = "exact"
    PREFIX = "prefix"

    def __str__(self) -> str:
        return str(self.value)
