"""The middleware around every request: rate and size limits (``limits``), the CSRF check of
forms (``csrf``) and the security headers (``security``). They know no table and no engine."""
