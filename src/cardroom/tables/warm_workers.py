"""Imported by the bot workers' fork server only: loads the bots' code and compiles the
search once in that process, so that every worker forked from it starts warm.

Each worker used to be a fresh interpreter that imported the bots and loaded the compiled
search itself (about 1.2 s of a core each): two at every server start, and one more for
every worker replaced after an overrun, while a table waited for it. Importing this module
is what :func:`multiprocessing.set_forkserver_preload` can ask of the fork server.
"""

from cardroom.tables.workers import warm_up

warm_up()
