"""The Train page's loop: it learns, resets, applies settings, records, and matches PyTorch."""

import io
import threading

import numpy as np
import pytest

from playground.training import Trainer, TrainSettings
from playground.training import trainer as trainer_module

try:
    import torch
except ImportError:
    torch = None


def weights(trainer):
    return [p.data.copy() for p in trainer.model.parameters()]


@pytest.mark.parametrize("dataset", ["xor", "moons"])
def test_the_loss_falls_and_the_test_points_are_learned(dataset):
    trainer = Trainer(TrainSettings(dataset=dataset, seed=0))
    first = trainer.history[-1]
    trainer.run(1500)
    last = trainer.history[-1]
    assert last.train_loss < first.train_loss / 4 and last.test_loss < first.test_loss / 4
    assert last.test_accuracy > 0.9


def test_the_regression_surface_is_learned():
    trainer = Trainer(TrainSettings(dataset="surface", hidden=(8, 8), optimizer="adam",
                                    learning_rate="0.01", seed=0))
    first = trainer.history[-1]
    trainer.run(1500)
    assert trainer.history[-1].test_loss < first.test_loss / 3
    assert trainer.history[-1].test_accuracy is None


def test_the_same_settings_start_from_the_same_weights_and_train_the_same_way():
    a, b = Trainer(TrainSettings(seed=5)), Trainer(TrainSettings(seed=5))
    assert all(np.array_equal(x, y) for x, y in zip(weights(a), weights(b)))
    a.run(30)
    b.run(30)
    assert all(np.array_equal(x, y) for x, y in zip(weights(a), weights(b)))
    other = Trainer(TrainSettings(seed=6))
    assert not np.array_equal(weights(a)[0], weights(other)[0])


def test_reset_restores_the_initial_weights_and_forgets_the_history():
    trainer = Trainer(TrainSettings(optimizer="adam"))
    initial = weights(trainer)
    trainer.run(50)
    assert not np.array_equal(weights(trainer)[0], initial[0])
    trainer.reset()
    assert all(np.array_equal(x, y) for x, y in zip(weights(trainer), initial))
    assert trainer.steps == 0 and trainer.epoch == 0 and len(trainer.history) == 1
    fresh = Trainer(TrainSettings(optimizer="adam"))
    trainer.run(20)
    fresh.run(20)
    assert all(np.array_equal(x, y) for x, y in zip(weights(trainer), weights(fresh)))


def test_one_step_counts_one_batch_and_an_epoch_is_a_pass_over_the_training_points():
    trainer = Trainer(TrainSettings(points=100, train_percent=50, batch_size=10))
    trainer.run(5)
    assert trainer.steps == 5 and trainer.epoch == pytest.approx(1.0)
    full = Trainer(TrainSettings(points=100, train_percent=50, batch_size=0))
    full.run(3)
    assert full.epoch == pytest.approx(3.0)


def test_an_epoch_visits_every_training_point_once():
    trainer = Trainer(TrainSettings(points=60, train_percent=50, batch_size=4))
    batches = []
    next_batch = trainer._next_batch
    trainer._next_batch = lambda: batches.append(next_batch()) or batches[-1]
    trainer.run(8)  # 30 points: 7 batches of 4 and one of 2
    rows = np.concatenate([x.data for x, _ in batches])
    assert [len(x.data) for x, _ in batches] == [4] * 7 + [2]
    assert sorted(map(tuple, rows)) == sorted(map(tuple, trainer.train_x))
    assert trainer.samples_seen == 30


def test_hyperparameters_change_on_the_fly_and_keep_the_weights():
    trainer = Trainer(TrainSettings())
    trainer.run(10)
    now = weights(trainer)
    same = trainer.apply(TrainSettings(learning_rate="0.3", batch_size=1, optimizer="adam"))
    assert same is trainer and same.optimizer.lr == 0.3 and same.steps == 10
    assert all(np.array_equal(x, y) for x, y in zip(weights(same), now))
    assert type(same.optimizer).__name__ == "Adam"


