"""The names of a solve's stages, as its ``progress(stage, fraction)`` callback gets them: plain
English strings (the web's progress file stores them as they are) that keep their template and
values, so that a front end can say them in its language.

>>> s = sweep(3); s, s.template, s.params
('sweep 3', 'sweep {n}', {'n': 3})
>>> FINAL_ROUND.template, DONE
('final round', 'done')
"""

from __future__ import annotations

from typing import Any, Self


class Stage(str):
    """A stage's name in English; ``template`` (a msgid with ``{name}`` fields) and ``params``
    are what it was filled in from."""

    template: str
    params: dict[str, Any]

    @classmethod
    def of(cls, template: str, /, **params: Any) -> Self:
        """The stage ``template.format(**params)``, keeping both."""
        stage = cls(template.format(**params))
        stage.template = template
        stage.params = params
        return stage


#: Solving the table of the last turns, after a player reached the target.
FINAL_ROUND = Stage.of("final round")
#: The solve has finished.
DONE = Stage.of("done")


def sweep(n: int) -> Stage:
    """The ``n``-th sweep of the value iteration."""
    return Stage.of("sweep {n}", n=n)


__all__ = ["DONE", "FINAL_ROUND", "Stage", "sweep"]
