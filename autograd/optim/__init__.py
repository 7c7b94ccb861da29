"""Optimizers with PyTorch's update formulas, parameter groups and state_dict (SGD, Adam,
AdamW, RMSprop, Adagrad), and learning-rate schedules in ``optim.lr_scheduler``.

Updates change each parameter with the in-place ops (``p.sub_(...)``) under ``no_grad``, so
stepping never builds a graph. Parameters whose ``.grad`` is None are skipped. All state lives
on the optimizer instance.
"""

from . import lr_scheduler
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import Adagrad, RMSprop
from .sgd import SGD

__all__ = ["SGD", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler"]
