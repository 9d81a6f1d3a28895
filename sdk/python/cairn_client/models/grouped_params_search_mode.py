from enum import StrEnum


class GroupedParamsSearchMode(StrEnum):
    HYBRID = "hybrid"
    SEMANTIC = "semantic"

    def __str__(self) -> str:
        return str(self.value)
