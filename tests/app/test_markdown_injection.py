"""Markdown injection through a link, a file or a form: every message that quotes one is shown
as text. A link of the attacker's choice or an image from the attacker's server (a tracking
pixel) must never render inside the app's own message boxes."""

from __future__ import annotations

import pytest
from app_helpers import TRAIN, start
from markdown_check import markdown_problems

from playground.errors import from_markdown

PIXEL = "![p](https://evil.example/p.png)"
LINK = "[click](https://evil.example/x)"


def _warnings(at) -> list[str]:
    return [w.value for w in at.warning]


@pytest.mark.parametrize("param", ["data", "act", "layers", "features", "lr", "seed"])
@pytest.mark.parametrize("payload", [PIXEL, LINK, "<img src=https://evil.example/p.png>",
                                     "<https://evil.example/a>", "https://evil.example/a",
                                     ":red[alert] :smile: $x$"])
def test_the_train_pages_ignored_link_settings_show_the_parameter_as_text(param, payload):
    at = start({param: payload}, page=TRAIN)
    (warning,) = [w for w in _warnings(at) if "Ignored link settings" in from_markdown(w)]
    assert f"{param}=" in from_markdown(warning)
    assert payload[:20] in from_markdown(warning)
    assert not markdown_problems(warning), markdown_problems(warning)
