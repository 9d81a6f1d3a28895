from enum import StrEnum


class MemoryPatchSourceType(StrEnum):
    AI_GENERATED = "ai_generated"
    API = "api"
    FILE = "file"
    INFERRED = "inferred"
    SYSTEM = "system"
    USER = "user"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
