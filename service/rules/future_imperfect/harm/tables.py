"""The harm tables of Future Imperfect, read from `tables.json` beside this module: armor by
material (FI:L499-504), the damage columns (FI:L470-477) and the wound levels with their
penalties, Stun, recovery and healing TNs and bleeding (FI:L528-619)."""

from pydantic import Field

from service.rules.model import Model
from service.rules.tables import table

__all__ = ["ARMOR_MATERIALS", "DAMAGE_COLUMNS", "WOUND_LEVELS", "ArmorMaterial", "WoundLevel"]


class ArmorMaterial(Model):
    armor: int
    materials: str
    stops_column: int = Field(description="The highest damage column this armor stops.")


class DamageColumn(Model):
    column: int
    weapon_types: str


class WoundLevel(Model):
    level: int
    name: str
    penalty: int = Field(description="On every roll but 'effect' totals (FI:L564).")
    tn: int = Field(description="Stun, recovery and healing TN: 1 + 2 x level, at least 3 (A-62).")
    tn_row: str = Field(description="How the recovery and healing tables name the row.")
    bleeding: int = Field(description="CT lost a round from Heavy on (FI:L601).")


ARMOR_MATERIALS = table(__name__, "armor_materials", ArmorMaterial, covers=("fi.armor.materials",))
DAMAGE_COLUMNS = table(__name__, "damage_columns", DamageColumn, covers=("fi.damage.columns",))
WOUND_LEVELS = table(__name__, "wound_levels", WoundLevel)
