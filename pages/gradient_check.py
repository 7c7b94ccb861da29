"""Gradient check page: every analytic gradient against central finite differences."""

import streamlit as st

from pages.ui import cached, exercise_panel, frame, keys, notes
from pages.ui import session as state
from playground import SpecError
from playground.checks import EPSILONS_ASCENDING
from playground.errors import as_markdown
from playground.formatting import number

frame.route_through_entry_script()

# The table's numbers, formatted in the browser (a pandas Styler, with a colour per row, cost
# more server time than the rest of the page; the "passed" column says it, without colour).
COLUMNS = {
    "passed": st.column_config.CheckboxColumn("passed", pinned=True),
    "analytic": st.column_config.NumberColumn("analytic", format="%.8g"),
    "numeric": st.column_config.NumberColumn("numeric", format="%.8g"),
    "abs_error": st.column_config.NumberColumn("abs_error", format="%.2e"),
    "rel_error": st.column_config.NumberColumn("rel_error", format="%.2e"),
}


def _copy_eps() -> None:
    st.session_state[keys.EPS] = st.session_state[keys.EPS_WIDGET]


notes.stop_if_empty()
exercise_panel.stop_if_answers_hidden("Gradient check")
spec_json = state.spec_json()
result = cached.evaluate(spec_json)
st.session_state.setdefault(keys.EPS, 1e-6)

st.title("Gradient check")
st.markdown(
    "Each input element is nudged by ±ε and the output recomputed: "
    "$\\frac{f(x+\\varepsilon) - f(x-\\varepsilon)}{2\\varepsilon}$ should match the "
    "gradient backward computed. No backward pass is used for the estimate."
)
notes.result_notes(result)
# One column, the table above the sweep: side by side, a 1280-pixel screen cut the metrics
# ("2.796…") and the table's last column.
table_col, sweep_col = st.container(), st.container()

with table_col:
    state.show_in_widget(keys.EPS_WIDGET, st.session_state[keys.EPS])
    eps = st.select_slider(
        "Step ε of the central difference",
        EPSILONS_ASCENDING,  # small to large, as the chart's axis below runs
        format_func=lambda e: f"{e:.0e}",  # a power of ten, named as one: 1e-06
        key=keys.EPS_WIDGET,
        on_change=_copy_eps,
    )
    try:
        check = cached.gradient_check(spec_json, eps)
    except SpecError as err:
        notes.info(err)
        st.stop()
    if check.attrs["checked"] < check.attrs["elements"]:
        st.caption(f"Checking d({as_markdown(check.attrs['objective'])})/d(input) for "
                   f"{len(check):,} of the "
                   f"inputs' {check.attrs['elements']:,} elements, evenly spaced: checking every "
                   "one would take more work than this shared server gives one check.")
    else:
        st.caption(f"Checking d({as_markdown(check.attrs['objective'])})/d(input) for every "
                   "element of "
                   "every input.")
    failed = int((~check["passed"]).sum())
    if failed:
        st.error(f"{failed} of {len(check)} elements differ from the finite-difference "
                 "estimate.", icon=":material/cancel:")
    else:
        st.success(f"All {len(check)} elements match the finite-difference estimate.",
                   icon=":material/check_circle:")
    worst_abs, worst_rel, count = st.columns(3)
    worst_abs.metric("largest abs. error", number(check["abs_error"].max()))
    worst_rel.metric("largest rel. error", number(check["rel_error"].max()))
    count.metric("elements", len(check))
    st.dataframe(cached.check_table(spec_json, eps), hide_index=True, column_config=COLUMNS,
                 key=state.table_key(keys.CHECK_TABLE))

with sweep_col:
    st.subheader("Error across ε", divider="gray")
    try:
        sweep = cached.epsilon_sweep(spec_json)
    except SpecError as err:
        notes.info(err)
        st.stop()
    if not (sweep[["max_abs_error", "max_rel_error"]] > 0).any(axis=None):
        st.info("Every error is zero or NaN, so there is no curve to draw on a log scale.",
                icon=":material/info:")
    else:
        st.vega_lite_chart(spec=cached.sweep_chart(spec_json, eps))
        sampled = sweep.attrs["elements"]
        note = (f" ({sampled} evenly spaced elements)" if sampled < check.attrs["elements"]
                else "")
        st.caption(f"The worst error over the inputs{note} at each ε. Large ε: the difference "
                   "quotient's truncation error (it shrinks like ε²). Tiny ε: floating-point "
                   "round-off (it grows like 1/ε). For float64 the sweet spot is near 1e-5 to "
                   "1e-6; the dashed line is the ε chosen above.")
