from enum import StrEnum


class MemoryInputOnDuplicate(StrEnum):
    ERROR = "error"
    EXISTING = "existing"
    STORE = "store"

    def __str__(self) -> str:
        return str(self.value)
