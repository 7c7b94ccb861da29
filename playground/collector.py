"""The garbage collector in the server's process: what every session shares is frozen out of its
sight, once.

A full collection (CPython's generation 2) walks every tracked object in the process. In the
server most of them are the 126,000 or so that Streamlit, pandas, Altair, graphviz and the app's
own modules leave behind at import and that never become garbage. Each full collection took
about 60 ms of the one core all sessions share (it holds the GIL), and an engine call that met
one took 2.4 times its usual time (``benchmarks/server_gc.py``). ``gc.freeze()`` moves the
objects alive at that moment to a permanent generation that collections skip; what sessions
create afterwards is collected as before.
"""

import gc


def freeze_shared_objects() -> None:
    """Collect the garbage there is, then freeze every object alive. Call it once per process,
    after the imports: the app does on its first run (``st.cache_resource``), so that the
    objects of later sessions stay collectable. Not guarded here: ``gc.get_freeze_count()``
    walks every frozen object, about 14 ms a call."""
    gc.collect()
    gc.freeze()
