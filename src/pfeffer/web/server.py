"""The web server: lobby, tables, live play over WebSockets, score sheets, history and replays.

``create_app(db_url, bot_delay=...)`` builds the FastAPI app (``app.py``). Game logic lives in the
engines; the server only routes: it checks who holds a seat, asks the table (a game with its
adapter, ``adapters/games.py``) to apply an action for that seat, commits the accepted action to the
database and only then sends every connected client a frame built from ``view(seat)``
(spectators: ``view(None)``). This module keeps the names the CLI, tests and docs import; the
layers are described in ``app.py`` and docs/web.md ("Server layers").
"""

from __future__ import annotations

from pfeffer.web.app import create_app
from pfeffer.web.render import js_strings
from pfeffer.web.routes.deps import TABLE_TTL
from pfeffer.web.services.tables import Hub, Live

__all__ = ["TABLE_TTL", "Hub", "Live", "create_app", "js_strings"]
