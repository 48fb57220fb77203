"""HTML pages: the Jinja templates rendered in the request's language, the strings the browser
scripts show (``js_strings``) and HTTP errors as pages (in the user's language) or as JSON."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import HTMLResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.exceptions import HTTPException as StarletteHTTPException

from pfeffer.web.adapters.pepper_table import CARD_NAMES
from pfeffer.web.i18n import LANGUAGE_NAMES, LANGUAGES, pick_language, translations

HERE = Path(__file__).resolve().parent
ENV = Environment(
    loader=FileSystemLoader(HERE / "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def lang_of(request: Request) -> str:
    """The request's language: ``?lang=``, then the ``lang`` cookie, then Accept-Language."""
    q = request.query_params.get("lang")
    if q in LANGUAGES:
        return q
    c = request.cookies.get("lang")
    if c in LANGUAGES:
        return c
    return pick_language(request.headers.get("accept-language"))


def render(request: Request, template: str, status_code: int = 200, **ctx: Any) -> HTMLResponse:
    """The page ``template`` in the request's language (``?lang=`` is kept in a cookie)."""
    lang = lang_of(request)
    t = translations(lang)
    page = ENV.get_template(template).render(
        _=t.gettext,
        ngettext=t.ngettext,
        lang=lang,
        languages=LANGUAGE_NAMES,
        js_strings=js_strings(t.gettext, t.ngettext, t.pgettext),
        path=request.url.path,
        # web/middleware/csrf.py: in every form
        csrf_token=getattr(request.state, "csrf_token", ""),
        **ctx,
    )
    resp = HTMLResponse(page, status_code=status_code)
    if request.query_params.get("lang") in LANGUAGES:
        resp.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return resp


def is_page(path: str) -> bool:
    """Whether ``path`` is one of the HTML pages (errors there are pages, not JSON)."""
    return not path.startswith(("/api/", "/static/", "/ws/"))


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    """HTTP errors in the request's language: the English details written in the routes
    (``HTTPException(404, "no such table")``) are msgids of the catalogue; details that are
    translated already (``translate_error``) have no entry and stay as they are."""
    if isinstance(exc.detail, str):
        detail = translations(lang_of(request)).gettext(exc.detail)
        exc = StarletteHTTPException(exc.status_code, detail, exc.headers)
    if is_page(request.url.path):
        # A page (a bad link, a forged invite): an HTML page in the user's language with a
        # way back, not the API's JSON.
        return render(
            request,
            "error.html",
            status_code=exc.status_code,
            detail=exc.detail,
            status=exc.status_code,
            more=getattr(request.state, "error_link", None),
        )
    return await http_exception_handler(request, exc)


#: A plural category of ``Intl.PluralRules`` and a count the catalogue's form for it is made
#: with (English and German: one, other; Czech: one, few, other for whole numbers).
PLURAL_CATEGORIES = (("one", 1), ("few", 2), ("other", 5))


