"""Hostile requests get a clear 4xx, never a 500, an open redirect or the library's path.

The redirect oracle is how a browser reads a Location header (WHATWG URL parsing): leading and
trailing controls and spaces dropped, tabs and newlines removed anywhere, a backslash read as a
slash; the result, resolved against the page, must stay on this server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode, urljoin, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.server.session import LiveSession
from tests.server.conftest import LAN, make_app

BASE = "http://127.0.0.1:5000/unlock"
LOCAL = {"REMOTE_ADDR": "127.0.0.1"}

NASTY_NEXT = [
    "/%09/evil.example", "/\t/evil.example", "/\n/evil.example", "/\r/evil.example",
    "//evil.example", "///evil.example", "/\\evil.example", "\\\\evil.example",
    "\\/evil.example", " //evil.example", "\x00//evil.example", "\x1f//evil.example",
    "https://evil.example", "javascript:alert(1)", "http:evil.example", "/ /evil.example",
    "/\u3000/evil.example", "/\x0b/evil.example", "/\x0c/evil.example", "/\u0085/evil.example",
    "/\u2028/evil.example", "evil.example", "", "/a\nb", "/a\r\nSet-Cookie: x=1",
]


def browser_target(location: str) -> str:
    """The netloc a browser would go to for this Location, from this server's /unlock."""
    cleaned = location.strip("".join(map(chr, range(0x21))))
    cleaned = "".join(ch for ch in cleaned if ch not in "\t\n\r").replace("\\", "/")
    return urlsplit(urljoin(BASE, cleaned)).netloc


def stays_here(response: Any) -> bool:
    location = response.headers.get("Location")
    return location is None or browser_target(location) == "127.0.0.1:5000"


@pytest.fixture
def pin_app(session: LiveSession) -> Flask:
    return make_app(session, pin="123456")


@pytest.mark.parametrize("target", NASTY_NEXT)
def test_unlock_never_redirects_to_another_site(pin_app: Flask, target: str) -> None:
    client = pin_app.test_client()
    for response in (
        client.post("/unlock?next=" + quote(target, safe=""), environ_base=LOCAL),
        client.post("/unlock", data={"next": target, "pin": "123456"}, environ_base=LAN),
        client.post("/unlock?next=" + quote(target, safe=""), data={"pin": "123456"},
                    environ_base=LAN),
    ):
        assert response.status_code in (200, 302), response.get_data(as_text=True)
        assert stays_here(response), response.headers.get("Location")
    page = client.get("/unlock?next=" + quote(target, safe=""), environ_base=LAN)
    assert page.status_code == 200
    asked = client.get("/review/" + quote(target, safe=""), environ_base=LAN)
    assert asked.status_code in (200, 302, 404), asked.get_data(as_text=True)
    assert stays_here(asked)


def test_a_plain_path_is_still_followed(pin_app: Flask) -> None:
    response = pin_app.test_client().post("/unlock?next=/review/3?page=2", environ_base=LOCAL)
    assert response.status_code == 302
    assert response.headers["Location"] == "/review/3?page=2"


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list("/\\:.@%?#\t\n\r \x00\x0b\u3000aé09")) |
               st.characters(), max_size=12))
def test_no_next_value_leaves_the_site(pin_app: Flask, target: str) -> None:
    client = pin_app.test_client()
    raw = quote(target.encode("utf-8", "surrogatepass"), safe="")
    response = client.post("/unlock?next=" + raw, environ_base=LOCAL)
    assert response.status_code == 302
    assert stays_here(response), (target, response.headers.get("Location"))


def test_a_newline_or_odd_character_in_the_pin_is_a_clear_refusal(pin_app: Flask) -> None:
    client = pin_app.test_client()
    for pin in ("\ud800", "12\n3456", "1234\r\n56", "１２３４５６", "\x00"):
        response = client.post("/unlock", json={"pin": pin}, environ_base=LAN)
        assert response.status_code in (403, 429), (pin, response.get_data(as_text=True))
        form = urlencode({"pin": pin, "next": "/a\nb"}, errors="surrogatepass")
        response = client.post("/unlock", data=form, environ_base=LAN,
                               content_type="application/x-www-form-urlencoded")
        assert response.status_code in (403, 429), (pin, response.get_data(as_text=True))
        assert "PIN" in response.get_json()["error"]
    assert client.post("/unlock", json={"pin": "123456"}, environ_base=LAN).status_code == 429


