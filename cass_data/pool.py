"""Running one stage over many items: a process pool with a progress bar (default), or Ray
(`--ray ADDRESS`, `--ray local`). Results come back to the parent, which writes each to the
store as it arrives; one item's exception is that item's rejection ("internal error"), never
the run's end. The order of results is the order of the items, whatever finished first.
"""
from __future__ import annotations

import sys
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Callable, Iterator, Sequence

Job = tuple[str, tuple[Any, ...]]  # (stage function name, its arguments)


def call(name: str, args: tuple[Any, ...]) -> dict[str, Any]:
    from . import stages

    try:
        return getattr(stages, name)(*args)
    except Exception as e:  # one item's bug must not end the run; not stored, so retried next run
        tail = "".join(traceback.format_exception(type(e), e, e.__traceback__))[-1500:]
        return {"ok": False, "reason": "internal error", "detail": tail, "internal": True}


def run_jobs(jobs: Sequence[Job], workers: int, ray: str | None = None, label: str = "",
             progress: bool | None = None, on_result: Callable[[int, dict[str, Any]], None] | None = None
             ) -> list[dict[str, Any]]:
    """Run every job; `on_result(index, result)` as each completes; results in job order."""
    results: list[dict[str, Any] | None] = [None] * len(jobs)
    show = sys.stderr.isatty() if progress is None else progress
    stream = _ray(jobs, workers, ray) if ray else _processes(jobs, workers)
    bar = _bar(len(jobs), label) if show and jobs else None
    try:
        for index, result in stream:
            results[index] = result
            if on_result is not None:
                on_result(index, result)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.render_finish()
    return [r if r is not None else {"ok": False, "reason": "internal error", "internal": True} for r in results]


def _bar(total: int, label: str) -> Any:
    import click

    bar = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True)
    bar.__enter__()
    return bar


def _processes(jobs: Sequence[Job], workers: int) -> Iterator[tuple[int, dict[str, Any]]]:
    if workers <= 1:
        for i, (name, args) in enumerate(jobs):
            yield i, call(name, args)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        # At most 2 per worker submitted ahead: a kill loses only what is in flight.
        pending: dict[Any, int] = {}
        it = iter(enumerate(jobs))
        for i, (name, args) in it:
            pending[pool.submit(call, name, args)] = i
            if len(pending) >= 2 * workers:
                break
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                i = pending.pop(fut)
                try:
                    result = fut.result()
                except Exception as e:  # a worker died (memory, signal)
                    result = {"ok": False, "reason": "internal error", "detail": f"worker: {e}", "internal": True}
                yield i, result
                nxt = next(it, None)
                if nxt is not None:
                    pending[pool.submit(call, nxt[1][0], nxt[1][1])] = nxt[0]


def _ray(jobs: Sequence[Job], workers: int, address: str) -> Iterator[tuple[int, dict[str, Any]]]:
    import ray

    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=max(workers, 1), include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    remote = ray.remote(num_cpus=1)(call)
    refs = {remote.remote(name, args): i for i, (name, args) in enumerate(jobs)}
    pending = list(refs)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            try:
                result = ray.get(ref)
            except Exception as e:
                result = {"ok": False, "reason": "internal error", "detail": f"ray: {e}", "internal": True}
            yield refs[ref], result
