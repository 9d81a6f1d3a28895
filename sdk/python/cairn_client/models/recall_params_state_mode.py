from enum import StrEnum


class RecallParamsStateMode(StrEnum):
    CURRENT = "current"
    HISTORY = "history"

    def __str__(self) -> str:
        return str(self.value)
