"""The server freezes what its imports left behind once, and keeps collecting what comes after."""

import gc
import weakref

from playground.collector import freeze_shared_objects


class _Node:
    """An object that can sit in a reference cycle and be watched through a weak reference."""


def test_objects_alive_are_frozen_and_later_ones_stay_collectable():
    gc.unfreeze()
    try:
        freeze_shared_objects()
        assert gc.get_freeze_count() > 1_000  # this test process's modules at least
        cycle = _Node()
        cycle.me = cycle
        watch = weakref.ref(cycle)
        del cycle
        gc.collect()
        assert watch() is None
    finally:
        gc.unfreeze()
