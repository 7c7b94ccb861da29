"""One sample's graph: the weights as inputs, the loss as output, the training loop's gradients
bit for bit."""

import itertools

import numpy as np
import pytest

from playground import GraphSpec, share
from playground.evaluate import evaluate
from playground.training import Trainer, TrainSettings, sample_spec
from playground.training import settings as choices

COMBINATIONS = list(itertools.product(choices.DATASETS, choices.ACTIVATIONS, choices.LOSSES,
                                      choices.REGULARIZERS))


@pytest.mark.parametrize(("dataset", "activation", "loss", "regularizer"), COMBINATIONS)
def test_the_graphs_gradients_are_the_training_steps_gradients_bit_for_bit(
        dataset, activation, loss, regularizer):
    """Build the graph of training point 7 at the current weights, then let the training loop
    take its next step on exactly that point: every weight's gradient that step used equals the
    gradient the graph shows, to the last bit."""
    settings = TrainSettings(dataset=dataset, activation=activation, loss=loss,
                             regularizer=regularizer, reg_rate="0.03", hidden=(5, 3),
                             features=("x1", "x2", "x1x2", "sinx1"), seed=2)
    trainer = Trainer(settings)
    trainer.run(25)
    spec = sample_spec(trainer, "train", 7)
    result = evaluate(spec, output=spec.output)
    step_loss = trainer.step(indices=np.array([7]))
    assert result.value(spec.output) == step_loss
    for name, tensor in trainer.named_parameters():
        assert np.array_equal(result.grad(name), tensor.grad.data), name


@pytest.mark.parametrize("hidden", [(), (1,), (16, 16, 16, 16)])
def test_any_depth_gives_the_same_gradients_as_the_loop(hidden):
    trainer = Trainer(TrainSettings(hidden=hidden, features=tuple(choices.FEATURES),
                                    regularizer="l2", reg_rate="0.001", show_test=True))
    trainer.run(5)
    spec = sample_spec(trainer, "train", 0)
    result = evaluate(spec, output=spec.output)
    trainer.step(indices=np.array([0]))
    for name, tensor in trainer.named_parameters():
        assert np.array_equal(result.grad(name), tensor.grad.data), name


def test_the_graph_reads_as_the_network_computes():
    trainer = Trainer(TrainSettings(hidden=(4, 2), regularizer="l2", reg_rate="0.01"))
    spec = sample_spec(trainer, "train", 3)
    assert spec.names_of("input") == ("W1", "b1", "W2", "b2", "W3", "b3")
    assert spec.names_of("const") == ("x", "y", "rate")
    ops = [(n.name, n.op, n.operands) for n in spec if n.kind == "op"]
    assert ops[:6] == [("z1", "linear", ("x", "W1", "b1")), ("h1", "tanh", ("z1",)),
                       ("z2", "linear", ("h1", "W2", "b2")), ("h2", "tanh", ("z2",)),
                       ("z3", "linear", ("h2", "W3", "b3")), ("p", "sigmoid", ("z3",))]
    assert ("loss", "binary_cross_entropy", ("p", "y")) in ops
    assert spec.output == "total" and ops[-1] == ("total", "add", ("loss", "penalty"))
    assert spec["x"].value == trainer.train_x[3:4].tolist()
    assert spec["W2"].value == trainer.layers[1].weight.data.tolist()


def test_without_regularisation_the_loss_is_the_output_and_a_test_point_works_too():
    trainer = Trainer(TrainSettings(dataset="surface", activation="linear", show_test=True))
    spec = sample_spec(trainer, "test", 1)
    assert spec.output == "loss" and spec["loss"].op == "mse_loss"
    assert "p" not in spec and "h1" not in spec
    assert spec["y"].value == [[float(trainer.test_y[1, 0])]]


def test_the_graph_survives_json_and_its_share_link():
    trainer = Trainer(TrainSettings(hidden=(16, 16, 16, 16), features=tuple(choices.FEATURES),
                                    regularizer="l1", reg_rate="0.01"))
    trainer.run(3)
    spec = sample_spec(trainer, "train", 0)
    assert GraphSpec.from_json(spec.to_json()) == spec
    assert share.decode(share.encode(spec)) == spec  # the largest network fits in a link


@pytest.mark.parametrize(("split", "index"), [("train", -1), ("train", 200), ("test", 200),
                                              ("valid", 0)])
def test_a_point_that_does_not_exist_is_refused(split, index):
    with pytest.raises(ValueError):
        sample_spec(Trainer(TrainSettings()), split, index)
