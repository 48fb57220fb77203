"""The shared chance stream and record envelope."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from pfeffer.core import records
from pfeffer.core.errors import RecordError
from pfeffer.core.rng import ChanceStream, new_seed


def test_draws_depend_only_on_seed_and_index() -> None:
    a, b = ChanceStream(42), ChanceStream(42)
    assert [a.bits(k) for k in (5, 0, 3)] == [b.bits(k) for k in (5, 0, 3)]
    assert a.bits(0) != ChanceStream(43).bits(0)
    assert a.random(7).random() == b.random(7).random()
    assert all(0 <= a.bits(k) < 2**64 for k in range(100))


def test_faces_are_uniform() -> None:
    s = ChanceStream(2026)
    counts = Counter(s.below(k, 6) for k in range(60_000))
    assert set(counts) == set(range(6))
    # 6 sigma of a binomial(60000, 1/6) is about 550: a biased or stuck stream fails this.
    assert all(abs(c - 10_000) < 550 for c in counts.values())


def test_successive_draws_are_not_correlated() -> None:
    s = ChanceStream(7)
    pairs = Counter((s.below(k, 6), s.below(k + 1, 6)) for k in range(0, 72_000, 2))
    assert len(pairs) == 36
    assert all(abs(c - 1000) < 200 for c in pairs.values())


def test_seed_is_hidden_and_streams_compare_by_seed() -> None:
    assert "123" not in repr(ChanceStream(123))
    assert ChanceStream(5) == ChanceStream(5) != ChanceStream(6)
    assert isinstance(new_seed(), int) and new_seed() >= 0
    with pytest.raises(TypeError):
        ChanceStream("7")  # type: ignore[arg-type]


class TestRecordEnvelope:
    def good(self) -> dict[str, object]:
        return records.envelope("dice", rules={}, players=["A", "B"], actions=["roll"])

    def test_round_trip(self) -> None:
        text = records.dumps(self.good())
        assert records.load(text, "dice") == json.loads(text)
        assert "ü" in records.dumps(records.envelope("dice", players=["Jürgen"]))

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            ({"format": "other"}, "not a pfeffer game record"),
            ({"version": 2}, "version 2"),
            ({"game": "pepper"}, "pepper"),
            ({"actions": [1, 2]}, "action strings"),
        ],
    )
    def test_rejects(self, change: dict[str, object], message: str) -> None:
        rec = {**self.good(), **change}
        with pytest.raises(RecordError, match=message):
            records.load(rec, "dice")

    def test_missing_field_and_bad_json(self) -> None:
        rec = self.good()
        del rec["players"]
        with pytest.raises(RecordError, match="players"):
            records.load(rec, "dice")
        with pytest.raises(RecordError, match="JSON"):
            records.load("[1, 2", "dice")
        with pytest.raises(RecordError, match="object"):
            records.load("[1, 2]", "dice")
