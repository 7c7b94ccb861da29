"""An offline classroom (or a strict Content-Security-Policy) loses nothing: no page asks a
browser to fetch anything from another host. A ":material/…" page icon used to become the tab's
favicon, fetched from fonts.gstatic.com; the app now serves its own (pages/ui/favicon.png)."""

from __future__ import annotations

from e2e_helpers import PAGE_TITLES, expect, open_page

PATHS = ("graph", "", "gradients", "gradient_check", "backprop", "train", "class")
"""Every page's address; the Graph page first, so a fresh server answers it in the legacy mode
(frame.route_through_entry_script) that used to send the page's icon as the favicon."""


def _outside_requests(tab, base: str) -> list[str]:
    requests: list[str] = []
    tab.on("request", lambda r: requests.append(r.url)
           if not r.url.startswith((base, "data:", "blob:")) else None)
    return requests


def test_no_page_fetches_from_another_host(browser, fresh_app_url):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(30_000)
    try:
        for path in PATHS:
            tab = context.new_page()
            outside = _outside_requests(tab, fresh_app_url)
            tab.goto(f"{fresh_app_url}/{path}")
            expect(tab.get_by_role("heading", level=1).first).to_be_visible()
            expect(tab.get_by_test_id("stStatusWidget")).to_have_count(0)
            tab.wait_for_timeout(500)  # the favicon is set after the run's last message
            assert outside == [], f"/{path} fetched {outside}"
            favicon = tab.evaluate("document.querySelector('link[rel~=icon]')?.href ?? ''")
            assert favicon.startswith(fresh_app_url), f"/{path}: favicon {favicon!r}"
            tab.close()
        tab = context.new_page()
        outside = _outside_requests(tab, fresh_app_url)
        tab.goto(fresh_app_url)
        for title in PAGE_TITLES:
            open_page(tab, title)
        tab.wait_for_timeout(500)
        assert outside == [], f"moving between the pages fetched {outside}"
    finally:
        context.close()
