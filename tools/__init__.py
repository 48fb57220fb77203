"""Tools that make the build's assets (run by hand, never imported by the server)."""
