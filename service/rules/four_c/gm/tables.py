"""The gamemastering tables of 4C, read from `tables.json` beside this module: suggested
circumstance Row Steps (C:L1320-1327, C:L1407-1413), Fortune by scale (C:L1345-1371),
Lifestyle (C:L1373-1393), public reactions (C:L1397-1405) and Repute events (C:L1417-1428)."""

from enum import StrEnum

from service.rules.four_c.core.tables import Colour
from service.rules.model import Model
from service.rules.tables import table

__all__ = ["Event", "Scale"]


class Circumstance(Model):
    circumstance: str
    row_steps: int
    applies_to: str


class Scale(StrEnum):
    PERSONAL = "personal"
    NEIGHBORHOOD = "neighborhood"
    CITY = "city"
    STATE = "state"
    NATIONAL = "national"
    GLOBAL = "global"


class ScaleRow(Model):
    scale: Scale
    points: int


class LifestyleRow(Model):
    rv_min: int
    rv_max: int | None
    wealth: str


class Reaction(StrEnum):
    UNFAVORABLE = "unfavorable"
    FAVORABLE = "favorable"
    VERY_FAVORABLE = "very_favorable"
    EXTREMELY_FAVORABLE = "extremely_favorable"


class ReactionRow(Model):
    colour: Colour
    reaction: Reaction
    quote: str


class Event(StrEnum):
    THWART_CRIMINAL_ACTIVITY = "thwart_criminal_activity"
    SAVE_A_LIFE = "save_a_life"
    COMMIT_CRIMINAL_ACTIVITY = "commit_criminal_activity"


class EventRow(Model):
    event: Event
    points: int


CIRCUMSTANCES = table(
    __name__, "circumstances", Circumstance, covers=("4c.gm.circumstance_modifiers",)
)
FORTUNE_SCALES = table(__name__, "fortune-scales", ScaleRow)
LIFESTYLES = table(__name__, "lifestyles", LifestyleRow, covers=("4c.lifestyle.lookup",))
REACTIONS = table(__name__, "reactions", ReactionRow)
REPUTE_EVENTS = table(__name__, "repute-events", EventRow)
