"""Who may use the web UI of a server on the person's own machine, without any I/O: the
``Host`` allow-list, the same-origin rule for WebSockets, the secret token beyond loopback,
and the headers every answer carries.

A web server on ``127.0.0.1`` is reachable from every page the person's browser opens. A
foreign page can open a WebSocket to it (browsers do not apply the same-origin policy to
WebSockets; they only say, in ``Origin``, which page asks), and a foreign name can be made
to resolve to ``127.0.0.1`` (DNS rebinding: the browser then believes the server *is* that
site and sends ``Host: evil.example``). So, as notebook servers do:

* **Host allow-list.** Every request names in ``Host`` one of ``127.0.0.1``, ``localhost``,
  ``[::1]`` or the address the server was told to listen on (``--host``), with the server's
  port; anything else is refused (403) — the answer to DNS rebinding. A server listening on
  every interface (``--host 0.0.0.0``, ``::`` or ``""``) also accepts its machine's name and
  any address written as numbers: a page can only be at such an origin by being this server's
  own page, and the token guards the rest.
* **Same origin.** A WebSocket handshake that carries ``Origin`` (every browser's does) is
  refused (403) unless that origin is the page's own (``http://`` + the request's ``Host``)
  or one the person allowed (``--allow-origin``). A handshake without ``Origin`` comes from a
  program, not a page: a bot of the protocol, which keeps its seat as before.
* **A secret beyond loopback.** A server that listens on anything but a loopback address makes
  a random token and prints its page's URL with ``?token=…``; requests without the token (in
  the query, a ``Authorization: token …`` header, or the cookie the page's first answer sets)
  are refused (403), but for the page's static files and the protocol's bot seats.
* **Headers.** Every answer says ``Content-Security-Policy`` (scripts, styles, images and
  sockets from the server itself only, nothing inline, no framing), ``X-Frame-Options: DENY``,
  ``Referrer-Policy: no-referrer``, ``X-Content-Type-Options: nosniff`` and
  ``Cache-Control: no-cache``.

>>> guard = Guard.for_server("127.0.0.1", 8765)
>>> guard.host_problem("localhost:8765"), guard.host_problem("evil.example:8765") is not None
(None, True)
>>> guard.origin_problem("http://evil.example", "127.0.0.1:8765") is not None
True
>>> guard.origin_problem("http://127.0.0.1:8765", "127.0.0.1:8765"), guard.token is None
(None, True)
"""

from __future__ import annotations

import contextlib
import ipaddress
import secrets
import socket
from collections.abc import Iterable
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs, urlsplit

from ..errors import GuandanError, describe

__all__ = [
    "Guard",
    "SECURITY_HEADERS",
    "content_security_policy",
    "is_loopback",
    "parse_host",
]

#: The policy of every answer: the page's scripts, styles and images from the server itself,
#: no inline script or style, sockets to the server itself only, no framing, no plugin, forms
#: only to the server.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

#: The headers every answer of the web UI carries, besides its content type and length.
SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}

_WILDCARDS = ("", "0.0.0.0", "::")
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
#: The static files of the page: no secret in them, so served without the token.
_STATIC_SUFFIXES = (".js", ".css", ".svg", ".ico", ".png")


def content_security_policy() -> str:
    """The ``Content-Security-Policy`` of every answer.

    >>> "frame-ancestors 'none'" in content_security_policy(), "'unsafe-inline'" in content_security_policy()
    (True, False)
    """
    return CSP


