"""The script every session of Autograd Playground runs (streamlit_app.py serves it). It only
routes: pages/ui/frame.py sets the page config, the navigation over the pages in pages/
(frame.PAGES: Build, Graph, Gradients, Gradient check, Step through, Train, Live class), the
graph state (from the session or the URL) and the shared sidebar, then runs the chosen page.
"""

from pages.ui import frame

frame.run_app()
