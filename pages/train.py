"""Train page: TensorFlow Playground's lesson on this engine, one sample's graph a click away."""

import time

import streamlit as st

from pages.ui import first_paint, frame, keys, motion, notes, scroll, session, training
from pages.ui.copy_box import copy_box
from playground.formatting import number
from playground.training import charts
from playground.training import settings as choices

frame.route_through_entry_script()
training.ensure_state()
training.sync_url()
trainer = training.trainer()
settings = training.settings()
running = training.running()

st.title("Train")
st.caption("A small network learns a 2-D data set on this project's engine, as in TensorFlow "
           "Playground; its settings are in the sidebar. Pause at any step and open one "
           "sample's computation graph with the real weights.")

controls = st.container(horizontal=True, vertical_alignment="bottom")
if running:
    controls.button("Pause", key=keys.TRAIN_PAUSE, on_click=training.pause,
                    icon=":material/pause:", type="primary")
else:
    controls.button("Start", key=keys.TRAIN_START, on_click=training.start,
                    icon=":material/play_arrow:", type="primary", disabled=trainer.diverged)
controls.button("Step", key=keys.TRAIN_STEP, on_click=training.step_once, disabled=running,
                icon=":material/skip_next:", help="One update on one batch.")
controls.button("Reset", key=keys.TRAIN_RESET, on_click=training.reset,
                icon=":material/replay:", help="Back to the initial weights of this seed.")


def more_controls() -> None:
    """The speed, then the share link and the weights in one popover (on a phone the controls
    then take two rows, and the output plane follows on the first screen)."""
    with controls:
        session.show_in_widget(keys.TRAIN_SPEED_WIDGET, st.session_state[keys.TRAIN_SPEED])
        st.select_slider("Steps per update", training.SPEEDS, key=keys.TRAIN_SPEED_WIDGET,
                         on_change=training.copy_speed, width=220)
    with controls.popover("Share", icon=":material/share:"):
        copy_box(training.share_link(), "Link to this lesson", keys.TRAIN_SHARE_LINK)
        st.caption("This link opens the same data, features, network and hyperparameters, "
                   "with freshly initialised weights (the same ones: they come from the seed).")
        st.download_button("Weights", data=trainer.weights_npz, file_name="weights.npz",
                           mime="application/octet-stream", on_click="ignore",
                           key=keys.TRAIN_DOWNLOAD, icon=":material/download:",
                           help="The current weights and biases as a NumPy .npz file "
                                "(np.load reads it).")


def sidebar() -> None:
    """The Train page's sidebar holds its settings, and only those (frame.OWN_SIDEBAR)."""
    with st.sidebar:
        st.subheader("Data", divider="gray")
        training.setting(st.selectbox, "dataset", "Data set", options=list(choices.DATASETS),
                         format_func=choices.DATASETS.get)
        training.setting(st.slider, "noise", "Noise (%)", min_value=choices.NOISE[0],
                         max_value=choices.NOISE[1], step=5)
        training.setting(st.slider, "points", "Points", min_value=choices.POINTS[0],
                         max_value=choices.POINTS[1], step=10)
        training.setting(st.slider, "train_percent", "Training points (%)",
                         min_value=choices.TRAIN_PERCENT[0], max_value=choices.TRAIN_PERCENT[1],
                         step=10, help="The rest are test points, never trained on.")
        training.setting(st.number_input, "seed", "Seed", min_value=0,
                         max_value=choices.MAX_SEED,
                         help="Draws the data, their split and the initial weights.")
        training.setting(st.toggle, "show_test", "Show test data")

        st.subheader("Network", divider="gray")
        training.features_widget()
        training.layers_widget()
        training.setting(st.selectbox, "activation", "Activation",
                         options=list(choices.ACTIVATIONS), format_func=choices.ACTIVATIONS.get,
                         help="Of the hidden layers; Linear means none.")
        if settings.regression:
            st.selectbox("Loss", ["Mean squared error"], disabled=True,
                         help="Regression always uses the mean squared error.")
        else:
            training.setting(st.selectbox, "loss", "Loss", options=list(choices.LOSSES),
                             format_func=choices.LOSSES.get,
                             help="On the sigmoid of the output: the probability of blue.")

        st.subheader("Training", divider="gray")
        training.setting(st.segmented_control, "optimizer", "Optimizer",
                         options=list(choices.OPTIMIZERS), format_func=choices.OPTIMIZERS.get,
                         required=True)
        training.setting(st.select_slider, "learning_rate", "Learning rate",
                         options=choices.LEARNING_RATES)
        if settings.optimizer == "sgd":
            training.setting(st.select_slider, "momentum", "Momentum", options=choices.MOMENTA)
        training.setting(st.select_slider, "batch_size", "Batch size",
                         options=sorted(choices.BATCH_SIZES, key=lambda b: b or 10**9),
                         format_func=lambda b: str(b) if b else "all")
        training.setting(st.segmented_control, "regularizer", "Regularisation",
                         options=list(choices.REGULARIZERS),
                         format_func=choices.REGULARIZERS.get, required=True,
                         help="Adds rate × Σ|w| (L1) or rate × Σw² (L2) over the weights, not "
                              "the biases.")
        if settings.regularizer != "none":
            training.setting(st.select_slider, "reg_rate", "Regularisation rate",
                             options=choices.REG_RATES)


