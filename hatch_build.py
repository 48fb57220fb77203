"""Build hook: compile the translations (``messages.po`` -> ``messages.mo``) into the package
when a wheel (or an editable install) is built, so that no install needs Babel at run time.

The ``.mo`` files are build products (ignored by git); ``pfeffer.core.i18n`` (re-exported as
``pfeffer.web.i18n``) reads them and only compiles a ``.po`` in memory when it is newer than its
``.mo`` (a translator's checkout).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

LOCALES = Path("src/pfeffer/web/i18n/locale")


class CompileCatalogues(BuildHookInterface):  # type: ignore[type-arg]
    """Write ``messages.mo`` next to every ``messages.po``."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root)
        for po in sorted((root / LOCALES).glob("*/LC_MESSAGES/messages.po")):
            with po.open("rb") as f:
                catalog = read_po(f, locale=po.parent.parent.name)
            with po.with_suffix(".mo").open("wb") as f:
                write_mo(f, catalog)
