"""The pieces the page scripts in pages/ are built from: frame, session state, sidebar, forms.

A package inside pages/, so Streamlit's legacy page discovery (every *.py directly in pages/,
streamlit/runtime/scriptrunner/script_runner.py `_mpa_v1`) never lists one of them as a page.
"""
