"""The projector's chart of one hidden number's answers (Altair, which ships with Streamlit):
one bar per distinct answer, the right one marked by colour, a ✔ and its label (never by
colour alone), in type large enough to read across a room at 1920×1080, and never smaller than
the page's text at the teacher's text size."""

from __future__ import annotations

import altair as alt
import pandas as pd

from playground import view
from playground.classroom.summary import NodeSummary
from playground.render import OKABE_ITO

FONT_PX = 22
"""Axis labels and titles: a 1920×1080 projector's text is legible from the back at about 20."""
HEIGHT_PX = 320


def frame(node: NodeSummary) -> pd.DataFrame:
    """The chart's rows: answer, students, whether it is right, and the bar's label."""
    return pd.DataFrame(
        [(b.answer, b.count, "right" if b.correct else "not right",
          f"✔ {b.count}" if b.correct else str(b.count)) for b in node.bars],
        columns=["answer", "students", "mark", "label"])


def answers_chart(node: NodeSummary, scale: float = 1.0) -> alt.LayerChart:
    """The chart; ``scale`` is the page's text scale (``view.page_scale`` of the text size)."""
    data = frame(node)
    order = list(data["answer"])
    font = max(FONT_PX, round(view.PAGE_FONT_PX * scale))
    base = alt.Chart(data, title=alt.Title(node.label, fontSize=font + 4)).encode(
        x=alt.X("answer:N", sort=order, title="answer",
                axis=alt.Axis(labelFontSize=font, titleFontSize=font, labelAngle=0,
                              labelLimit=10 * font)),
        y=alt.Y("students:Q", title="students",
                axis=alt.Axis(labelFontSize=font, titleFontSize=font, tickMinStep=1)),
        tooltip=["answer", "students", "mark"],
    )
    bars = base.mark_bar().encode(color=alt.Color(
        "mark:N", scale=alt.Scale(domain=["right", "not right"],
                                  range=[OKABE_ITO["bluish_green"], OKABE_ITO["vermillion"]]),
        legend=alt.Legend(title=None, labelFontSize=font, symbolSize=font * 12, orient="top")))
    labels = base.mark_text(dy=-font * 0.6, fontSize=font, fontWeight="bold").encode(
        text="label:N")
    return (bars + labels).properties(height=round(HEIGHT_PX * max(1.0, 0.75 * scale)))
