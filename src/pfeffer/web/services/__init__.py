"""The server's services: live tables (``tables``), what one table holds in memory (``live``) and
the computer players (``bots``). Nothing here knows a request; routes call in, clients are
anything that can be sent JSON."""
