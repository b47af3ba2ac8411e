"""DoraemonGPT's sub-task tools: one SQL sub-agent per kind of sub-question.

Each class only names its sub-task; the questions, tables and examples are in
agents/prompts/sql/<name>.yaml and the loop is `SqlSubAgent`.
"""

from agents.tools.sql_subagent import SqlSubAgent, SubTask

__all__ = ["SUBTASK_TOOLS", "CountTool", "HowTool", "OtherTool", "WhatTool", "WhenTool", "WhyTool"]


class WhenTool(SqlSubAgent):
    subtask = SubTask.load("when")


class WhyTool(SqlSubAgent):
    subtask = SubTask.load("why")


class WhatTool(SqlSubAgent):
    subtask = SubTask.load("what")


class HowTool(SqlSubAgent):
    subtask = SubTask.load("how")


class CountTool(SqlSubAgent):
    subtask = SubTask.load("count")


class OtherTool(SqlSubAgent):
    subtask = SubTask.load("other")


SUBTASK_TOOLS: tuple[type[SqlSubAgent], ...] = (WhenTool, WhyTool, WhatTool, HowTool, CountTool, OtherTool)
