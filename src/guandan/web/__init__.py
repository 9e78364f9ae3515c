"""The browser: a table where a person plays one seat against bots, and a replay viewer for
every game record the package writes (``guandan web``, ``guandan serve --web``).

* :mod:`~guandan.web.timeline` — a record, replayed and checked, as the viewer's timeline:
  every deal's hands and every action with the table it leaves (whose turn, the trick);
* :mod:`~guandan.web.assist` — what the page asks its server besides the game: a record's
  timeline, the records of a directory, the search bot's hint, how the cards of an action
  are declared (sans-I/O);
* :mod:`~guandan.web.pages` — the page and its assets (plain ES modules shipped with the
  package), served with their content types;
* :mod:`~guandan.web.answers` — the plain HTTP answers and what the server reads of a path;
* :mod:`~guandan.web.watch` — the spectators of a table;
* :mod:`~guandan.web.reclaim` — a page taking its seat back with its secret;
* :mod:`~guandan.web.server` — :class:`~guandan.web.server.WebServer`, a platform server
  whose hooks also serve the page (its bots' protocol unchanged), and
  :class:`~guandan.web.server.WebGame`, a table of bots and one seat for a person (in a
  thread of its own: :func:`~guandan.web.server.start_web`).

The page is a client of the platform protocol like any bot: it speaks the same WebSocket
JSON at ``/game/{name}`` (and, reloaded during its game, takes its seat back with the
seat's secret); a spectator's page watches a table's public messages at ``/watch/T``.
"""
