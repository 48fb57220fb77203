"""The shapes of what crosses the web's edges, as pydantic models: the REST bodies and answers
(``rest``) and the WebSocket messages of protocol v1 (``ws``). Routes validate with them; the
models know no request, service or engine."""
