"""The table chat (web/services/chat.py): limits, cleaning, rate limit, history, and over the
WebSocket: two players see each other's messages, spectators read but do not write, refusals are
clear."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pfeffer.web.i18n import translate_error
from pfeffer.web.services import chat
from pfeffer.web.services.chat import Chat, ChatRefused
from pfeffer.web.services.ratelimit import Limiter, Limits, Rate

NAMES = ["Anna", "Ben"]
RATE = Limits().chat  # 5 messages in 10 seconds per seat


def say(speaker: chat.Speaker, data: dict[str, Any]) -> dict[str, Any]:
    return asyncio.run(speaker.say(data, NAMES))


def refusal(speaker: chat.Speaker, data: dict[str, Any]) -> ChatRefused:
    with pytest.raises(ChatRefused) as info:
        say(speaker, data)
    return info.value


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The time the rate limiter reads (the ``limits`` library's ``time.time``), set by hand."""
    now = [1_000_000.0]  # the start of a 10-second window
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


# ------------------------------------------------------------------ unit


def test_text_is_kept_as_text_and_what_cannot_be_kept_is_refused() -> None:
    nasty = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    room = Chat()
    anna = room.speaker("t", 0)
    frame = say(anna, {"type": "chat", "text": nasty})  # not escaped: pages use textContent
    assert frame["message"]["text"] == nasty and frame["message"]["name"] == "Anna"
    folded = say(anna, {"type": "chat", "text": " one\ntwo\r\n\tthree "})
    assert folded["message"]["text"] == "one two three"
    emoji = say(anna, {"type": "chat", "text": "👍🏽 👨‍👩‍👧"})  # modifiers and joiners stay
    assert emoji["message"]["text"] == "👍🏽 👨‍👩‍👧"
    for bad in ("x\ud800y", "a\x00b", "a\x1bb", "a\u202eb", "a\u2066b"):
        exc = refusal(room.speaker("t", 1), {"type": "chat", "text": bad})
        assert exc.code == "chat_malformed" and str(exc).startswith("Chat message: ")
    assert len(room.history("t")["messages"]) == 3  # nothing refused was kept


def test_length_limit() -> None:
    anna = Chat().speaker("t", 0)
    ok = say(anna, {"type": "chat", "text": "x" * chat.MAX_TEXT})
    assert len(ok["message"]["text"]) == chat.MAX_TEXT == 200
    exc = refusal(anna, {"type": "chat", "text": "x" * 201})
    assert exc.code == "chat_too_long"
    assert str(exc) == "A chat message has at most 200 characters; this one has 201."
    # Emoji count as one character each, spaces around do not count.
    assert say(anna, {"type": "chat", "text": " " + "🎉" * 200 + " "})["type"] == "chat"
    assert refusal(anna, {"type": "chat", "text": " \n\t "}).code == "chat_empty"
    assert refusal(anna, {"type": "chat", "text": 5}).code == "chat_malformed"
    assert refusal(anna, {"type": "chat"}).code == "chat_malformed"


def test_reactions() -> None:
    anna = Chat().speaker("t", 0)
    m = say(anna, {"type": "chat", "reaction": "well_played"})["message"]
    assert (m["reaction"], m["text"]) == ("well_played", "Well played!")
    m = say(anna, {"type": "chat", "reaction": "party"})["message"]
    assert (m["reaction"], m["text"]) == ("party", "🎉")
    assert refusal(anna, {"type": "chat", "reaction": "<b>"}).code == "chat_malformed"
    assert refusal(anna, {"type": "chat", "reaction": ["party"]}).code == "chat_malformed"
    assert {"thumbs_up", "laugh", "wow", "party", "well_played"} <= set(chat.REACTIONS)


def test_the_chat_limit_counts_per_seat_on_every_connection(clock: list[float]) -> None:
    """Issue 20 (1.11): a seat's messages are counted by the app's limiter, together on every
    connection (each connection had a count of its own, in its process only)."""
    rooms = Chat()
    anna, anna_on_phone, ben = rooms.speaker("t", 0), rooms.speaker("t", 0), rooms.speaker("t", 1)
    for i in range(RATE.count):
        say(anna, {"type": "chat", "text": f"m{i}"})
    exc = refusal(anna, {"type": "chat", "text": "one too many"})
    assert exc.code == "chat_rate"
    assert str(exc) == "Not so fast: at most 5 messages in 10 seconds."
    assert refusal(anna, {"type": "chat", "reaction": "laugh"}).code == "chat_rate"
    assert refusal(anna_on_phone, {"type": "chat", "text": "from the phone"}).code == "chat_rate"
    say(ben, {"type": "chat", "text": "another seat"})
    assert refusal(anna, {"type": "chat", "text": 5}).code == "chat_malformed"  # not counted
    clock[0] += 2 * RATE.seconds  # both windows of the count are over
    say(anna_on_phone, {"type": "chat", "text": "now"})
    texts = [m["text"] for m in rooms.history("t")["messages"]]
    assert "one too many" not in texts and texts[-1] == "now"  # refused ones are not kept


