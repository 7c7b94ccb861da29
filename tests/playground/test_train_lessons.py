"""The README's Train lesson link reaches the result the README states, in the steps it states:
the trainer runs the link's own settings (the page's loop, no Streamlit). The CPU time is
measured and printed (pytest -s), never asserted: at the page's default pace (25 steps every
0.4 s) 1,000 steps take 16 s of the class's time, far inside the minute a class waits."""

import time

from playground.training import Trainer, settings_from_query

SPIRAL = ("data=spiral&layers=8,8&act=tanh&opt=adam&lr=0.03&features=x1,x2,sinx1,sinx2"
          "&reg=l2&rate=0.001")
"""The README's spiral link (after /train?)."""


def test_the_readme_spiral_link_fits_the_spiral_within_a_thousand_steps_and_stays():
    settings, ignored = settings_from_query(dict(p.split("=") for p in SPIRAL.split("&")))
    assert not ignored
    trainer = Trainer(settings)
    started = time.process_time()
    trainer.run(1_000)
    print(f"\nspiral link: 1,000 steps in {time.process_time() - started:.2f} s of CPU, test "
          f"accuracy {trainer.history[-1].test_accuracy:.0%}")
    assert trainer.history[-1].test_accuracy >= 0.88  # the README: about 90 %
    accuracies = []
    for _ in range(400):  # the README: 88 % on average over steps 1,000 to 1,400, each 80-92 %
        trainer.run(1)
        accuracies.append(trainer.history[-1].test_accuracy)
    assert min(accuracies) >= 0.80 and max(accuracies) <= 0.925, (min(accuracies),
                                                                    max(accuracies))
    assert 0.86 <= sum(accuracies) / len(accuracies) <= 0.90
    for _ in range(8):  # and it holds, without overfitting, for the next 2,000 steps
        trainer.run(250)
        assert trainer.history[-1].test_accuracy >= 0.80, trainer.steps
