"""Invites: QR codes of seat links (inline SVG, drawn by ``segno`` on the server) and what
``pfeffer serve`` prints so that phones at the table join by scanning.

>>> svg = qr_svg("http://192.168.1.5:8000/play/t/k")
>>> svg.startswith('<svg data-url="http://192.168.1.5:8000/play/t/k" ') and "<script" not in svg
True
>>> "10.1.2.3" in serve_text("0.0.0.0", 8000, ["10.1.2.3"])
True
"""

from __future__ import annotations

import io
import ipaddress
import socket

import segno
from markupsafe import escape

from pfeffer.core.i18n import translations

QR_BORDER = 2  # modules of quiet zone around the code (the page behind it is white too)


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as inline SVG: ``segno.make(url)``, black on white, sized by CSS
    (a viewBox, no width or height), the URL itself in ``data-url``."""
    qr = segno.make(url)
    svg: str = qr.svg_inline(
        border=QR_BORDER, omitsize=True, svgclass="qr", lineclass="qr-dark", light="#fff"
    )
    return svg.replace("<svg ", f'<svg data-url="{escape(url)}" aria-hidden="true" ', 1)


def qr_text(url: str) -> str:
    """The QR code of ``url`` drawn with block characters for a terminal (two rows a line)."""
    out = io.StringIO()
    segno.make(url).terminal(out=out, compact=True, border=QR_BORDER)
    return out.getvalue()


def _usable(address: str) -> bool:
    ip = ipaddress.IPv4Address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses, private ones first, found without sending
    anything: the addresses its own host name resolves to, and the source address the system
    would use for a private network address (``connect`` on a UDP socket sends no packet)."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    except OSError:
        pass
    for probe in ("10.255.255.255", "172.31.255.255", "192.168.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.add(str(s.getsockname()[0]))
        except OSError:
            pass
    usable = [a for a in found if _usable(a)]
    return sorted(usable, key=lambda a: (not ipaddress.IPv4Address(a).is_private, a))


def machine_names() -> list[str]:
    """This machine's own names a phone may open it by (``pi``, ``pi.local`` over mDNS)."""
    name = socket.gethostname().lower()
    if not name or name == "localhost":
        return []
    return [name] if "." in name else [name, f"{name}.local"]


def lan_url(
    host: str, port: int, addresses: list[str] | None = None, scheme: str = "http"
) -> str | None:
    """The URL phones on the network open, or None when the server listens on this machine
    only (or no address was found). ``scheme`` is ``https`` when the server has a certificate."""
    if host in ("0.0.0.0", ""):
        found = lan_addresses() if addresses is None else addresses
        return f"{scheme}://{found[0]}:{port}" if found else None
    if host in ("127.0.0.1", "localhost", "::1"):
        return None
    return f"{scheme}://{host}:{port}"


def serve_text(
    host: str,
    port: int,
    addresses: list[str] | None = None,
    scheme: str = "http",
    lang: str = "en",
) -> str:
    """What ``pfeffer serve`` prints about where to open the game, in ``lang``: the local URL
    and, when it listens on the network, every LAN address and a QR code of the first.

    ``addresses`` defaults to :func:`lan_addresses`; ``scheme`` is ``https`` when the server
    was started with a certificate (``--ssl-certfile``).

    >>> serve_text("127.0.0.1", 8000, lang="de").splitlines()[0]
    'Pfeffer läuft: Öffne http://localhost:8000/ auf diesem Rechner.'
    """
    _ = translations(lang).gettext
    local = "localhost" if host in ("127.0.0.1", "0.0.0.0", "", "::1") else host
    lines = [
        _("Pfeffer is running: open %(url)s on this machine.")
        % {"url": f"{scheme}://{local}:{port}/"}
    ]
    if host in ("127.0.0.1", "localhost", "::1"):
        lines.append(
            _("Only this machine can join; use --host 0.0.0.0 to let phones on the network in.")
        )
        return "\n".join(lines) + "\n"
    found = (
        (lan_addresses() if addresses is None else addresses) if host in ("0.0.0.0", "") else [host]
    )
    if not found:
        lines.append(
            _(
                "No network address found: look up this machine's address (ip addr, ipconfig) "
                "and open %(url)s on the phones."
            )
            % {"url": f"{scheme}://<address>:{port}/"}
        )
        return "\n".join(lines) + "\n"
    lines.append(_("Phones and computers on the same network open:"))
    lines += [f"  {scheme}://{a}:{port}/" for a in found]
    url = f"{scheme}://{found[0]}:{port}/"
    lines.append(_("or scan this code with a phone's camera (%(url)s):") % {"url": url})
    if scheme == "http":
        lines.append(
            _(
                "(Over plain http the score sheets do not work offline on the phones; "
                "see --ssl-certfile.)"
            )
        )
    return "\n".join(lines) + "\n" + qr_text(url)
