"""Hostile input and hostile conditions: generated command lines, sources, cubins, code objects,
cache states and model endpoints thrown at cass-cc, each run bounded in time, each outcome sorted.

Every family is one module with a `command` (a click command registered under `cass-data hostile`)
and a `run(count, seed, ...)` giving its Tally; `common.finish` ends every command the same way. The outcomes that fail a run are the same everywhere
(common.FAILURES): a Python traceback or "internal error" on stderr, a run past its time limit, and,
where a family has a truth (nvcc for command lines), an exit status the truth does not give.
"""
