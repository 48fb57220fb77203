"""The server's services: the live tables and their API (``tables.Hub``), one table in memory
(``live``), what the pages read (``lobby``), score sheets (``sheets``), seats, hints, reviews,
the computer players (``bots``) and the sync between processes (``sync``, ``bus``). Nothing
here knows a request or imports a route; routes call in, clients are anything that can be sent
JSON; the engines are reached through ``web.adapters`` only."""