def test_new_data_or_a_new_network_gives_a_fresh_trainer():
    trainer = Trainer(TrainSettings())
    trainer.run(10)
    rebuilt = trainer.apply(TrainSettings(hidden=(3, 3, 3)))
    assert rebuilt is not trainer and rebuilt.steps == 0
    assert [layer.weight.shape for layer in rebuilt.layers] == [(3, 2), (3, 3), (3, 3), (1, 3)]


def test_a_learning_rate_far_too_large_stops_training_with_the_loss_it_reached():
    trainer = Trainer(TrainSettings(dataset="surface", learning_rate="10", momentum="0.99",
                                    activation="linear", features=("x1", "x2", "x1sq", "x2sq")))
    done = trainer.run(500)
    assert trainer.diverged and done < 500
    assert not np.isfinite(trainer.last_loss)
    trainer.reset()
    assert not trainer.diverged


def test_run_stops_when_its_time_budget_is_spent():
    trainer = Trainer(TrainSettings(hidden=(16, 16, 16, 16), batch_size=0))
    assert trainer.run(10_000, budget_s=0.0) == 1


def test_the_history_is_bounded():
    trainer = Trainer(TrainSettings())
    for _ in range(trainer_module.MAX_RECORDS + 10):
        trainer.record()
    assert len(trainer.history) <= trainer_module.MAX_RECORDS


def test_each_record_has_one_gradient_norm_per_weight_layer_after_the_first_step():
    trainer = Trainer(TrainSettings(hidden=(4, 3, 2)))
    assert trainer.history[0].grad_norms == ()
    trainer.run(1)
    norms = trainer.history[-1].grad_norms
    assert len(norms) == 4 and all(n > 0 for n in norms)


def test_stacked_sigmoids_pass_ever_smaller_gradients_to_the_first_layers():
    """Each sigmoid scales the gradient by at most 1/4 on its way back; tanh by at most 1."""
    norms = {}
    for activation in ("sigmoid", "tanh"):
        trainer = Trainer(TrainSettings(hidden=(8, 8, 8, 8), activation=activation, seed=0))
        trainer.run(20)
        norms[activation] = trainer.history[-1].grad_norms
    sigmoid = norms["sigmoid"]
    assert sigmoid[0] < sigmoid[1] < sigmoid[2] and sigmoid[0] < sigmoid[-1] / 5
    assert sigmoid[0] < norms["tanh"][0] / 50


def test_activations_give_every_neuron_of_every_layer():
    trainer = Trainer(TrainSettings(features=("x1", "x2", "x1x2"), hidden=(5, 2)))
    outputs = trainer.activations(np.zeros((7, 3)))
    assert [o.shape for o in outputs] == [(7, 3), (7, 5), (7, 2), (7, 1)]
    assert ((outputs[-1] > 0) & (outputs[-1] < 1)).all()  # a probability
    assert (np.abs(outputs[1]) < 1).all()  # tanh


def test_the_weights_download_is_an_npz_numpy_reads_without_pickle():
    trainer = Trainer(TrainSettings(dataset="spiral", hidden=(3,)))
    trainer.run(2)
    with np.load(io.BytesIO(trainer.weights_npz()), allow_pickle=False) as saved:
        assert sorted(saved.files) == ["W1", "W2", "b1", "b2", "features", "settings", "step"]
        assert np.array_equal(saved["W1"], trainer.layers[0].weight.data)
        assert saved["features"].tolist() == ["x₁", "x₂"]
        assert str(saved["settings"]) == "data=spiral&layers=3"
        assert int(saved["step"]) == 2


