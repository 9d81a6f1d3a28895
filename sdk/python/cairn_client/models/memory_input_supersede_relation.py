from enum import StrEnum


class MemoryInputSupersedeRelation(StrEnum):
    EVOLVED_INTO = "EVOLVED_INTO"
    INVALIDATED_BY = "INVALIDATED_BY"

    def __str__(self) -> str:
        return str(self.value)
