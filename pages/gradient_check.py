"""Gradient check page: every analytic gradient against central finite differences."""

import streamlit as st

from pages import _cache, _charts, _frame, _views
from pages import _state as state

_frame.ensure()

EPS = "pg_eps"
EPS_WIDGET = "w_eps"
EPSILONS = tuple(10.0**-k for k in range(1, 11))
PASS_FILL = "background-color: rgba(46, 160, 67, 0.28)"
FAIL_FILL = "background-color: rgba(248, 81, 73, 0.38)"


def _copy_eps() -> None:
    st.session_state[EPS] = st.session_state[EPS_WIDGET]


def _row_colours(row) -> list[str]:
    return [PASS_FILL if row["passed"] else FAIL_FILL] * len(row)


_views.require_nodes()
spec_json = state.spec_json()
result = _cache.evaluate(spec_json)
st.session_state.setdefault(EPS, 1e-6)

st.title("Gradient check")
st.markdown(
    "Each input element is nudged by ±ε and the output recomputed: "
    "$\\frac{f(x+\\varepsilon) - f(x-\\varepsilon)}{2\\varepsilon}$ should match the gradient "
    "backward computed. No backward pass is used for the estimate."
)
_views.result_notes(result)

st.session_state[EPS_WIDGET] = st.session_state[EPS]
eps = st.select_slider(
    "Step ε of the central difference",
    EPSILONS,
    format_func=lambda e: f"{e:.0e}",
    key=EPS_WIDGET,
    on_change=_copy_eps,
)

check = _cache.gradient_check(spec_json, eps)
if check.empty:
    st.info("This graph has no inputs with gradients to check: add an input on the Build page.",
            icon=":material/info:")
else:
    failed = int((~check["passed"]).sum())
    if failed:
        st.error(f"{failed} of {len(check)} elements differ from the finite-difference estimate.",
                 icon=":material/cancel:")
    else:
        st.success(f"All {len(check)} elements match the finite-difference estimate.",
                   icon=":material/check_circle:")
    worst_abs, worst_rel, count = st.columns(3)
    worst_abs.metric("largest absolute error", f"{check['abs_error'].max():.2e}")
    worst_rel.metric("largest relative error", f"{check['rel_error'].max():.2e}")
    count.metric("elements checked", len(check))
    st.dataframe(
        check.style.apply(_row_colours, axis=1).format(
            {"analytic": "{:.8g}", "numeric": "{:.8g}", "abs_error": "{:.2e}",
             "rel_error": "{:.2e}"}
        ),
        hide_index=True,
        column_config={"passed": st.column_config.CheckboxColumn("passed")},
    )

    st.subheader("Error across ε", divider="gray")
    st.altair_chart(_charts.epsilon_sweep(_cache.epsilon_sweep(spec_json), eps))
    st.caption("Large ε: the difference quotient's truncation error (it shrinks like ε²). "
               "Tiny ε: floating-point round-off (it grows like 1/ε). The sweet spot for float64 "
               "sits near 1e-5 to 1e-6; the dashed line is the ε chosen above.")
