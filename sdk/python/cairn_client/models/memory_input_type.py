from enum import StrEnum


class MemoryInputType(StrEnum):
    CODEEDIT = "CodeEdit"
    COMMAND = "Command"
    CONTEXT = "Context"
    CONVERSATION = "Conversation"
    DECISION = "Decision"
    DISCOVERY = "Discovery"
    ERROR = "Error"
    FILEACCESS = "FileAccess"
    HABIT = "Habit"
    INSIGHT = "Insight"
    LEARNING = "Learning"
    OBSERVATION = "Observation"
    PATTERN = "Pattern"
    PREFERENCE = "Preference"
    SEARCH = "Search"
    STYLE = "Style"
    TASK = "Task"

    def __str__(self) -> str:
        return str(self.value)
