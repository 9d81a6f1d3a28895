from enum import StrEnum


class EndpointPatchEventTypesType0Item(StrEnum):
    CONSOLIDATION_FINISHED = "consolidation.finished"
    IMPORT_FINISHED = "import.finished"
    MEMORY_CREATED = "memory.created"
    MEMORY_DELETED = "memory.deleted"
    MEMORY_EMBEDDED = "memory.embedded"
    MEMORY_UPDATED = "memory.updated"

    def __str__(self) -> str:
        return str(self.value)
