"""The AI at run time: the processes that search, the compiled kernel they run and the tables
they read. The service asks for moves and hints through the pool; nothing here decides a rule.

- ``pool.py``: ``AIPool``, the worker processes every surface shares, and the levels.
- ``fair_queue.py``: ``FairQueue``, which hands the workers out in turn between players,
  live work (AI turns, hints) before background work.
- ``kernel_cache.py``: where numba keeps the compiled search, whether it is ready, and
  compiling it in the background (``python -m bot.ai_runtime.kernel_cache``).
- ``table_cache.py``: the wari and oware play tables, built once per machine in the
  background and mapped by every worker.
"""
