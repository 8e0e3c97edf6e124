"""ReAct's step: a thought and an action (search or finish) on the trajectory so far, whose observations are the
paragraphs each search returned."""

from __future__ import annotations

import dspy


class ThoughtAction(dspy.Signature):
    """Answer the question by thinking and searching, one step at a time. Write a thought about what the
    observations so far establish and what is still missing, then one action: Search[a query for the missing
    fact] to read paragraphs about it, or Finish[the answer] once the observations answer the question."""

    question: str = dspy.InputField()
    trajectory: str = dspy.InputField(desc="the thoughts, actions and observations so far")
    thought: str = dspy.OutputField()
    action: str = dspy.OutputField(desc="Search[query] or Finish[answer]")


class FinishFromTrajectory(dspy.Signature):
    """The searches have run out. Answer the question from the observations in the trajectory. Reply with the
    answer alone: a name, a place, a year, or yes/no."""

    question: str = dspy.InputField()
    trajectory: str = dspy.InputField(desc="the thoughts, actions and observations")
    answer: str = dspy.OutputField(desc="a short phrase")