def js_strings(
    _: Callable[[str], str],
    ngettext: Callable[[str, str, int], str] | None = None,
    pgettext: Callable[[str, str], str] | None = None,
) -> dict[str, str]:
    """Every string the browser scripts show, translated (the scripts never hold UI text).

    A message with plural forms is sent once per count the page can need, as ``key#n``
    (``roll_n#1`` … ``roll_n#6``), or, for any count, once per plural category of the browser's
    ``Intl.PluralRules`` (``key@one``, ``key@few``, ``key@other``: the catalogue's forms for 1, 2
    and 5, which cover English, German and Czech); ``PF.t(key, {n: n})`` picks the one for ``n``."""
    ng = ngettext or (lambda one, many, n: one if n == 1 else many)
    pg = pgettext or (lambda context, msgid: _(msgid))

    def counted(key: str, one: str, many: str) -> dict[str, str]:
        forms = {f"{key}@{cat}": ng(one, many, n) for cat, n in PLURAL_CATEGORIES}
        return {key: forms[f"{key}@other"], **forms}

    return {
        "your_turn": _("Your turn"),
        "turn_of": _("%(name)s's turn"),
        "roll": _("Roll"),
        "roll_n": ng("Roll %(n)s die", "Roll %(n)s dice", 6),  # any count; see roll_n#n
        "bank": _("Bank %(points)s"),
        "pfeffer": _("Pfeffer!"),
        "call_pfeffer": _("Call Pfeffer! (stake %(stake)s)"),
        "pfeffer_terms": _("Pfeffer: bank at least %(need)s; a bust costs %(penalty)s"),
        "bust_costs": _("A bust costs %(points)s"),
        "turn_total": _("Turn total"),
        "to_bank": _("Minimum to bank"),
        "keep": _("Set aside"),
        "bust": _("Bust"),
        "penalty": _("penalty"),
        "auto_pfeffer": _("Auto-Pfeffer: your predecessor scored nothing"),
        "pfeffer_on": _("Pfeffer is on: stake %(stake)s"),
        "final_round": _("Final round!"),
        "winner": _("Winner"),
        "winners": _("Winners"),
        "game_over": _("Game over"),
        "round": _("Round"),
        "total": _("Σ"),
        "deal": _("Deal"),
        "pass": _("Pass"),
        "bid": _("Bid"),  # a noun: the score pad's column, the sheet's field
        "bid_button": _("Bid %(bid)s"),  # a verb: the auction's buttons
        "small": _("Small Pepper"),
        "big": _("Big Pepper"),
        "trump": _("Trump"),
        "no_trump": _("No trump"),
        "choose_trump": _("Choose trump"),
        "auction": _("Auction"),
        "last_trick": _("Last trick"),
        "current_trick": _("Trick"),
        "tricks": _("Tricks"),
        "tricks_needed": _("The contract needs %(need)s of %(total)s tricks"),
        "partner": _("partner"),
        "dealer": _("Dealer"),
        "bidder": _("Bidder"),
        "hand": _("Hand"),
        "made": _("made"),
        "set": _("set"),
        "team": _("Team"),
        "you": _("you"),
        "bot": _("computer"),
        "online": _("online"),
        "offline": _("offline"),
        "connecting": _("Connecting…"),
        "reconnecting": _("Connection lost, reconnecting…"),
        "link_replaced": _("This link was replaced"),  # the banner says why (play.js)
        # The Pepper table's keys (pepper-table.js, pressed by table.js), as the dice table's
        "keys_label": _("Keys:"),
        "key_deal": _("D deal"),
        "key_bid": _("%(keys)s bid that many tricks"),
        "key_small": _("S Small Pepper"),
        "key_big": _("B Big Pepper"),
        "key_pass": _("P pass"),
        "key_trump": _("%(keys)s name trump, as numbered on the buttons"),
        "rematch": _("Rematch"),
        "spectator": _("You are watching."),
        "waiting": _("Waiting for %(name)s…"),
        "thrown": _("Thrown"),
        "kept": _("Set aside"),
        "download": _("Download record"),
        "review": _("Game review"),
        "replay": _("Replay"),
        "step": _("Step"),
        "start": _("Start"),
        "back": _("Back"),
        "forward": _("Forward"),
        "end": _("End"),
        "points": _("Points"),
        "score": _("Score"),
        "your_hand": _("Your hand"),
        "lost_penalty": _("%(name)s busts and loses %(points)s"),
        "busted": _("%(name)s busts"),
        "add": _("Add"),
        "all_passed": _("Everyone passed"),
        "undo": _("Undo last entry"),
        "print": _("Print"),
        "error": _("Error"),
        "did_deal": _("%(name)s deals"),
        "did_pass": _("%(name)s passes"),
        "did_bid": _("%(name)s bids %(bid)s"),
        "did_trump": _("%(name)s names trump: %(trump)s"),
        "did_play": _("%(name)s plays %(card)s"),
        "copied": _("Copied"),
        "copy_by_hand": _("Copying did not work: the link is selected, copy it by hand."),
        "share_title": _("Your seat at the Pfeffer table"),
        # web-forms: plural forms, card rank letters, the table chat (chat.js)
        **{f"roll_n#{n}": ng("Roll %(n)s die", "Roll %(n)s dice", n) for n in range(1, 7)},
        "rank_letters": _("J Q K A"),
        "chat_you": _("%(name)s (you)"),
        "chat_r_well_played": _("Well played!"),
        "chat_r_good_luck": _("Good luck!"),
        "chat_r_thanks": _("Thanks!"),
        # sheet-pwa: score sheets without a connection (sheet.js, sheets.js)
        "held_title": _("Not on the sheet yet: kept on this device"),
        "held_count": _("Kept on this device: %(n)s"),
        "offline_wait": _("No connection: the entries are sent in order when it is back."),
        "sending": _("Sending…"),
        "next_entry": _("Next entry, after the kept ones"),
        "refused": _("The sheet did not take the entry “%(entry)s”: %(reason)s"),
        "held_paused": _(
            "The entries after it wait: send them, or remove those that no longer fit."
        ),
        "send_held": _("Send the kept entries"),
        "remove": _("Remove"),
        "no_connection": _("No connection: nothing was saved. Try again when it is back."),
        "undo_offline": _(
            "Undoing needs the connection; entries kept on this device can be removed."
        ),
        "undo_after_end": _("A wrong entry? “Undo last entry” takes it back."),
        # pepper-table: the card table, the bids' terms, card names, the one-device page
        "suit_C": _("Clubs"),
        "suit_D": _("Diamonds"),
        "suit_H": _("Hearts"),
        "suit_S": _("Spades"),
        **{f"card_{code}": _(name) for code, name in CARD_NAMES.items()},
        # A card as the object of a sentence (Czech accusative: "hraje pikovou devítku").
        **{f"card_obj_{code}": pg("object", name) for code, name in CARD_NAMES.items()},
        "bower_right": _("%(card)s, right bower: the highest trump"),
        "bower_left": _("%(card)s, left bower: a trump, second only to the right bower"),
        "not_playable": _("%(card)s, cannot be played now"),
        "card_by": _("%(name)s: %(card)s"),
        "cards_in_hand": _("Cards in hand: %(n)s"),
        "card_table": _("Card table"),
        "dealer_chip": _("D"),  # the dealer button's letter
        "contract": _("Contract"),
        "bid_need": _("Take at least %(need)s of %(total)s tricks."),
        "bid_need_team": _("Take at least %(need)s of %(total)s tricks with your partner."),
        "bid_all": _("Take all %(total)s tricks."),
        "bid_all_team": _("Take all %(total)s tricks with your partner."),
        "bid_stakes": _("Made: %(low)s to %(high)s · set: %(set)s"),
        "bid_stakes_fixed": _("Made: %(made)s · set: %(set)s"),
        "pass_meaning": _("Out of the auction for this hand."),
        "must_bid": _("Everyone else passed: you must bid."),
        "choose_trump_for": _("You won the auction with %(bid)s: choose trump."),
        **counted(
            "keys_hint",
            "Key 1 plays your playable card.",
            "Keys 1 to %(n)s play your playable cards from the left.",
        ),
        "pass_to": _("Pass the device to %(name)s"),
        "pass_hidden": _("The cards stay hidden until %(name)s takes the device."),
        "i_am": _("I am %(name)s"),
        "device_seat": _("%(name)s is playing on this device"),
        # dice-table: the dice table, the shared log, sounds and dice statistics
        "face_1": _("one"),
        "face_2": _("two"),
        "face_3": _("three"),
        "face_4": _("four"),
        "face_5": _("five"),
        "face_6": _("six"),
        "bank_plain": _("Bank"),
        "kept_this_turn": _("Set aside this turn:"),
        "to_throw": _("Dice to throw: %(n)s"),
        "tap_hint": _("Tap the dice you set aside."),
        "sel_points": _("%(dice)s: %(points)s points · turn total %(total)s"),
        "sel_hot": _("All dice scored: you throw all six again."),
        "sel_nothing": _("These dice score nothing."),
        "sel_not_scoring": _("Not a scoring selection: every die you set aside must score."),
        "or_pick": _("Or pick:"),
        "pf_stake": _("Pfeffer! is a bet on this turn: the stake is %(stake)s."),
        "pf_need": _("You must bank at least %(need)s."),
        "pf_short": _("You may bank from %(need)s; the bet is won at %(stake)s or more."),
        "pf_bust": _("A bust costs %(penalty)s (%(factor)s × the stake)."),
        "pf_bonus": _("Winning the bet earns a bonus of %(bonus)s."),
        "pf_no_bonus": _("Winning the bet earns no bonus at this table."),
        "kbd_hint": _("Keys: 1–6 pick a die · R roll · B bank · Esc clear"),
        "sheet_title": _("Score sheet"),
        "legend_auto": _("Auto-Pfeffer: the player before scored nothing"),
        "legend_pfeffer": _("Pfeffer called"),
        "legend_bust": _("bust"),
        "legend_penalty": _("penalty subtracted"),
        "log_round": _("Round %(n)s"),
        "log_throw": _("%(name)s throws %(dice)s"),
        "log_keep": _("%(name)s sets aside %(dice)s for %(points)s"),
        "log_hot_dice": _("%(name)s scored with every die: six dice again"),
        "log_pfeffer": _("%(name)s calls Pfeffer! Stake %(stake)s"),
        "log_auto_pfeffer": _("Auto-Pfeffer for %(name)s: a bust costs %(points)s"),
        "log_bank": _("%(name)s banks %(points)s (total %(total)s)"),
        "log_bonus": _("%(name)s wins the Pfeffer bet: bonus %(points)s"),
        "log_win": _("Winner: %(name)s with %(points)s"),
        "log_trick": _("%(name)s takes the trick"),
        "log_redeal": _("Hand %(n)s: everyone passed"),
        "log_hand": _("Hand %(n)s: %(name)s bid %(bid)s %(trump)s, %(result)s: %(points)s"),
        "stats_none": _("No dice thrown yet."),
        "stats_face": _("Face"),
        "stats_expected": _("Expected: %(n)s each"),
        "stats_summary": _("Dice: %(d)s · throws: %(k)s · chi-square %(chi)s · p = %(p)s"),
        "stats_few": _("Too few dice yet to judge the spread."),
        "stats_fair": _("A usual spread for fair dice."),
        # tablehints: the hint button's answer (static/hints.js)
        "hint_thinking": _("Thinking…"),
        "hint_heading": _("Advice"),
        "hint_close": _("Close the advice"),
        "hint_best": _("best"),
        "hint_dice_note": _("Each choice with its chance to win the game, then playing the best:"),
        "hint_expert": _("The expert would choose: %(action)s"),
        # tablehints: the game review on the replay page (static/review.js)
        **counted(
            "review_player",
            "%(name)s: %(n)s decision, the best chosen: %(best)s; chance to win given away: "
            "%(lost)s",
            "%(name)s: %(n)s decisions, the best chosen: %(best)s; chance to win given away "
            "in all: %(lost)s",
        ),
        # a percentage with two decimals (Czech: genitive singular after a decimal)
        "review_points": pg("decimal", "%(n)s percentage points"),
        "review_all_best": _("Every decision was the best one."),
        "review_mistakes": _("The costliest decisions"),
        "review_cost": _("−%(cost)s percentage points"),
        "review_start": _("%(own)s against %(other)s, before the first throw"),
        "review_keep": _("%(own)s against %(other)s, turn total %(total)s, thrown:"),
        "review_decide": _("%(own)s against %(other)s, turn total %(total)s, dice to throw: %(n)s"),
        "review_played": _("Played:"),
        "review_best": _("Best:"),
        "review_more": _("Show the other decisions (%(n)s)"),
        "review_dd_note": _(
            "Double dummy: what each side could have taken with every hand open and the best "
            "play by everyone."
        ),
        "review_hand": _("Hand %(n)s: %(name)s bids %(bid)s %(trump)s"),
        **counted(
            "review_side",
            "%(side)s: with best play %(n)s trick, taken %(taken)s",
            "%(side)s: with best play %(n)s tricks, taken %(taken)s",
        ),
        "review_card": _("%(name)s plays %(card)s: tricks lost by this card: %(lost)s"),
        "review_no_cost": _("No card cost a trick."),
        "review_failed": _("The review could not be loaded."),
        # the review of the hand just played at the live Pepper table (static/hand-review.js)
        "handreview_close": _("Close the review"),
        # tablehints: the strategy page of Würfel-Pfeffer (static/strategy.js)
        "st_first": _(
            "The first player wins %(p)s of games; a fair head start for the second player is "
            "about %(points)s points."
        ),
        "st_map_title": _("Your chance to win at the start of your turn"),
        "st_map_note": _(
            "Your total up, the opponent's across: green, you are ahead; red, behind. Point at "
            "a square for its number."
        ),
        "st_own": _("Your total"),
        "st_other": _("The opponent's total"),
        "st_cell": _("You %(own)s, opponent %(other)s: %(p)s"),
        "st_bank_title": _("When to bank"),
        "st_bank_note": _(
            "Each square: the turn total from which banking beats throwing the dice left, in "
            "an ordinary turn (no Pfeffer; banking needs at least %(min)s). ∞: throw on all the "
            "way up."
        ),
        "st_dice": _("Dice left: %(n)s"),
        "st_dice_hot": _("Six dice again after hot dice"),
        "st_bank_at": _("You %(own)s, opponent %(other)s: bank from %(total)s"),
        "st_bank_never": _("You %(own)s, opponent %(other)s: throw on"),
        "st_failed": _("The charts could not be loaded."),
        "stats_unusual": _(
            "An unusual spread for fair dice (p below 0.01): it happens "
            "at about one table in a hundred."
        ),
        # the puzzle trainer (static/train.js, issue 23)
        "tr_right": _("Right: the best answer."),
        "tr_wrong": _("Not the best: %(best)s."),
        "tr_cost": _("Your answer gave away %(cost)s percentage points of winning chance."),
        "tr_options": _("Every option with its chance to win:"),
        "tr_best": _("best"),
        "tr_yours": _("your answer"),
        "tr_rating_change": _("Rating %(before)s → %(after)s (%(delta)s)"),
        "tr_next": _("Next puzzle"),
        "tr_loading": _("Loading the puzzles…"),
        "tr_preparing": _("Preparing the puzzles of these rules…"),
        "tr_none": _("No puzzle of this theme is left; choose another theme."),
        "tr_offline_none": _(
            "No connection and no puzzle kept on this device: open the page again when the "
            "connection is back."
        ),
        "tr_held": _(
            "No connection: your answer is kept on this device and checked when the connection "
            "is back."
        ),
        "tr_held_count": _("Answers waiting for the connection: %(n)s"),
        "tr_sent": _("Answers made without a connection, now checked: %(right)s of %(n)s right."),
        "tr_rating": _("Rating"),
        "tr_streak": _("Streak"),
        "tr_best_streak": _("Best streak"),
        "tr_tries": _("Right answers"),
        "tr_theme": _("Theme"),
        "tr_accuracy": _("Right answers"),
        "tr_chart": _("Your rating after each puzzle"),
        "tr_chart_empty": _("The chart starts with your first answer."),
        "tr_puzzle_rating": _("Puzzle rating %(r)s"),
        "tr_daily": _("Puzzle of the day"),
        "tr_failed": _("The server did not answer; try again."),
        "tr_keys": _("Keys: N next puzzle"),
        "tr_value_points": _("points: %(v)s"),
        "tr_value_tricks": _("tricks: %(v)s"),
        "tr_cost_points": _("Your answer gave away %(cost)s points of the hand on average."),
        "tr_cost_tricks": _("Your answer takes fewer of the tricks left: %(cost)s less."),
        "tr_values": _("Every option with what it is worth:"),
        "tr_hands": _("Every hand:"),
    }
