"""The adapters: the only part of the web that touches an engine (``pfeffer.dice``,
``pfeffer.pepper``). ``games`` binds each engine's game to the server's ``Table``
(views, legal actions, bots, records), ``advisor`` and ``review`` ask the solvers,
``sheets`` keeps score sheets by the engines' sheet rules, ``pepper_table`` names the cards.
The services call them; a route never does (pyproject.toml ``[tool.importlinter]``)."""