def test_the_limiter_counts_only_what_it_allows(clock: list[float]) -> None:
    limiter, rate = Limiter(), Rate(2, 10)

    def hits(n: int) -> list[bool]:
        return [asyncio.run(limiter.hit(rate, "k")) == 0 for _ in range(n)]

    assert hits(5) == [True, True, False, False, False]
    assert asyncio.run(limiter.hit(rate, "k")) > 0  # the seconds to wait
    assert hits(1) == [False] and asyncio.run(limiter.hit(rate, "other")) == 0
    clock[0] += 20
    assert hits(3) == [True, True, False]  # the refused ones did not count
    assert asyncio.run(limiter.hit(rate, "k")) > 0


def test_no_chat_limit_when_the_limits_are_off() -> None:
    anna = Chat(rate=None).speaker("t", 0)
    for i in range(3 * RATE.count):
        say(anna, {"type": "chat", "text": f"m{i}"})


def test_spectators_read_but_do_not_write() -> None:
    rooms = Chat()
    say(rooms.speaker("t", 1), {"type": "chat", "text": "hi"})
    watcher = rooms.speaker("t", None)
    assert refusal(watcher, {"type": "chat", "text": "hello"}).code == "chat_spectator"
    assert refusal(watcher, {"type": "chat", "reaction": "party"}).code == "chat_spectator"
    assert [m["name"] for m in rooms.history("t")["messages"]] == ["Ben"]


def test_history_keeps_the_last_messages_per_table_and_forgets() -> None:
    rooms = Chat(rate=None)
    for i in range(chat.HISTORY + 7):
        say(rooms.speaker("a", i % 2), {"type": "chat", "text": f"m{i}"})
    say(rooms.speaker("b", 0), {"type": "chat", "text": "elsewhere"})
    history = rooms.history("a")
    assert history["type"] == "chat_history"
    msgs = history["messages"]
    assert len(msgs) == chat.HISTORY == 50
    assert msgs[0]["text"] == "m7" and msgs[-1]["text"] == "m56"
    assert [m["id"] for m in msgs] == list(range(8, 58))
    assert [m["text"] for m in rooms.history("b")["messages"]] == ["elsewhere"]
    rooms.forget(["a"])
    assert rooms.history("a")["messages"] == [] and rooms.history("nope")["messages"] == []


def test_only_the_tables_chatted_at_most_recently_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat, "MAX_ROOMS", 3)
    rooms = Chat()
    for table in ("a", "b", "c", "a", "d"):
        say(rooms.speaker(table, 0), {"type": "chat", "text": table})
    kept = {t for t in "abcd" if rooms.history(t)["messages"]}
    assert kept == {"a", "c", "d"}  # b was the least recent when d came


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_every_refusal_is_translated(lang: str) -> None:
    rooms = Chat()
    anna = rooms.speaker("t", 0)
    for _ in range(RATE.count):
        say(anna, {"type": "chat", "text": "x"})
    refusals = [
        refusal(rooms.speaker("t", None), {"type": "chat", "text": "x"}),
        refusal(anna, {"type": "chat", "text": "x"}),
        refusal(rooms.speaker("t", 1), {"type": "chat", "text": "x" * 300}),
        refusal(rooms.speaker("t", 1), {"type": "chat", "text": ""}),
        refusal(rooms.speaker("t", 1), {"type": "chat", "text": None}),
        refusal(rooms.speaker("t", 1), {"type": "chat", "reaction": "boo"}),
        refusal(rooms.speaker("t", 1), {"type": "chat", "text": "a\x00"}),
    ]
    codes = {e.code for e in refusals}
    assert codes == {"chat_spectator", "chat_rate", "chat_too_long", "chat_empty", "chat_malformed"}
    for exc in refusals:
        translated = translate_error(exc, lang)
        assert translated != str(exc), exc.template
        assert all(str(v) in translated for v in exc.params.values() if isinstance(v, int))


# ------------------------------------------------------------------ over the WebSocket


def make_table(client: TestClient) -> dict[str, Any]:
    seats = [{"name": "Anna", "kind": "human"}, {"name": "Ben", "kind": "human"}]
    r = client.post("/api/tables", json={"game": "dice", "seats": seats})
    assert r.status_code == 201
    data: dict[str, Any] = r.json()
    return data


