"""The Train page in AppTest: training, pausing, resetting, links, one sample's graph, and the
pace the server holds each session to."""

import itertools
import json
import time
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from app_helpers import TRAIN, run, spec_of, start
from streamlit.proto.WidgetStates_pb2 import WidgetState

from pages.ui import keys, training
from playground.errors import from_markdown
from playground.evaluate import evaluate
from playground.training import TrainSettings
from playground.training import settings as choices


def open_train(query: dict[str, str] | None = None):
    """A new session on the Train page, drawn whole: its first run draws the heading and the
    controls, then the browser's timer asks for the rest (the second run)."""
    return run(start(query, page=TRAIN))


def trainer_of(at):
    return at.session_state[keys.TRAINER]


def steps_of(at) -> int:
    return int(at.metric[0].value.replace(",", ""))


def weights_of(at) -> list[np.ndarray]:
    return [p.data.copy() for p in trainer_of(at).model.parameters()]


def press(at, key: str):
    at.button(key=key).click()
    return run(at)


@pytest.mark.parametrize("dataset", ["xor", "moons"])
def test_the_loss_falls_while_the_page_trains(dataset):
    at = open_train({"data": dataset, "seed": "0"})
    first = trainer_of(at).history[-1].train_loss
    at.select_slider(key=keys.TRAIN_SPEED_WIDGET).set_value(250)
    press(at, keys.TRAIN_START)
    for _ in range(8):
        run(at)
    assert steps_of(at) >= 9 and steps_of(at) == trainer_of(at).steps
    assert trainer_of(at).history[-1].train_loss < first / 2
    assert at.metric[2].value == f"{trainer_of(at).history[-1].train_loss:.4f}"


def test_pause_stops_training():
    at = open_train()
    press(at, keys.TRAIN_START)
    run(at)
    assert at.button(key=keys.TRAIN_PAUSE).label == "Pause"
    press(at, keys.TRAIN_PAUSE)
    paused_at = steps_of(at)
    assert paused_at > 0 and at.button(key=keys.TRAIN_START).label == "Start"
    run(at)
    run(at)
    assert steps_of(at) == paused_at == trainer_of(at).steps


def test_step_takes_one_step_and_is_off_while_running():
    at = open_train()
    press(at, keys.TRAIN_STEP)
    press(at, keys.TRAIN_STEP)
    assert steps_of(at) == 2
    press(at, keys.TRAIN_START)
    assert at.button(key=keys.TRAIN_STEP).disabled


def test_reset_restores_the_initial_weights():
    at = open_train({"opt": "adam"})
    initial = weights_of(at)
    press(at, keys.TRAIN_START)
    run(at)
    assert not np.array_equal(weights_of(at)[0], initial[0])
    press(at, keys.TRAIN_RESET)
    assert all(np.array_equal(a, b) for a, b in zip(weights_of(at), initial))
    assert steps_of(at) == 0 and at.button(key=keys.TRAIN_START).label == "Start"


def test_a_share_link_restores_the_settings_and_the_widgets_show_them():
    query = {"data": "spiral", "noise": "20", "features": "x1,x2,sinx1", "layers": "8,6",
             "act": "relu", "opt": "adam", "lr": "0.01", "batch": "all", "reg": "l2",
             "rate": "0.003", "test": "1", "seed": "7"}
    at = open_train(query)
    wanted = TrainSettings(dataset="spiral", noise=20, features=("x1", "x2", "sinx1"),
                           hidden=(8, 6), activation="relu", optimizer="adam",
                           learning_rate="0.01", batch_size=0, regularizer="l2",
                           reg_rate="0.003", show_test=True, seed=7)
    assert at.session_state[keys.TRAIN_SETTINGS] == wanted
    assert trainer_of(at).settings == wanted
    assert at.selectbox(key=keys.train_setting("dataset")).value == "spiral"
    assert at.number_input(key=keys.train_setting("units_1")).value == 6
    assert at.select_slider(key=keys.train_setting("batch_size")).value == 0
    assert {k: at.query_params[k] for k in query} == query
    assert not at.warning


def test_the_share_popover_offers_the_lessons_link_to_copy():
    at = open_train({"data": "spiral", "layers": "8,8", "lr": "0.01"})
    boxes = [json.loads(c.proto.json) for c in at.get("bidi_component")]
    (link,) = [b["text"] for b in boxes if b.get("label") == "Link to this lesson"]
    address = urlsplit(link)
    assert address.path.endswith("/train")
    assert parse_qs(address.query) == {"data": ["spiral"], "layers": ["8,8"], "lr": ["0.01"]}


