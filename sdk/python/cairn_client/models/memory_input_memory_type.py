from enum import StrEnum


class MemoryInputMemoryType(StrEnum):
    LONG_TERM = "long_term"
    SHORT_TERM = "short_term"

    def __str__(self) -> str:
        return str(self.value)