@st.fragment(run_every=training.update_interval() if running else None)
def live() -> None:
    """Train a chunk (while running) and draw every picture; reruns on its own timer, at the
    pace the server's trainers share, and trains only the steps that pace allows."""
    training.switch_if_opened()
    started = time.thread_time()
    if running and training.running() and training.timer_out_of_step():
        st.rerun()  # more or fewer classmates train now: a full rerun sets the timer anew
    if training.running():
        due = training.steps_due()
        if due:
            done = trainer.run(due, budget_s=training.BUDGET_S, keep_going=training.running)
            training.give_back(due - done)
        if trainer.diverged:
            st.session_state[keys.TRAIN_RUNNING] = False
    if running and not training.running():
        st.rerun()  # paused since this timer started: a full rerun stops the timer
    last = trainer.history[-1]
    stats = st.container(horizontal=True)
    stats.metric("Step", f"{trainer.steps:,}", width="content")
    stats.metric("Epoch", f"{trainer.epoch:.1f}", width="content")
    stats.metric("Training loss", number(last.train_loss), width="content")
    stats.metric("Test loss", number(last.test_loss), width="content")
    stats.metric("Test accuracy", "–" if last.test_accuracy is None
                 else f"{100 * last.test_accuracy:.1f} %", width="content")
    pace_note = training.pace_note() if training.running() else None
    if pace_note:
        st.caption(pace_note)
    if trainer.diverged:
        st.error(f"The loss became {number(trainer.last_loss)} at step {trainer.steps}: the "
                 "learning rate is too large for this network. Press Reset, then lower the "
                 "learning rate.", icon=":material/error:")

    pictures = training.drawn()
    block = st.container(key=keys.TRAIN_PICTURES_BLOCK)
    output_col, network_col = block.columns([1, 1.15])
    with output_col:
        st.markdown("**Output**: " + ("the predicted value" if settings.regression else
                                      "the probability of blue") + "; click a point to choose "
                    "it.")
        split, index = training.sample()
        points = pictures.points
        chosen = points[(points["split"] == split) & (points["index"] == index)]
        st.vega_lite_chart(charts.boundary(pictures.plane, points, chosen, settings.regression),
                           key=keys.TRAIN_BOUNDARY, on_select=training.pick_point,
                           selection_mode=charts.PICK, width="content")
        st.caption(pictures.plane_words)
    with network_col:
        st.markdown("**Network**: each neuron's output over the plane, one row per layer; "
                    "edge width and colour are the weight's size and sign.")
        st.vega_lite_chart(pictures.network, width="content")

    loss_col, accuracy_col, gradient_col = block.columns(3)
    loss_col.vega_lite_chart(pictures.loss)
    if not settings.regression:
        accuracy_col.vega_lite_chart(pictures.accuracy)
    gradient_col.vega_lite_chart(pictures.gradients)

    st.subheader("One sample's graph", divider="gray")
    st.caption("The loss of one point as a computation graph, with the current weights as "
               "inputs: the Graph, Gradients and Gradient check pages then show every value and "
               "gradient of it, the numbers the next training step uses for this point.")
    sizes = training.sample_sizes()
    st.session_state[keys.TRAIN_SAMPLE_SPLIT] = split
    st.session_state[keys.TRAIN_SAMPLE_INDEX] = index
    pick = st.container(horizontal=True, vertical_alignment="bottom")
    pick.segmented_control("Set", list(sizes), key=keys.TRAIN_SAMPLE_SPLIT, required=True,
                           on_change=training.pick_by_hand)
    pick.number_input("Point", 0, sizes[split] - 1, key=keys.TRAIN_SAMPLE_INDEX,
                      on_change=training.pick_by_hand, width=160)
    pick.button("Open one sample's graph", key=keys.TRAIN_OPEN_GRAPH,
                icon=":material/account_tree:", type="primary",
                on_click=training.open_sample_graph)
    notes.show_error("train")
    if training.running():
        training.report_update(started)


first_paint.stop_here()
more_controls()
sidebar()
st.html(training.LABEL_STYLE)
live()
scroll.follow()  # after Start or Pause, the focus on the button that took its place
motion.ask_browser()  # fewer updates for a reader who asked for reduced motion