def test_a_changed_setting_goes_into_the_link_and_the_link_opens_it_elsewhere():
    at = open_train()
    at.selectbox(key=keys.train_setting("activation")).set_value("sigmoid")
    run(at)
    at.number_input(key=keys.train_setting("layers")).set_value(3)
    run(at)
    assert at.query_params["act"] == "sigmoid" and at.query_params["layers"] == "4,2,4"
    other = open_train(dict(at.query_params))
    assert other.session_state[keys.TRAIN_SETTINGS] == at.session_state[keys.TRAIN_SETTINGS]
    assert all(np.array_equal(a, b) for a, b in zip(weights_of(other), weights_of(at)))


def test_a_hyperparameter_changes_on_the_fly_but_a_new_network_starts_again():
    at = open_train()
    press(at, keys.TRAIN_STEP)
    at.select_slider(key=keys.train_setting("learning_rate")).set_value("0.1")
    run(at)
    assert steps_of(at) == 1 and trainer_of(at).optimizer.lr == 0.1
    at.selectbox(key=keys.train_setting("dataset")).set_value("xor")
    run(at)
    assert steps_of(at) == 0 and trainer_of(at).settings.dataset == "xor"


def test_junk_in_the_link_is_ignored_with_a_warning():
    at = open_train({"data": "iris", "layers": "99", "lr": "1e9"})
    assert at.session_state[keys.TRAIN_SETTINGS] == TrainSettings()
    warning = from_markdown(at.warning[0].value)
    assert "data='iris'" in warning and "lr='1e9'" in warning


def test_open_one_samples_graph_gives_the_training_steps_gradients():
    at = open_train({"data": "moons", "reg": "l2", "rate": "0.01"})
    for _ in range(3):
        press(at, keys.TRAIN_STEP)
    at.number_input(key=keys.TRAIN_SAMPLE_INDEX).set_value(5)
    run(at)
    press(at, keys.TRAIN_OPEN_GRAPH)
    assert at.title[0].value == "Graph"
    spec = spec_of(at)
    assert spec.output == "total" and spec["x"].value == trainer_of(at).train_x[5:6].tolist()
    shown = evaluate(spec, output=spec.output)
    trainer = trainer_of(at)
    trainer.step(indices=np.array([5]))
    for name, tensor in trainer.named_parameters():
        assert np.array_equal(shown.grad(name), tensor.grad.data), name


def test_a_test_point_can_be_chosen_when_test_data_is_shown():
    at = open_train({"test": "1"})
    at.segmented_control(key=keys.TRAIN_SAMPLE_SPLIT).set_value("test")
    run(at)
    at.number_input(key=keys.TRAIN_SAMPLE_INDEX).set_value(3)
    run(at)
    press(at, keys.TRAIN_OPEN_GRAPH)
    assert spec_of(at)["x"].value == trainer_of(at).test_x[3:4].tolist()


def test_a_diverging_run_stops_and_says_what_to_do():
    at = open_train({"data": "surface", "lr": "10", "momentum": "0.99", "act": "linear",
                "features": "x1,x2,x1sq,x2sq"})
    at.select_slider(key=keys.TRAIN_SPEED_WIDGET).set_value(250)
    press(at, keys.TRAIN_START)
    for _ in range(3):
        run(at)
    assert trainer_of(at).diverged and not at.session_state[keys.TRAIN_RUNNING]
    assert "learning rate is too large" in at.error[0].value
    assert at.button(key=keys.TRAIN_START).disabled
    press(at, keys.TRAIN_RESET)
    assert not at.error and not at.button(key=keys.TRAIN_START).disabled


COMBINATIONS = list(itertools.product(choices.DATASETS, choices.ACTIVATIONS, choices.LOSSES,
                                      choices.OPTIMIZERS))


@pytest.mark.parametrize(("dataset", "activation", "loss", "optimizer"), COMBINATIONS)
def test_no_combination_raises(dataset, activation, loss, optimizer):
    at = open_train({"data": dataset, "act": activation, "loss": loss, "opt": optimizer,
                "reg": "l1", "test": "1"})
    press(at, keys.TRAIN_STEP)
    assert steps_of(at) == 1 and not at.error
    assert len(at.get("vega_lite_chart")) == (4 if dataset == "surface" else 5)