def is_loopback(host: str) -> bool:
    """Whether a listening address is a loopback one (``127.0.0.0/8``, ``::1``, ``localhost``);
    a wildcard (``""``, ``0.0.0.0``, ``::``) is not: it listens on every interface.

    >>> is_loopback("127.0.0.1"), is_loopback("[::1]"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, True, False)
    """
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_host(header: str) -> tuple[str, int | None]:
    """A ``Host`` header's name (lower case, an IPv6 address without brackets) and port
    (``None`` when it gives none); :class:`~guandan.GuandanError` when it is not a host.

    >>> parse_host("LocalHost:8765"), parse_host("[::1]:80"), parse_host("example.org")
    (('localhost', 8765), ('::1', 80), ('example.org', None))
    """
    header = header.strip()
    if not header or any(c.isspace() or c in "/?#@\\" for c in header):
        raise GuandanError(f"not a host: {describe(header)}")
    if header.startswith("["):
        end = header.find("]")
        if end < 0:
            raise GuandanError(f"not a host: {describe(header)}")
        name, rest = header[1:end], header[end + 1 :]
        if rest and not rest.startswith(":"):
            raise GuandanError(f"not a host: {describe(header)}")
        port_text = rest[1:] if rest else None
    elif header.count(":") == 1:
        name, port_text = header.split(":")
    elif ":" in header:
        raise GuandanError(f"not a host: {describe(header)} (an IPv6 address goes in brackets)")
    else:
        name, port_text = header, None
    port = None
    if port_text is not None:
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise GuandanError(f"not a host: {describe(header)} (its port)")
        port = int(port_text)
    return name.lower(), port


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _machine_names() -> set[str]:
    names = set()
    with contextlib.suppress(OSError):
        names.add(socket.gethostname().lower())
        names.add(socket.getfqdn().lower())
    return {n for n in names if n}


