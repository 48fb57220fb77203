"""The server's routes, one FastAPI router per area: ``tables`` (the JSON API of tables),
``sheets`` (score sheets: API and pages), ``pages`` (the HTML pages) and ``ws`` (live play).
``deps`` holds what they share: the store, the hub, the settings, the host's checks."""