def until(ws: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (state frames of others coming and going skipped)."""
    for _ in range(50):
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message")


def test_two_players_see_each_others_messages_and_spectators_read(client: TestClient) -> None:
    t = make_table(client)
    anna_url = f"/ws/{t['id']}?token={t['seats'][0]['token']}&lang=de"
    ben_url = f"/ws/{t['id']}?token={t['seats'][1]['token']}"
    with client.websocket_connect(anna_url) as anna, client.websocket_connect(ben_url) as ben:
        until(anna, "state")
        until(ben, "state")
        anna.send_json({"type": "chat", "text": "<script>alert(1)</script> Hallo Ben"})
        for ws in (anna, ben):
            m = until(ws, "chat")["message"]
            assert m["text"] == "<script>alert(1)</script> Hallo Ben"
            assert (m["seat"], m["name"], m["reaction"]) == (0, "Anna", None)
        ben.send_json({"type": "chat", "reaction": "thumbs_up"})
        for ws in (anna, ben):
            m = until(ws, "chat")["message"]
            assert (m["seat"], m["name"], m["reaction"], m["text"]) == (1, "Ben", "thumbs_up", "👍")
        with client.websocket_connect(f"/ws/{t['id']}?lang=cs") as watcher:
            assert until(watcher, "state")["seat"] is None
            history = until(watcher, "chat_history")["messages"]
            assert [m["name"] for m in history] == ["Anna", "Ben"]
            watcher.send_json({"type": "chat", "text": "I am only watching"})
            err = until(watcher, "error")
            assert err["code"] == "chat_spectator"
            assert err["message"] == "Diváci mohou chat číst, psát do něj mohou jen hráči."
            anna.send_json({"type": "chat", "text": "watch this"})
            assert until(watcher, "chat")["message"]["text"] == "watch this"
    # A reconnect gets the last messages again.
    with client.websocket_connect(ben_url) as ben:
        texts = [m["text"] for m in until(ben, "chat_history")["messages"]]
        assert texts == ["<script>alert(1)</script> Hallo Ben", "👍", "watch this"]


def test_rate_limit_and_length_replies(client: TestClient) -> None:
    t = make_table(client)
    with client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}&lang=de") as ws:
        assert until(ws, "state")["seat"] == 0
        ws.send_json({"type": "sync"})  # no chat yet: no history frame, the reply comes next
        assert ws.receive_json()["type"] == "state"
        for i in range(RATE.count):
            ws.send_json({"type": "chat", "text": f"m{i}"})
            assert until(ws, "chat")["message"]["text"] == f"m{i}"
        ws.send_json({"type": "chat", "text": "one too many"})
        err = until(ws, "error")
        assert err["code"] == "chat_rate"
        assert err["message"] == "Nicht so schnell: höchstens 5 Nachrichten in 10 Sekunden."
        ws.send_json({"type": "chat", "text": "y" * 201})
        err = until(ws, "error")
        assert err["code"] == "chat_too_long" and "200" in err["message"]
        # The game goes on: an action still works, and a sync answers with the state.
        ws.send_json({"type": "sync"})
        assert until(ws, "state")["seat"] == 0
    with client.websocket_connect(f"/ws/{t['id']}?token={t['seats'][0]['token']}") as ws:
        texts = [m["text"] for m in until(ws, "chat_history")["messages"]]
        assert texts == [f"m{i}" for i in range(RATE.count)]


def test_a_lone_surrogate_in_a_chat_message_is_refused_and_the_table_plays_on(
    client: TestClient,
) -> None:
    """The fault of issue 20 (1.1): the text was kept, stored in the history and broadcast;
    every client's sends then stopped silently and every reconnect was stopped again."""
    t = make_table(client)
    anna_url = f"/ws/{t['id']}?token={t['seats'][0]['token']}"
    ben_url = f"/ws/{t['id']}?token={t['seats'][1]['token']}&lang=de"
    with client.websocket_connect(anna_url) as anna, client.websocket_connect(ben_url) as ben:
        assert until(anna, "state")["version"] == 0
        until(ben, "state")
        anna.send_text('{"type": "chat", "text": "x\\ud800y"}')  # JSON's escape: a lone surrogate
        err = until(anna, "error")
        assert err["code"] == "chat_malformed" and "remove it" in err["message"]
        for bad in ("a\\u0000b", "a\\u202eb"):
            anna.send_text('{"type": "chat", "text": "' + bad + '"}')
            assert until(anna, "error")["code"] == "chat_malformed"
        anna.send_json({"type": "chat", "text": "still here"})
        for ws in (anna, ben):
            assert until(ws, "chat")["message"]["text"] == "still here"
        anna.send_json({"type": "action", "action": "roll", "version": 0})
        for ws in (anna, ben):
            assert until(ws, "state")["version"] == 1  # the next roll reaches every client
    with client.websocket_connect(ben_url) as ben:
        assert until(ben, "state")["version"] == 1
        texts = [m["text"] for m in until(ben, "chat_history")["messages"]]
        assert texts == ["still here"]
        ben.send_text('{"type": "chat", "text": "\\ud83d"}')
        assert until(ben, "error")["message"].startswith("Chatnachricht: ")
