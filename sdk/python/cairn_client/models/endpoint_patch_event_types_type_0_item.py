from enum import StrEnum


class EndpointPatchEventTypesType0Item(StrEnum):
    CONSOLIDATION_FINISHED = "consolidation.finished"
    IMPORT_FINISHED = "import.finished"
    JOB_FAILED = "job.failed"
    KEY_EXPIRING = "key.expiring"
    MEMORY_CREATED = "memory.created"
    MEMORY_DELETED = "memory.deleted"
    MEMORY_EMBEDDED = "memory.embedded"
    MEMORY_UPDATED = "memory.updated"
    QUOTA_REACHED = "quota.reached"

    def __str__(self) -> str:
        return str(self.value)
