"""Reading rendered pages without a browser (stdlib html.parser): a form's fields as the browser
would send them, and the text a person reads (text nodes and the attributes shown as text)."""

from __future__ import annotations

from html.parser import HTMLParser

SKIP = {"script", "style", "svg", "template"}
SHOWN_ATTRS = ("placeholder", "title", "aria-label", "alt")


class FormFields(HTMLParser):
    """The fields of the first ``<form method=post>`` as a browser submits them unchanged:
    inputs with their value, checked checkboxes ("on"), the selected option of each select."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self._in_form = False
        self._done = False
        self._select: str | None = None
        self._first_option: str | None = None
        self._selected = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        has = {k for k, _ in attrs}
        if tag == "form" and a.get("method", "").lower() == "post" and not self._done:
            self._in_form = True
        if not self._in_form:
            return
        if tag == "input" and "name" in a:
            kind = a.get("type", "text")
            if kind == "checkbox":
                if "checked" in has:
                    self.fields[a["name"]] = a.get("value") or "on"
            elif kind != "submit":
                self.fields[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select, self._first_option, self._selected = a.get("name"), None, False
        elif tag == "option" and self._select is not None:
            if self._first_option is None:
                self._first_option = a.get("value", "")
            if "selected" in has:
                self.fields[self._select] = a.get("value", "")
                self._selected = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            if not self._selected and self._first_option is not None:
                self.fields[self._select] = self._first_option
            self._select = None
        if tag == "form" and self._in_form:
            self._in_form, self._done = False, True


def form_fields(html: str) -> dict[str, str]:
    """The fields the page's first POST form sends as rendered."""
    p = FormFields()
    p.feed(html)
    return p.fields


class Texts(HTMLParser):
    """Every text of a page a person reads: text nodes outside scripts and styles, and the
    attributes a browser shows (placeholder, title, aria-label, alt, a button's value)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIP:
            self._skip += 1
        for k, v in attrs:
            if v and (k in SHOWN_ATTRS or (tag == "input" and k == "value" and _is_button(attrs))):
                self.texts.append(v.strip())

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIP and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def _is_button(attrs: list[tuple[str, str | None]]) -> bool:
    return any(k == "type" and v in ("submit", "button") for k, v in attrs)


def page_texts(html: str) -> list[str]:
    """The texts a person reads on the page (see :class:`Texts`)."""
    p = Texts()
    p.feed(html)
    return p.texts
