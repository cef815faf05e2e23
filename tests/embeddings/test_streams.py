"""The model's streams: callers' batches before the background's, results and errors by
future."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from functools import partial

import pytest

from langgraph_memory.core.concurrency import in_background, mark_background
from langgraph_memory.embeddings.streams import Streams


def test_callers_batches_go_ahead_of_the_background_threads() -> None:
    """Batches queued from a background thread (the worker's) wait while any other
    caller's wait; within each, first come, first served."""
    streams = Streams(1, "test-stream")
    release = threading.Event()
    ran: list[str] = []
    futures: list[Future[object]] = []

    def background(name: str, n: int) -> None:
        mark_background()
        futures.extend(streams.run([partial(ran.append, f"{name}{i}") for i in range(n)]))

    try:
        futures += streams.run([partial(release.wait, 10)])  # the one thread is busy
        for name, n in (("window", 3), ("rest", 1)):
            thread = threading.Thread(target=background, args=(name, n))
            thread.start()
            thread.join()
        futures += streams.run([partial(ran.append, f"read{i}") for i in range(2)])
        futures += streams.run([partial(ran.append, "query")])
        assert not in_background()  # the mark stays with the thread that made it
        release.set()
        for f in futures:
            f.result(10)
    finally:
        streams.shutdown()
    assert ran == ["read0", "read1", "query", "window0", "window1", "window2", "rest0"]


def test_results_and_errors_come_back_through_the_futures() -> None:
    streams = Streams(2, "test-stream")
    try:
        ok, bad = streams.run([lambda: 41 + 1, lambda: 1 / 0])
        assert ok.result(10) == 42
        with pytest.raises(ZeroDivisionError):
            bad.result(10)
        assert streams.run([lambda: "still serving"])[0].result(10) == "still serving"
    finally:
        streams.shutdown()


def test_shutdown_runs_what_is_queued_then_stops_the_threads() -> None:
    streams = Streams(2, "test-stream-stop")
    futures = streams.run([partial(pow, 2, i) for i in range(6)])
    streams.shutdown()
    assert [f.result(10) for f in futures] == [1, 2, 4, 8, 16, 32]
    for thread in list(streams._pool._threads):
        thread.join(10)
        assert not thread.is_alive()


def test_an_encoder_dropped_without_shutdown_lets_its_threads_go() -> None:
    import gc

    streams = Streams(2, "test-stream-dropped")
    assert [f.result(10) for f in streams.run([lambda: 1, lambda: 2])] == [1, 2]
    threads = list(streams._pool._threads)
    assert threads
    del streams
    gc.collect()
    for thread in threads:
        thread.join(10)
        assert not thread.is_alive()


def test_workers_must_be_positive() -> None:
    with pytest.raises(ValueError, match="workers must be at least 1"):
        Streams(0, "none")