DEEP = "[" * 30_000 + "]" * 30_000
BAD_BODIES: list[tuple[str, str]] = [
    ("deep array", DEEP),
    ("deep object", '{"a":' * 20_000 + "1" + "}" * 20_000),
    ("deep in a field", '{"title":' + "[" * 5000 + "]" * 5000 + "}"),
    ("lone surrogate", '{"title":"\\ud800","status":"\\ud800","text":"\\ud800",'
                       '"winner":"\\udfff","pin":"\\ud800","decision":"\\ud800",'
                       '"action":"\\ud800","move":{"to":"\\ud800"}}'),
    ("surrogate key", '{"\\ud800":1}'),
    ("not JSON", "{'title': 1"),
    ("empty", ""),
    ("a list", "[1, 2]"),
    ("huge number", '{"title": 1' + "0" * 4000 + ', "choice": 1e999}'),
    ("NaN", '{"title": NaN, "choice": NaN}'),
    ("invalid UTF-8", "\udcff"),
]


def _post_routes(app: Flask, game_id: int) -> list[str]:
    routes = []
    for rule in app.url_map.iter_rules():
        if "POST" in (rule.methods or ()):
            values = {arg: game_id for arg in rule.arguments}
            routes.append(str(rule.rule).replace("<id:game_id>", str(game_id))
                          .replace("<id:seq>", "1"))
            assert set(values) <= {"game_id", "seq"}, rule.rule
    return routes


@pytest.mark.parametrize("remote", [LOCAL, LAN], ids=["local", "lan"])
def test_no_post_route_answers_500_to_a_malformed_body(
        session: LiveSession, remote: dict[str, str]) -> None:
    app = make_app(session, pin="123456")
    client = app.test_client()
    ended = session.store.start_game(session.header.__class__(
        game="creature-crush", players=("Ada", "Bo"), ruleset_version="fake-1"))
    routes = _post_routes(app, session.game_id) + _post_routes(app, ended)
    assert len(routes) > 10
    library = str(session.store.path.parent)
    for route in sorted(set(routes)):
        for name, body in BAD_BODIES:
            data = body.encode("utf-8", "surrogatepass")
            for content_type in ("application/json", "application/x-www-form-urlencoded"):
                response = client.post(route, data=data, content_type=content_type,
                                       environ_base=remote)
                text = response.get_data(as_text=True)
                assert response.status_code < 500, (route, name, content_type, text)
                assert library not in text, (route, name, text)


def test_the_library_path_is_not_in_error_texts(client: FlaskClient,
                                                session: LiveSession) -> None:
    library = str(session.store.path.parent)
    for response in (client.post("/api/games/999/title", json={"title": "x"}),
                     client.post("/api/games/999/notes", json={"text": "x"}),
                     client.post("/api/games/999/status", json={"status": "finished"}),
                     client.get("/api/games/999"), client.get("/review/999")):
        text = response.get_data(as_text=True)
        assert response.status_code == 404, text
        assert library not in text and "games.db" not in text, text
        assert "999" in text


def test_a_damaged_library_is_a_503_not_a_500(tmp_path: Path) -> None:
    from companion.server.app import create_app
    from tests.test_cli_clear_errors import damaged_pages

    path = tmp_path / "games.db"
    game_id = damaged_pages(path)
    client = create_app({"DATABASE": path, "READ_ONLY": True, "TESTING": True}).test_client()
    for url in (f"/api/games/{game_id}", f"/review/{game_id}"):
        response = client.get(url)
        assert response.status_code == 503, (url, response.status_code)
        assert "library cannot be read" in response.get_json()["error"]
        assert str(tmp_path) not in response.get_data(as_text=True)
