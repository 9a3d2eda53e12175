"""The grenades that simply hurt: Frag (C:L1546), Incendiary (C:L1548) and Lightning
(C:L1550). Their damage is no Master Table roll (A-42): everyone in the detonation sector
takes the full amount and everyone in an adjacent one half, less Body Armor as each grenade
allows."""

from typing import Annotated

from pydantic import Field

from service.rules.four_c.combat.damage import Armors, pierced, through
from service.rules.four_c.combat.options import PiercingOptions
from service.rules.four_c.core.ranks import RankValue
from service.rules.four_c.grenades.core import Distance, in_area
from service.rules.four_c.grenades.options import FragArmor, FragOptions
from service.rules.four_c.grenades.tables import BLASTS, Grenade
from service.rules.model import Model
from service.rules.registry import Kind, operation

__all__ = ["frag", "incendiary", "lightning"]

Points = Annotated[int, Field(ge=0, le=100_000)]


class BlastTarget(Model):
    distance_sectors: Distance = 0
    body_armor: RankValue = Field(
        default=0, description="The target's Body Armor, as a power or a device granting it."
    )
    other_armor: Armors = Field(
        default=(),
        description="Each other armor worn or active (a Force Field...): the grenade's rule "
        "reaches it only with armor_piercing_scope all_armor (A-21).",
    )
    damage_points: Points | None = Field(
        default=None, description="The target's Damage points before the blast, if known."
    )


class Blast(Model):
    reached: bool = Field(description="False: beyond the adjacent sectors, untouched.")
    raw: int = Field(description="The damage the blast deals where the target is.")
    body_armor: int = Field(description="The Body Armor that counts against this blast.")
    armor: int = Field(
        description="All the armor that counts: Body Armor and the others, the highest or "
        "the sum (armor_stacking, A-21)."
    )
    taken: int
    damage_points: int | None
    dying: bool = Field(description="The target's Damage points reached 0 (C:L1165).")
    body_armor_after: int = Field(description="The target's Body Armor after the blast.")
    counts_as: str | None = Field(
        description="The power it mimics for control and absorption powers."
    )


def _blast(
    which: Grenade, target: BlastTarget, armor_works: bool, lasting: bool, options: PiercingOptions
) -> Blast:
    """The blast's damage where the target stands, less its armor as the grenade leaves it
    (never below 0), off its Damage points (C:L1192-1194). The grenade's rule is written for
    Body Armor; other armor keeps its value unless armor_piercing_scope says all (A-21). A
    target beyond the adjacent sectors is not affected (C:L1546-1550): its armor stays its
    own."""
    row = next(r for r in BLASTS if r.grenade is which)
    reached = in_area(which, target.distance_sectors)
    raw = 0
    if reached:
        raw = row.sector_damage if target.distance_sectors == 0 else row.adjacent_damage

    def pierce(armor: int) -> int:
        if not reached:
            return armor
        return max(armor + row.body_armor_change, 0) if armor_works else 0

    body = pierce(target.body_armor)
    armor = pierced(target.body_armor, target.other_armor, pierce, options)
    taken = through(raw, armor)
    left = None if target.damage_points is None else max(target.damage_points - taken, 0)
    after = body if lasting and reached else target.body_armor
    return Blast(reached=reached, raw=raw, body_armor=body, armor=armor, taken=taken,
                 damage_points=left, dying=left == 0, body_armor_after=after,
                 counts_as=row.counts_as)  # fmt: skip


class FragInput(BlastTarget):
    options: FragOptions = Field(default=FragOptions())


@operation(
    name="grenade/frag",
    kind=Kind.CALCULATION,
    covers=("4c.grenade.frag",),
    example={"distance_sectors": 0, "body_armor": 15, "damage_points": 60},
)
def frag(request: FragInput) -> Blast:
    """20 damage to everyone in the sector, 10 in adjacent sectors, each target's Body Armor
    10 lower against it (C:L1546): Body Armor 15 takes 15 and 5 (catalogue T20). The
    reduction lasts for this blast only, by default (A-42)."""
    lasting = request.options.grenade_frag_armor is FragArmor.LASTING
    return _blast(Grenade.FRAG, request, True, lasting, request.options)


class IncendiaryInput(BlastTarget):
    fire_proof: bool = Field(
        default=False, description="The Body Armor (or its device) is designed to resist fire."
    )
    options: PiercingOptions = Field(default=PiercingOptions())


@operation(
    name="grenade/incendiary",
    kind=Kind.CALCULATION,
    covers=("4c.grenade.incendiary",),
    example={"distance_sectors": 1, "body_armor": 40},
)
def incendiary(request: IncendiaryInput) -> Blast:
    """30 damage to everyone in the sector, 15 in adjacent sectors; Body Armor does not work
    against it unless designed to resist fire (C:L1548): Body Armor 40 takes 30 and 15
    (catalogue T21). It counts as Elemental Generation (Fire) 30 for control and absorption."""
    return _blast(Grenade.INCENDIARY, request, request.fire_proof, False, request.options)


class LightningInput(BlastTarget):
    electric_proof: bool = Field(
        default=False,
        description="The Body Armor (or its device) is designed to resist electrical attacks.",
    )
    options: PiercingOptions = Field(default=PiercingOptions())


@operation(
    name="grenade/lightning",
    kind=Kind.CALCULATION,
    covers=("4c.grenade.lightning",),
    example={"distance_sectors": 0, "body_armor": 20, "electric_proof": True},
)
def lightning(request: LightningInput) -> Blast:
    """30 damage to everyone in the sector, 15 in adjacent sectors; Body Armor does not work
    against it unless designed to resist electrical attacks (C:L1550). It counts as Energy
    Generation (Electricity) 30 for control and absorption."""
    return _blast(Grenade.LIGHTNING, request, request.electric_proof, False, request.options)
