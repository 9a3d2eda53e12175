"""The combat time tables, read from `tables.json` beside this module: the chapter's simple,
complex and extended actions (FI:L195-201)."""

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["ACTION_CLASSES", "ActionClassRow"]


class ActionClassRow(Model):
    action: str
    action_class: str
    cards: int | None
    note: str


ACTION_CLASSES = table(__name__, "action_classes", ActionClassRow)
