from enum import StrEnum


class AutomemRecallTagMatch(StrEnum):
    EXACT = "exact"
    PREFIX = "prefix"

    def __str__(self) -> str:
        return str(self.value)