def torch_twin(trainer):
    """The same network in PyTorch, starting from the same weights."""
    layers = []
    for k, layer in enumerate(trainer.layers):
        linear = torch.nn.Linear(*reversed(layer.weight.shape), dtype=torch.float64)
        with torch.no_grad():
            linear.weight.copy_(torch.from_numpy(layer.weight.data))
            linear.bias.copy_(torch.from_numpy(layer.bias.data))
        layers.append(linear)
        if k < len(trainer.layers) - 1 and trainer.settings.activation != "linear":
            layers.append({"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU,
                           "sigmoid": torch.nn.Sigmoid}[trainer.settings.activation]())
    return torch.nn.Sequential(*layers)


@pytest.mark.torch
@pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
@pytest.mark.parametrize(("loss", "optimizer", "regularizer", "activation"), [
    ("bce", "sgd", "none", "tanh"), ("bce", "adam", "l2", "relu"),
    ("mse", "sgd", "l1", "sigmoid"), ("mse", "adam", "none", "linear"),
])
def test_ten_steps_match_the_same_loop_in_pytorch(loss, optimizer, regularizer, activation):
    settings = TrainSettings(dataset="moons", loss=loss, optimizer=optimizer, activation=activation,
                             regularizer=regularizer, reg_rate="0.01", hidden=(5, 3), batch_size=0)
    trainer = Trainer(settings)
    model = torch_twin(trainer)
    params = list(model.parameters())
    opt = (torch.optim.Adam(params, lr=settings.lr) if optimizer == "adam"
           else torch.optim.SGD(params, lr=settings.lr, momentum=float(settings.momentum)))
    x, y = torch.from_numpy(trainer.train_x), torch.from_numpy(trainer.train_y)
    weights_only = [m.weight for m in model if isinstance(m, torch.nn.Linear)]
    for _ in range(10):
        p = torch.sigmoid(model(x))
        value = (torch.nn.functional.binary_cross_entropy(p, y) if loss == "bce"
                 else torch.nn.functional.mse_loss(p, y))
        if regularizer != "none":
            norm = (lambda w: w.abs().sum()) if regularizer == "l1" else (lambda w: w.pow(2).sum())
            value = value + settings.penalty_rate * sum(norm(w) for w in weights_only)
        opt.zero_grad()
        value.backward()
        opt.step()
        ours = trainer.step()
        assert ours == pytest.approx(value.item(), rel=1e-12)
    for mine, theirs in zip(trainer.model.parameters(), params):
        np.testing.assert_allclose(mine.data, theirs.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_a_run_stops_before_the_next_step_once_keep_going_turns_false():
    trainer = Trainer(TrainSettings())
    wanted = iter([True, True, True, False])
    assert trainer.run(100, keep_going=lambda: next(wanted)) == 3
    assert trainer.steps == 3 and trainer.history[-1].step == 3
    assert trainer.run(100, keep_going=lambda: False) == 0
    assert [r.step for r in trainer.history] == [0, 3]  # a run that took no step records none


def test_a_run_in_another_thread_stops_after_its_step_and_a_reset_waits_for_it():
    """Streamlit starts a click's run in a new thread while the run it replaces still trains:
    the click pauses, the old run stops after the step it is taking, and the reset that follows
    changes the weights only once no step is under way."""
    trainer = Trainer(TrainSettings(hidden=(16, 16), batch_size=0))
    training, started = threading.Event(), threading.Event()
    training.set()

    def keep_going() -> bool:
        started.set()
        return training.is_set()

    old_run = threading.Thread(target=trainer.run, args=(10**9,),
                               kwargs={"keep_going": keep_going})
    old_run.start()
    assert started.wait(10)
    training.clear()  # the click: paused
    trainer.reset()  # waits for the step under way
    old_run.join(10)
    assert not old_run.is_alive()
    assert trainer.steps == 0 and [r.step for r in trainer.history] == [0]
    fresh = Trainer(TrainSettings(hidden=(16, 16), batch_size=0))
    assert all(np.array_equal(a.data, b.data) for a, b in
               zip(trainer.model.parameters(), fresh.model.parameters()))
