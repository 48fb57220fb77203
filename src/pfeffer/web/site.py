"""Where the server is served (issue 20, 1.10): the public URL, the addresses it is bound to,
and the other sites whose pages may open its WebSockets. The request's ``Host`` header is
only believed where it names one of these: invite links and QR codes never carry a host
the client made up, and a page elsewhere cannot play or watch through its visitors.

>>> site = Site.for_server("0.0.0.0", 8000, ["192.168.1.5"])
>>> site.link_base("http", "192.168.1.5:8000"), site.link_base("http", "evil.example")
('http://192.168.1.5:8000', 'http://192.168.1.5:8000')
>>> site.origin_allowed("http://192.168.1.5:8000", "192.168.1.5:8000")
True
>>> site.origin_allowed("https://evil.example", "192.168.1.5:8000")
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from urllib.parse import urlsplit

from pfeffer.core.errors import TranslatableError

LOOPBACK = ("localhost", "127.0.0.1", "[::1]")  # as a browser writes them in a Host header
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def origin_of(url: str, what: str = "an origin") -> str:
    """``scheme://host[:port]`` of ``url``, lower case, without a default port; ValueError if
    it is not an http(s) address without a path (``https://pfeffer.example``)."""
    parts = urlsplit(url.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
    ):
        raise TranslatableError.format(
            "{what} is http(s)://host[:port] without a path (got {url})", what=what, url=repr(url)
        )
    try:
        port = parts.port
    except ValueError:
        raise TranslatableError.format(
            "{what} has a bad port (got {url})", what=what, url=repr(url)
        ) from None
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    if port is not None and port != DEFAULT_PORTS[parts.scheme]:
        host = f"{host}:{port}"
    return f"{parts.scheme}://{host}"


def _host(host: str, port: int) -> list[str]:
    """How a browser writes ``host:port`` in ``Host`` and ``Origin`` (no port when it is 80 or
    443, the default of http or https)."""
    host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return [f"{host}:{port}", host] if port in (80, 443) else [f"{host}:{port}"]


@dataclasses.dataclass(frozen=True)
class LocalOnly:
    """A server bound to this machine only (``pfeffer serve`` without ``--host``, issue 22 §2):
    phones cannot open its links or QR codes. ``command`` starts it for the network instead;
    ``lan_url`` is where phones open it then (this machine's LAN address; None: none found).

    >>> LocalOnly.of(8000, ["192.168.1.5"])
    LocalOnly(command='pfeffer serve --host 0.0.0.0', lan_url='http://192.168.1.5:8000')
    >>> LocalOnly.of(8123, [], "https").command
    'pfeffer serve --host 0.0.0.0 --port 8123'
    """

    command: str
    lan_url: str | None = None

    @classmethod
    def of(cls, port: int, addresses: Sequence[str], scheme: str = "http") -> LocalOnly:
        command = "pfeffer serve --host 0.0.0.0" + ("" if port == 8000 else f" --port {port}")
        lan = f"{scheme}://{addresses[0]}:{port}" if addresses else None
        return cls(command, lan)

    def to_env(self) -> str:
        """As one environment variable, for the worker processes (``from_env`` reads it)."""
        return f"{self.command}\n{self.lan_url or ''}"

    @classmethod
    def from_env(cls, text: str) -> LocalOnly | None:
        """``to_env``'s text read back; None for an empty one (not bound to loopback).

        >>> LocalOnly.from_env(LocalOnly.of(8000, ["10.0.0.2"]).to_env())
        LocalOnly(command='pfeffer serve --host 0.0.0.0', lan_url='http://10.0.0.2:8000')
        """
        command, _, lan = text.partition("\n")
        return cls(command, lan or None) if command else None


def only_here(base: str) -> bool:
    """Whether links starting with ``base`` (``http://127.0.0.1:8000``) open on this machine
    only: a phone cannot reach localhost."""
    return _name(base.split("://", 1)[-1].lower()) in LOOPBACK


@dataclasses.dataclass(frozen=True)
class Site:
    """Where the server is served. ``hosts``: ``host[:port]`` as a browser writes them for this
    server (None: not known, for an app built outside ``pfeffer serve``, as in tests: the
    request's own ``Host`` is then believed). ``lan_url``: the address phones on the network
    use; ``public_url``: where players reach it (``--public-url``); ``origins``: other sites
    whose pages may open WebSockets (``--allowed-origin``); ``local_only``: bound to this
    machine only, and how to let phones in (the host page says so)."""

    hosts: tuple[str, ...] | None = None
    lan_url: str | None = None
    public_url: str | None = None
    origins: frozenset[str] = frozenset()
    local_only: LocalOnly | None = None

    @classmethod
    def for_server(
        cls,
        host: str,
        port: int,
        addresses: Sequence[str] = (),
        *,
        lan_url: str | None = None,
        public_url: str | None = None,
        origins: Iterable[str] = (),
        network: Sequence[str] = (),
        scheme: str = "http",
    ) -> Site:
        """The site of ``pfeffer serve --host HOST --port PORT``: on every address (``0.0.0.0``)
        the machine's LAN ``addresses`` and loopback, else the one it is bound to. Bound to
        loopback without a public URL, it is ``local_only``: ``network`` are the machine's LAN
        addresses phones would open it at with ``--host 0.0.0.0``."""
        names: list[str]
        if host in ("0.0.0.0", "", "::"):
            names = [*addresses, *LOOPBACK]
        elif host in ("127.0.0.1", "localhost", "::1"):
            names = list(LOOPBACK)
        else:
            names = [host]
        hosts = tuple(h.lower() for name in names for h in _host(name, port))
        public = origin_of(public_url, "--public-url") if public_url else None
        allowed = {origin_of(o, "--allowed-origin") for o in origins}
        if public:
            allowed.add(public)
        local = None
        if host in ("127.0.0.1", "localhost", "::1") and not public:
            local = LocalOnly.of(port, network, scheme)
        return cls(hosts, lan_url, public, frozenset(allowed), local)

    def serves(self, host: str) -> bool:
        """Whether ``host`` (a ``Host`` header) names this server."""
        return self.hosts is None or host.lower() in self.hosts

    def link_base(self, scheme: str, host: str) -> str:
        """The start of an invite link (``http://192.168.1.5:8000``) for a request with
        ``Host: host``: the public URL if there is one; else the request's address if it is
        one this server is served under (localhost: the LAN address, which a phone can open);
        else the LAN address (or the first address the server is served under)."""
        if self.public_url:
            return self.public_url
        name = host.lower()
        if self.serves(name) and not (self.lan_url and _name(name) in LOOPBACK):
            return f"{scheme}://{name}"
        if self.lan_url:
            return self.lan_url.rstrip("/")
        return f"{scheme}://{self.hosts[0] if self.hosts else name}"

    def origin_allowed(self, origin: str | None, host: str) -> bool:
        """Whether a WebSocket from a page of ``origin`` (its ``Origin`` header; None: sent by
        a program, not a browser) to this server, asked for as ``Host: host``, is taken: a
        page of this server (the origin's host is the request's and one the server is served
        under) or of a listed site (``--allowed-origin``, ``--public-url``)."""
        if origin is None:
            return True
        try:
            canonical = origin_of(origin)
        except ValueError:
            return False  # "null" (a sandboxed frame, a file) and anything malformed
        if canonical in self.origins:
            return True
        own = canonical.split("://", 1)[1]
        return own == _strip_default(host.lower(), canonical) and self.serves(host)


def _strip_default(host: str, origin: str) -> str:
    """``host`` without the default port of ``origin``'s scheme (browsers leave it out)."""
    port = DEFAULT_PORTS[origin.split("://", 1)[0]]
    return host.removesuffix(f":{port}")


def _name(host: str) -> str:
    """The host name of a ``Host`` header, without its port (``[::1]:8000`` → ``[::1]``)."""
    return host.rsplit(":", 1)[0] if host.rfind(":") > host.rfind("]") else host
