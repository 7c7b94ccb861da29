"""Autograd Playground: build a computation graph and watch every value and gradient.

Run with `streamlit run streamlit_app.py`. This entry script only routes: pages/ui/frame.py sets
the page config, the navigation over the pages in pages/ (frame.PAGES: Build, Graph, Gradients,
Gradient check, Step through, Train, Live class), the graph state (from the session or the URL)
and the shared sidebar, then runs the chosen page.
"""

from pages.ui import frame

frame.run_app()
