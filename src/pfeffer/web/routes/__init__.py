"""The routes, HTTP and WebSocket only, one FastAPI router per area: ``tables`` (the JSON API of
tables), ``sheets`` (score sheets: API and pages), ``pages`` (the HTML pages), ``ws`` (live
play), ``device``, ``strategy``, ``pwa``, ``ops``. ``deps`` holds what they share: the services,
the settings, the host's checks. A route calls services, never the store or the fan-out."""
