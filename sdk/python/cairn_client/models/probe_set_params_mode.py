from enum import StrEnum


class ProbeSetParamsMode(StrEnum):
    ASSOCIATIVE = "associative"
    HYBRID = "hybrid"
    KEYWORD = "keyword"
    SEMANTIC = "semantic"

    def __str__(self) -> str:
        return str(self.value)
