from enum import StrEnum


class ConsolidateParamsMode(StrEnum):
    CLUSTER = "cluster"
    CREATIVE = "creative"
    DECAY = "decay"
    FORGET = "forget"
    FULL = "full"

    def __str__(self) -> str:
        return str(self.value)
