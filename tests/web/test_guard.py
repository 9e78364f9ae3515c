"""The web UI's guard without sockets: which Host, Origin and token it lets in, and the
headers of every answer (guandan.web.guard)."""

from __future__ import annotations

import pytest

from guandan.errors import GuandanError
from guandan.web.guard import SECURITY_HEADERS, Guard, is_loopback, parse_host


@pytest.mark.parametrize(
    "header, expected",
    [
        ("127.0.0.1:8765", ("127.0.0.1", 8765)),
        ("LOCALHOST:8765", ("localhost", 8765)),
        ("[::1]:8765", ("::1", 8765)),
        ("example.org", ("example.org", None)),
    ],
)
def test_a_host_header_is_parsed(header, expected):
    assert parse_host(header) == expected


@pytest.mark.parametrize("header", ["", "a b:1", "::1:80", "[::1", "[::1]x", "h:0", "h:99999", "h:x", "u@h:1", "h/x"])
def test_a_host_header_that_is_not_one_is_refused_by_name(header):
    with pytest.raises(GuandanError, match="not a host"):
        parse_host(header)


def test_a_loopback_server_lets_in_its_loopback_names_at_its_port_only():
    guard = Guard.for_server("127.0.0.1", 8765)
    for ok in ("127.0.0.1:8765", "localhost:8765", "LocalHost:8765", "[::1]:8765"):
        assert guard.host_problem(ok) is None, ok
    for bad in ("evil.example:8765", "1.2.3.4:8765", "127.0.0.1:8766", "127.0.0.1", "127.0.0.1.evil.example:8765",
                "localhost.:8765", None):
        assert guard.host_problem(bad) is not None, bad
    assert guard.token is None


def test_a_server_on_a_named_address_lets_in_that_name_too():
    guard = Guard.for_server("192.168.7.9", 80, token="t")
    assert guard.host_problem("192.168.7.9") is None  # port 80 may go unwritten
    assert guard.host_problem("192.168.7.8") is not None
    assert Guard.for_server("127.0.0.1", 1, allow_hosts=["table.lan"]).host_problem("table.lan:1") is None


def test_a_server_on_every_interface_takes_numeric_addresses_but_not_foreign_names():
    guard = Guard.for_server("0.0.0.0", 9000)
    assert guard.token is not None and len(guard.token) == 32
    assert guard.host_problem("10.1.2.3:9000") is None and guard.host_problem("[fe80::1]:9000") is None
    assert guard.host_problem("evil.example:9000") is not None


def test_the_origin_must_be_the_pages_own_or_allowed():
    guard = Guard.for_server("127.0.0.1", 8765, allow_origins=["http://tools.example:3000"])
    host = "127.0.0.1:8765"
    assert guard.origin_problem(None, host) is None  # a program, not a page
    assert guard.origin_problem("http://127.0.0.1:8765", host) is None
    assert guard.origin_problem("HTTP://127.0.0.1:8765", host) is None
    assert guard.origin_problem("http://tools.example:3000", host) is None
    for bad in ("http://evil.example", "null", "http://127.0.0.1.evil.example:8765", "http://localhost:8765",
                "https://127.0.0.1:8765", "http://127.0.0.1:8766", "file://", ""):
        assert guard.origin_problem(bad, host) is not None, bad
    assert Guard.for_server("127.0.0.1", 1, allow_origins=["*"]).origin_problem("http://any.example", "x:1") is None
    with pytest.raises(GuandanError, match="origin"):
        Guard.for_server("127.0.0.1", 1, allow_origins=["tools.example"])


def test_the_token_is_taken_from_the_query_the_header_or_the_cookie():
    guard = Guard.for_server("127.0.0.1", 8765, token=True)
    token = guard.token
    assert token is not None
    assert guard.token_problem("/", {}) is not None
    assert guard.token_problem(f"/?token={token}", {}) is None
    assert guard.token_problem("/", {"Authorization": f"token {token}"}) is None
    assert guard.token_problem("/", {"Cookie": f"other=1; {guard.cookie_name}={token}"}) is None
    assert guard.token_problem("/", {"Cookie": f"{guard.cookie_name}={token}x"}) is not None
    assert guard.token_problem("/?token=wrong", {"Cookie": "garbage;;=="}) is not None
    cookie = guard.set_cookie()
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and cookie.startswith(f"guandan-token-8765={token}")


def test_beyond_loopback_the_token_cannot_be_turned_off():
    with pytest.raises(GuandanError, match="needs its token"):
        Guard.for_server("0.0.0.0", 1, token=False)
    assert is_loopback("127.0.0.2") and not is_loopback("10.0.0.1") and not is_loopback("")


def test_the_headers_forbid_inline_script_framing_and_referrers():
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in csp
    assert SECURITY_HEADERS["Referrer-Policy"] == "no-referrer" and SECURITY_HEADERS["X-Frame-Options"] == "DENY"
