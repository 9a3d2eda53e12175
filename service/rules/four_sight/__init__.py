"""4SIGHT: a d6 target-number game with exploding combat dice and precognitive multipliers
(seed 000, catalogue 4sight-4d8.md part A)."""

from service.rules.four_sight.advancement import award, spend
from service.rules.four_sight.characters import create_character, create_npc, validate_character
from service.rules.four_sight.checks import check, opposed_check
from service.rules.four_sight.combat import attack, combat_expertise, grievous_check, turn_order
from service.rules.four_sight.manifestations import recovery
from service.rules.four_sight.mooks import mook_horde
from service.rules.four_sight.tables import tables
from service.rules.registry import System

__all__ = ["SYSTEM"]

SYSTEM = System(
    slug="four-sight",
    title="4SIGHT",
    seed="000_8011b9f768e2ac0d.txt",
    operations=(
        check, opposed_check, attack, combat_expertise, grievous_check, mook_horde, turn_order,
        recovery, create_character, validate_character, create_npc, award, spend,
    ),
    tables=tables(),
    # An average-to-heroic character's checks at every target number, and plain fights.
    standard_odds=(
        *((check, {"traits": [{"trait": "dexterity", "score": trait}], "target_number": tn})
          for trait in range(0, 6) for tn in range(1, 8)),
        *((attack, {"attacker": {"traits": [{"trait": "dexterity", "score": a}]},
                    "defender": {"traits": [{"trait": "dexterity", "score": d}]}})
          for a in range(1, 5) for d in range(1, 5)),
    ),
)  # fmt: skip
