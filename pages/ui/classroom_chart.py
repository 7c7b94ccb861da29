"""The projector's chart of one hidden number's answers: one bar per distinct answer, the right
one marked by colour, a ✔ and its label (never by colour alone), in type large enough to read
across a room at 1920×1080, and never smaller than the page's text at the teacher's text size.

A Vega-Lite specification written out as a dict with its few rows inline: the projector redraws
every chart each second, and building them through Altair and a DataFrame took about 40 ms each
of the server's one core, against well under one this way.
"""

from __future__ import annotations

from playground import view
from playground.classroom.summary import NodeSummary
from playground.render import OKABE_ITO

FONT_PX = 22
"""Axis labels and titles: a 1920×1080 projector's text is legible from the back at about 20."""
HEIGHT_PX = 320


def rows(node: NodeSummary) -> list[dict]:
    """The chart's rows: answer, students, whether it is right, and the bar's label."""
    return [{"answer": b.answer, "students": b.count,
             "mark": "right" if b.correct else "not right",
             "label": f"✔ {b.count}" if b.correct else str(b.count)} for b in node.bars]


def answers_spec(node: NodeSummary, scale: float = 1.0) -> dict:
    """The chart; ``scale`` is the page's text scale (``view.page_scale`` of the text size)."""
    data = rows(node)
    font = max(FONT_PX, round(view.PAGE_FONT_PX * scale))
    axis = {"labelFontSize": font, "titleFontSize": font}
    return {
        "title": {"text": node.label, "fontSize": font + 4},
        "height": round(HEIGHT_PX * max(1.0, 0.75 * scale)),
        "data": {"values": data},
        "encoding": {
            "x": {"field": "answer", "type": "nominal", "title": "answer",
                  "sort": [r["answer"] for r in data],
                  "axis": {**axis, "labelAngle": 0, "labelLimit": 10 * font}},
            "y": {"field": "students", "type": "quantitative", "title": "students",
                  "axis": {**axis, "tickMinStep": 1}},
            "tooltip": [{"field": "answer", "type": "nominal"},
                        {"field": "students", "type": "quantitative"},
                        {"field": "mark", "type": "nominal"}],
        },
        "layer": [
            {"mark": {"type": "bar"},
             "encoding": {"color": {
                 "field": "mark", "type": "nominal",
                 "scale": {"domain": ["right", "not right"],
                           "range": [OKABE_ITO["bluish_green"], OKABE_ITO["vermillion"]]},
                 "legend": {"title": None, "labelFontSize": font, "symbolSize": font * 12,
                            "orient": "top"}}}},
            {"mark": {"type": "text", "dy": -round(font * 0.6), "fontSize": font,
                      "fontWeight": "bold"},
             "encoding": {"text": {"field": "label", "type": "nominal"}}},
        ],
    }
