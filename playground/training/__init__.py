"""The Train page's model: data sets, a training loop on the engine, and its bridge to graphs.

TensorFlow Playground's lesson (a 2-D data set, a small network, a live decision boundary) built
on ``autograd.nn`` and ``autograd.optim``; ``bridge.sample_spec`` turns one sample's loss at the
current weights into a GraphSpec that the Graph page evaluates to the same gradients.
"""

from .bridge import sample_spec
from .settings import TrainSettings, settings_from_query
from .trainer import Record, Trainer

__all__ = ["Record", "TrainSettings", "Trainer", "sample_spec", "settings_from_query"]
