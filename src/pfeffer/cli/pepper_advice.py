"""Hints and hand reviews for ``pfeffer pepper play``, in the terminal's language.

The expert's advice comes from :mod:`pfeffer.pepper.analysis`; this module only words it. The
language is the terminal's (:mod:`pfeffer.cli.words`: ``--lang``, else ``LC_ALL``,
``LC_MESSAGES``, ``LANG``), from the catalogues of :mod:`pfeffer.core.i18n`.
"""

from __future__ import annotations

from collections.abc import Callable

from pfeffer.cli.words import is_you, shown
from pfeffer.core.extras import require
from pfeffer.core.i18n import terminal_language, translations
from pfeffer.pepper import PepperGame

#: The hint line (msgid): the action as drawn, then the reason.
HINT_TEXT = "Hint: %(action)s (%(reason)s)"
#: The heading of a review (msgid).
REVIEW_TITLE = "Review of hand %(hand)d for %(side)s:"
#: The heading of a review for the default player "You" (msgid).
REVIEW_TITLE_YOU = "Review of hand %(hand)d for you:"


def _translations(lang: str) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    t = translations(lang)
    return t.gettext, t.ngettext


def hint_line(
    game: PepperGame, lang: str, draw: Callable[[str], str], worlds: int | None = None
) -> str:
    """The hint for the player to act, one line (``draw`` shows the action, markup);
    :class:`~pfeffer.core.extras.MissingExtra` without the extra 'ai'."""
    seat = game.current_player
    if seat is None:
        raise ValueError("nobody is to act")
    require("ai", "Hints")  # the expert's double dummy (numba)
    from pfeffer.pepper.analysis import hint

    h = hint(game.view(seat), game.legal_actions(), worlds=worlds)
    gettext, _ = _translations(lang)
    return gettext(HINT_TEXT) % {"action": draw(h.action), "reason": h.text(gettext)}


def review_lines(
    game: PepperGame, hand_index: int, seat: int, side_name: str, *, lang: str,
    card_text: Callable[[str], str],
) -> list[str]:  # fmt: skip
    """The review of a finished hand for ``seat``'s side: a heading and the review's lines."""
    require("ai", "Reviews")  # double dummy (numba)
    from pfeffer.pepper.analysis import review_hand

    gettext, ngettext = _translations(lang)
    review = review_hand(game, hand_index, seat)
    number = game.results[hand_index].hand_number
    if is_you(side_name):  # the default name "You": "for you", in the language's case
        title = gettext(REVIEW_TITLE_YOU) % {"hand": number}
    else:
        title = gettext(REVIEW_TITLE) % {"hand": number, "side": shown(side_name)}
    return [title, *review.lines(gettext, ngettext, card_text)]


__all__ = ["HINT_TEXT", "REVIEW_TITLE", "hint_line", "review_lines", "terminal_language"]
