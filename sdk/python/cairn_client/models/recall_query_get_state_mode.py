from enum import StrEnum


class RecallQueryGetStateMode(StrEnum):
    CURRENT = "current"
    HISTORY = "history"

    def __str__(self) -> str:
        return str(self.value)
