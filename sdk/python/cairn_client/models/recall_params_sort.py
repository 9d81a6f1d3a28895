from enum import StrEnum


class RecallParamsSort(StrEnum):
    SCORE = "score"
    TIME_ASC = "time_asc"
    TIME_DESC = "time_desc"

    def __str__(self) -> str:
        return str(self.value)
