"""The output plane in words (playground/training/words.py): the shares of each colour, the parts
of the plane each colour holds, where the network is unsure, and the accuracies."""

import numpy as np

from playground.training import Trainer, TrainSettings, charts, datasets, words
from playground.training.trainer import Record


def record(train: float | None, test: float | None) -> Record:
    return Record(step=10, epoch=0.5, train_loss=0.3, test_loss=0.4, train_accuracy=train,
                  test_accuracy=test, grad_norms=())


def test_a_blue_corner_is_named_and_the_rest_is_orange_elsewhere():
    values = np.full((9, 9), -0.9)
    values[:3, 6:] = 0.9  # rows from the top, columns from the left: the top right
    assert words.plane(values, False, record(0.92, 0.875)) == (
        "The network calls 89 % of the plane orange and 11 % blue: blue in the top right, "
        "orange elsewhere. It classifies 92 % of the training points right and 88 % of the "
        "test points.")


def test_a_plane_near_one_half_is_said_to_be_unsure():
    values = np.full((9, 9), 0.1)
    values[:, :1] = -0.5  # one of nine columns orange: a minority in the left parts
    assert words.plane(values, False, record(0.5, None)) == (
        "The network calls 11 % of the plane orange and 89 % blue: mostly blue in every part; "
        "unsure (a probability of blue between 40 and 60 %) on 89 % of it. It classifies 50 % "
        "of the training points right.")


def test_regression_speaks_of_negative_and_positive_outputs_without_accuracy():
    values = np.full((9, 9), 0.6)
    values[3:, :] = -0.05  # the middle and bottom rows near zero, below it
    assert words.plane(values, True, record(None, None)) == (
        "The network's output is negative (orange) on 67 % of the plane and positive (blue) on "
        "33 %: positive (blue) in the top left, top and top right, negative (orange) elsewhere; "
        "near 0 (between −0.2 and 0.2) on 67 % of it.")


def test_the_trained_circles_lesson_reads_blue_in_the_centre_with_the_trainers_numbers():
    trainer = Trainer(TrainSettings())  # circles: one class inside a ring of the other
    before = charts.drawn(trainer).plane_words
    trainer.run(300)
    said = charts.drawn(trainer).plane_words
    assert said != before
    blue = trainer.predict(datasets.features(datasets.grid(50), ("x1", "x2")))[:, 0] > 0.5
    last = trainer.history[-1]
    assert said == (
        f"The network calls {100 * (1 - blue.mean()):.0f} % of the plane orange and "
        f"{100 * blue.mean():.0f} % blue: blue in the centre, orange elsewhere; unsure (a "
        f"probability of blue between 40 and 60 %) on 4 % of it. It classifies "
        f"{100 * last.train_accuracy:.0f} % of the training points right and "
        f"{100 * last.test_accuracy:.0f} % of the test points.")
    assert last.train_accuracy > 0.9