@dataclass(frozen=True)
class Guard:
    """What a server's web UI lets in (see the module's description): ``port`` the server's,
    ``hosts`` the names ``Host`` may give, ``any_address`` whether any numeric address may be
    given too (a server listening on every interface), ``origins`` the origins allowed besides
    the page's own (``"*"``: any), ``token`` the secret (``None``: none needed).

    >>> guard = Guard.for_server("0.0.0.0", 23456, token="s3cret")
    >>> guard.host_problem("192.168.1.20:23456"), guard.host_problem("evil.example:23456") is not None
    (None, True)
    >>> guard.token_problem("/status.json", {}) is not None, guard.token_problem("/status.json?token=s3cret", {})
    (True, None)
    """

    port: int
    hosts: frozenset[str]
    any_address: bool = False
    origins: frozenset[str] = frozenset()
    token: str | None = None

    @classmethod
    def for_server(
        cls,
        host: str,
        port: int,
        *,
        allow_origins: Iterable[str] = (),
        allow_hosts: Iterable[str] = (),
        token: str | bool | None = None,
    ) -> Guard:
        """The guard of a server listening on ``host``:``port``. ``allow_origins``: origins
        (``http://host:port``) whose pages may open the UI's sockets too, or ``"*"``;
        ``allow_hosts``: more names ``Host`` may give (a name the machine is known by);
        ``token``: the secret, ``True`` to make one, ``None`` to make one exactly when
        ``host`` is not a loopback address, ``False`` for none (a loopback server only).

        >>> Guard.for_server("127.0.0.1", 1).token is None, len(Guard.for_server("10.0.0.5", 1).token or "")
        (True, 32)
        >>> Guard.for_server("10.0.0.5", 1, token=False)
        Traceback (most recent call last):
        ...
        guandan.errors.GuandanError: a server listening beyond loopback (10.0.0.5) needs its token
        """
        wildcard = host in _WILDCARDS
        hosts = set(_LOOPBACK_NAMES)
        if not wildcard:
            hosts.add(host.strip("[]").lower())
        else:
            hosts |= _machine_names()
        for name in allow_hosts:
            if not isinstance(name, str) or not name or any(c.isspace() for c in name):
                raise GuandanError(f"--allow-host takes a host name, got {describe(name)}")
            hosts.add(name.strip("[]").lower())
        origins = set()
        for origin in allow_origins:
            origins.add(_normal_origin(origin))
        loopback = is_loopback(host)
        if token is None:
            token = not loopback
        if token is False and not loopback:
            raise GuandanError(f"a server listening beyond loopback ({host or 'every interface'}) needs its token")
        secret = secrets.token_hex(16) if token is True else (token or None)
        return cls(port, frozenset(hosts), wildcard, frozenset(origins), secret)

    @property
    def cookie_name(self) -> str:
        """The cookie that carries the token (cookies are shared across ports: the port is in the name)."""
        return f"guandan-token-{self.port}"

    def host_problem(self, header: str | None) -> str | None:
        """Why a request's ``Host`` is refused, or ``None`` when it is allowed."""
        if header is None:
            return "the request names no Host"
        try:
            name, port = parse_host(header)
        except GuandanError as error:
            return str(error)
        if (port if port is not None else 80) != self.port:
            return f"Host {header!r} names another port than the server's ({self.port})"
        if name in self.hosts or (self.any_address and _is_address(name)):
            return None
        return f"Host {header!r} is not this server (a page of another site reached it: refused)"

    def origin_problem(self, origin: str | None, host_header: str | None) -> str | None:
        """Why a WebSocket handshake's ``Origin`` is refused, or ``None``: no ``Origin`` (a
        program, not a page), the page's own origin or one allowed."""
        if origin is None:
            return None
        if "*" in self.origins:
            return None
        try:
            normal = _normal_origin(origin)
        except GuandanError:
            return f"Origin {origin!r} is not this server's page"
        if normal in self.origins:
            return None
        if host_header is not None:
            try:
                name, port = parse_host(host_header)
            except GuandanError:
                return f"Origin {origin!r} is not this server's page"
            own = _normal_origin(f"http://{_bracket(name)}:{port if port is not None else 80}")
            if normal == own:
                return None
        return f"Origin {origin!r} is not this server's page (a page of another site: refused)"

    def token_problem(self, path: str, headers: dict[str, str]) -> str | None:
        """Why a request lacks the token, or ``None`` (no token needed, or it carries it).
        ``headers``: its ``Cookie`` and ``Authorization`` (absent ones left out)."""
        if self.token is None:
            return None
        if self.token_given(path, headers):
            return None
        return "this server needs its token: open the page's URL the server printed, with ?token=…"

    def token_given(self, path: str, headers: dict[str, str]) -> bool:
        """Whether a request carries the token (in its query, ``Authorization`` or cookie)."""
        if self.token is None:
            return False
        given = parse_qs(urlsplit(path).query).get("token", [])
        auth = headers.get("Authorization", "")
        if auth.lower().startswith("token "):
            given.append(auth[6:].strip())
        cookie = headers.get("Cookie")
        if cookie:
            jar: SimpleCookie = SimpleCookie()
            with contextlib.suppress(CookieError):
                jar.load(cookie)
            if self.cookie_name in jar:
                given.append(jar[self.cookie_name].value)
        return any(secrets.compare_digest(g.encode(), self.token.encode()) for g in given)

    def set_cookie(self) -> str:
        """The ``Set-Cookie`` value that hands the token to the page (HttpOnly, same site only)."""
        return f"{self.cookie_name}={self.token}; Path=/; HttpOnly; SameSite=Strict"

    @staticmethod
    def is_static(path: str) -> bool:
        """Whether a path is one of the page's static files (served without the token).

        >>> Guard.is_static("/table.js"), Guard.is_static("/records/x.json"), Guard.is_static("/")
        (True, False, False)
        """
        return urlsplit(path).path.endswith(_STATIC_SUFFIXES)


def _bracket(name: str) -> str:
    return f"[{name}]" if ":" in name else name


def _normal_origin(origin: str) -> str:
    """An origin as ``scheme://host:port`` in lower case (the default port written), or ``*``.

    >>> _normal_origin("HTTP://LocalHost"), _normal_origin("*")
    ('http://localhost:80', '*')
    """
    if origin == "*":
        return origin
    if not isinstance(origin, str):
        raise GuandanError(f"an origin is scheme://host[:port], got {describe(origin)}")
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        raise GuandanError(f"an origin is http(s)://host[:port], got {describe(origin)}")
    name, port = parse_host(parts.netloc)
    if port is None:
        port = 443 if parts.scheme == "https" else 80
    return f"{parts.scheme}://{_bracket(name)}:{port}"
