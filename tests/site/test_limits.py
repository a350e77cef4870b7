"""ascend_dsa.site.limits: a block may run so long and print so much, and no longer or more."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from ascend_dsa.site.limits import Limits, OutputLimitExceeded, TimeLimitExceeded, time_limit


def _forever() -> None:
    while True:
        pass


def _careless_sleep() -> None:
    """What a careless block does: swallow every Exception."""
    try:
        time.sleep(5)
    except Exception as error:  # noqa: BLE001
        print(error)  # noqa: T201 - never reached: the limit is no Exception


def test_code_running_past_the_limit_is_stopped() -> None:
    """A loop that never ends is interrupted after the limit with a message naming what and the limit."""
    start = time.monotonic()
    message = r"docs/x\.md: block 'b' ran for more than its time limit of 0\.2 s"
    with pytest.raises(TimeLimitExceeded, match=message), time_limit(0.2, "docs/x.md: block 'b'"):
        _forever()
    assert time.monotonic() - start < 5


def test_the_previous_alarm_is_restored() -> None:
    """After the body, no timer runs and the alarm handler is the one before."""

    def before(signum: int, frame: object) -> None:
        del signum, frame

    previous = signal.signal(signal.SIGALRM, before)
    try:
        with time_limit(5, "x"):
            pass
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        assert signal.getsignal(signal.SIGALRM) is before
    finally:
        signal.signal(signal.SIGALRM, previous)


def test_the_limit_cannot_be_swallowed_by_the_code() -> None:
    """``except Exception`` in the block does not catch the limit: it is not an Exception."""
    with pytest.raises(TimeLimitExceeded), time_limit(0.1, "x"):
        _careless_sleep()


def test_outside_the_main_thread_the_body_runs_unlimited() -> None:
    """Signals reach only the main thread: elsewhere the body runs as it is."""
    ran = []

    def body() -> None:
        with time_limit(0.01, "x"):
            time.sleep(0.05)
        ran.append(True)

    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert ran == [True]


def test_output_over_the_limit_is_refused_naming_its_size() -> None:
    """Output larger than the limit raises with its size and the limit; output within it passes."""
    limits = Limits(output_bytes=10)
    limits.check_output("é" * 5, "x")  # 10 bytes in UTF-8
    with pytest.raises(OutputLimitExceeded, match=r"x produced 12 bytes of output, over the limit of 10 bytes"):
        limits.check_output("é" * 6, "x")


@pytest.mark.parametrize(
    ("time_s", "output_bytes", "error"),
    [
        (0, 1, ValueError),
        (-1, 1, ValueError),
        (1e9, 1, ValueError),
        (1, 0, ValueError),
        (1, 1.5, TypeError),
        (True, 1, TypeError),
        ("5", 1, TypeError),
    ],
)
def test_limits_must_be_positive_numbers(time_s: float, output_bytes: int, error: type[Exception]) -> None:
    """A limit that is not a positive number is refused naming it."""
    with pytest.raises(error, match="limit must be"):
        Limits(time_s, output_bytes)
