from enum import StrEnum


class EvalParamsMode(StrEnum):
    ASSOCIATIVE = "associative"
    HYBRID = "hybrid"
    KEYWORD = "keyword"
    SEMANTIC = "semantic"

    def __str__(self) -> str:
        return str(self.value)