def test_a_busy_server_updates_less_often_with_as_many_more_steps_each():
    """29 classmates already training fill the shared pace: this page's timer waits the longest
    interval (4 s, ten times the 0.4 s of one trainer alone), and each update takes more steps."""
    pace = training.pace()
    for i in range(29):
        pace.report(f"classmate {i}", 0.05)
    try:
        at = open_train()
        press(at, keys.TRAIN_START)
        assert at.session_state[keys.TRAIN_INTERVAL] == 4.0
        before = trainer_of(at).steps
        run(at)
        assert trainer_of(at).steps - before > 25  # one update at 0.4 s takes 25
        assert any("30 sessions are training on this server" in c.value for c in at.caption)
    finally:
        training.pace.clear()


def test_one_trainer_alone_updates_every_0_4_s_and_says_nothing_about_pace():
    training.pace.clear()
    at = open_train()
    press(at, keys.TRAIN_START)
    assert at.session_state[keys.TRAIN_INTERVAL] == 0.4
    assert not any("training on this server" in c.value for c in at.caption)
    training.pace.clear()


def test_under_reduced_motion_the_page_updates_every_2_s_and_says_why():
    """The browser said its reader asks for reduced motion (pages/ui/motion.py): the timer
    waits 2 s, not the pace's 0.4 s, the page says why, and an update takes the chosen 25 steps
    at most (the pace's 0.4 s worth, not 2 s worth)."""
    training.pace.clear()
    at = open_train()
    at.session_state[keys.REDUCED_MOTION] = True
    press(at, keys.TRAIN_START)
    assert at.session_state[keys.TRAIN_INTERVAL] == 2.0
    assert any("Updates come every 2 s, not 0.4 s, as your system asks for reduced motion"
               in c.value for c in at.caption)
    before = trainer_of(at).steps
    run(at)
    assert 0 < trainer_of(at).steps - before <= 25
    training.pace.clear()


def test_the_first_run_draws_the_controls_alone_and_the_rest_follows():
    at = start(page=TRAIN, painted=False)
    assert [b.label for b in at.button] == ["Start", "Step", "Reset"]
    assert not at.metric and not at.get("vega_lite_chart") and not at.sidebar.selectbox
    run(at)  # what the browser's timer asks for, FIRST_PAINT_S later
    assert [m.label for m in at.metric] == ["Step", "Epoch", "Training loss", "Test loss",
                                            "Test accuracy"]
    assert len(at.get("vega_lite_chart")) == 5 and at.sidebar.selectbox
    run(at)
    assert len(at.get("vega_lite_chart")) == 5


def test_the_link_warning_stays_while_the_links_network_is_shown():
    at = start({"layers": "99"}, page=TRAIN)
    assert "layers='99'" in from_markdown(at.warning[0].value)
    run(at)
    press(at, keys.TRAIN_STEP)
    assert "layers='99'" in from_markdown(at.warning[0].value)
    at.selectbox(key=keys.train_setting("dataset")).set_value("xor")
    run(at)
    assert not at.warning


def test_a_pause_delivered_twice_stays_paused():
    """The browser can send one click twice: with its timer's rerun of the fragment, and again
    on its own. Start and Pause are two buttons, so the second Pause cannot start training."""
    at = open_train()
    press(at, keys.TRAIN_START)
    pause_id = at.button(key=keys.TRAIN_PAUSE).proto.id
    press(at, keys.TRAIN_PAUSE)
    paused_at = steps_of(at)
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=pause_id, trigger_value=True))
    at._run(states)
    assert not at.session_state[keys.TRAIN_RUNNING]
    run(at)
    assert steps_of(at) == paused_at and at.button(key=keys.TRAIN_START).label == "Start"


def test_reruns_as_fast_as_a_client_sends_them_train_no_faster_than_the_pace():
    """A client that ignores its timer and reruns the page back to back gets no more steps than
    the chosen speed per 0.4 s of wall-clock time (plus the two updates a trainer holds in hand):
    the server keeps the pace (Pace.take)."""
    training.pace.clear()
    at = open_train()
    speed = at.session_state[keys.TRAIN_SPEED]
    began = time.monotonic()
    press(at, keys.TRAIN_START)
    for _ in range(20):
        run(at)
    elapsed = time.monotonic() - began
    allowed = 2 * speed + speed * elapsed / training.INTERVAL_S
    assert speed <= steps_of(at) <= allowed, (steps_of(at), allowed, elapsed)
    assert steps_of(at) < 21 * speed  # what a step per rerun, as before, would have taken
    training.pace.clear()
