"""The pace shared by the trainers of one server: alone as before, a class slowed down fairly."""

import threading

import pytest

from playground.training.pace import Pace


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_one_trainer_alone_keeps_the_pages_own_rhythm():
    pace = Pace(clock=Clock())
    assert pace.interval() == 0.4
    assert pace.report("a", 0.02) == 0.4  # 2 x 0.02 s of 0.5 core: 0.08 s, under 0.4 s
    assert pace.active() == 1


def test_a_class_waits_for_what_all_its_updates_cost_on_half_a_core():
    pace = Pace(clock=Clock())
    for i in range(30):
        interval = pace.report(f"s{i}", 0.03)
    assert interval == pytest.approx(30 * 0.03 * 2.0 / 0.5)  # 3.6 s
    assert pace.interval() == interval


def test_the_interval_is_capped_and_smoothed():
    pace = Pace(clock=Clock())
    assert pace.report("a", 5.0) == 4.0  # max_s
    pace = Pace(clock=Clock())
    pace.report("a", 0.2)
    assert pace.report("a", 0.6) == pytest.approx((0.2 + 0.6) / 2 * 2.0 / 0.5)


def test_trainers_that_stopped_reporting_stop_counting():
    clock = Clock()
    pace = Pace(clock=clock)
    for i in range(10):
        pace.report(f"s{i}", 0.05)
    assert pace.interval() == pytest.approx(2.0)
    clock.now = 9.0
    pace.report("s0", 0.05)
    clock.now = 15.0  # s1..s9 last reported 15 s ago, s0 6 s ago
    assert pace.active() == 1
    assert pace.interval() == 0.4


def test_reports_from_many_threads_are_all_counted():
    pace = Pace(clock=Clock(), max_s=100.0, stale_s=1000.0)

    def report(start):
        for i in range(start, start + 100):
            pace.report(f"s{i}", 0.001)

    threads = [threading.Thread(target=report, args=(100 * k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert pace.active() == 800
    assert pace.interval() == pytest.approx(800 * 0.001 * 2.0 / 0.5)


def test_a_pace_whose_longest_wait_would_make_a_trainer_stale_is_refused():
    with pytest.raises(ValueError, match="max_s < stale_s"):
        Pace(max_s=20.0, stale_s=10.0)


def test_a_trainer_that_starts_counts_at_the_others_mean_cost_until_it_reports():
    pace = Pace(clock=Clock())
    assert pace.report("first") == pytest.approx(0.4)  # 0.1 s guessed: 0.2 s of half a core
    pace.report("first", 0.05)  # its own cost now: (0.1 + 0.1) / 2
    pace.report("second")
    assert pace.active() == 2
    assert pace.interval() == pytest.approx(2 * 0.1 / 0.5)
    assert pace.report("second") == pytest.approx(0.4)  # already counted: no change


def test_a_timer_a_quarter_away_from_the_pace_is_out_of_step_and_steps_scale_with_it():
    pace = Pace(clock=Clock())
    for i in range(10):
        pace.report(f"s{i}", 0.05)  # 2.0 s
    assert pace.out_of_step(0.4) and pace.out_of_step(2.7)
    assert not pace.out_of_step(1.7) and not pace.out_of_step(2.0)
    assert pace.steps(25, 2.0) == 125 and pace.steps(25, 0.4) == 25 and pace.steps(1, 0.1) == 1


def test_a_page_that_waits_longer_anyway_is_in_step_at_its_own_floor():
    """Reduced motion: a page alone (pace 0.4 s) whose timer is its floor of 2 s is in step;
    a class's pace over the floor still moves it."""
    pace = Pace(clock=Clock())
    pace.report("alone", 0.02)
    assert pace.out_of_step(2.0) and not pace.out_of_step(2.0, floor_s=2.0)
    for i in range(20):
        pace.report(f"s{i}", 0.05)  # 4.0 s (the most)
    assert pace.out_of_step(2.0, floor_s=2.0) and not pace.out_of_step(4.0, floor_s=2.0)


def test_a_trainer_asking_back_to_back_gets_no_more_than_its_pace_allows():
    clock = Clock()
    pace = Pace(clock=clock)
    granted = [pace.take("a", 25) for _ in range(100)]  # at once: the two updates in hand
    assert granted[:3] == [25, 25, 0] and sum(granted) == 50
    for _ in range(400):  # 10 s of reruns every 25 ms: 25 steps per 0.4 s, no more
        clock.now += 0.025
        granted.append(pace.take("a", 25))
    assert sum(granted) == 50 + 625
    assert max(granted[100:]) == 2  # 25 steps per 0.4 s come 1.5625 per 25 ms


def test_a_timer_that_fires_a_little_early_or_late_still_gets_whole_updates():
    clock = Clock()
    pace = Pace(clock=clock)
    granted = []
    for k in range(50):
        clock.now += 0.4 + (-0.03 if k % 2 else 0.03)
        granted.append(pace.take("a", 25))
    assert granted == [25] * 50


def test_steps_a_trainer_could_not_take_in_time_are_given_back():
    clock = Clock()
    pace = Pace(clock=clock)
    assert pace.take("a", 100) == 100
    pace.give_back("a", 60)  # its time budget ran out after 40
    assert pace.take("a", 100) == 100 and pace.take("a", 100) == 60
    assert pace.take("a", 100) == 0


def test_two_trainers_have_their_own_allowance_and_a_busy_server_grants_bigger_updates():
    clock = Clock()
    pace = Pace(clock=clock)
    assert pace.take("a", 25) == 25 and pace.take("b", 25) == 25
    for i in range(29):
        pace.report(f"s{i}", 0.05)  # the interval is now 4 s: an update is ten times 25 steps
    clock.now += 4.0
    assert pace.take("a", 25) == 250
