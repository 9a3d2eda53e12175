"""4SIGHT characters and advancement (catalogue A3.23-A3.30) through the registered operations.

Requests go through JSON as on the wire (the models are strict: in Python mode an enum field
accepts only members). Every test cites the seed text (seeds/000) as S:L<n>.
"""

import json
from typing import Any

import pytest

from service.rules.four_sight.advancement import award, spend
from service.rules.four_sight.characters import (
    Character,
    create_character,
    create_npc,
    validate_character,
)
from service.rules.model import Violations
from service.rules.registry import Operation

SCORES = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")


def run(op: Operation, payload: dict[str, Any]) -> Any:
    return op.run(op.request_model.model_validate_json(json.dumps(payload)))


def make(op: Operation, payload: dict[str, Any]) -> Any:
    """The character record a create operation returns."""
    return run(op, payload).character


def violations(op: Operation, payload: dict[str, Any]) -> dict[tuple[str | int, ...], str]:
    with pytest.raises(Violations) as caught:
        run(op, payload)
    return {error.loc: error.message for error in caught.value.errors}


def sheet(**fields: Any) -> dict[str, Any]:
    """A valid PC sheet (the S:L67 example), with `fields` replaced."""
    base: dict[str, Any] = {
        "name": "Crossbow",
        "traits": {"strength": 5, "intelligence": 1},
        "expertise": ["Combat", "security bypass", "sciences"],
        "manifestation": "Accelerated Computation",
    }
    return {**base, **fields}


def scores(character: Any) -> list[int]:
    return [getattr(character.traits, name) for name in SCORES]


# Creation: traits (S:L67)


def test_seed_example_five_strength_one_intelligence():
    """S:L67: five points in Strength and one in Intelligence give Strength 6, Intelligence 2,
    and every other trait its starting 1."""
    character = make(create_character, sheet())
    assert scores(character) == [6, 1, 1, 2, 1, 1]
    assert character.kind == "pc"
    assert character.advancement_points == 0
    assert run(create_character, sheet()).options_applied.trait_budget_mode == "exact"


def test_acceptance_every_violation_reported_together():
    """Seven trait points, four picks and an unknown manifestation: all three at once."""
    found = violations(
        create_character,
        sheet(
            traits={"strength": 6, "intelligence": 1},
            expertise=["combat", "espionage", "stealth", "physics"],
            manifestation="telekinesis",
        ),
    )
    assert set(found) == {("traits",), ("expertise",), ("manifestation",)}
    assert found[("traits",)] == "trait points must total exactly 6; got 7 (S:L67, S-A02)"
    assert "exactly 3" in found[("expertise",)]
    assert "got 4" in found[("expertise",)]
    assert "Sixth Sense" in found[("manifestation",)]
    assert "Precognitive Flare" in found[("manifestation",)]


def test_negative_allocation_is_reported_by_the_rule():
    """S:L67: the player distributes points; a negative share takes one away."""
    found = violations(create_character, sheet(traits={"strength": 7, "charisma": -1}))
    assert set(found) == {("traits", "charisma")}
    assert "negative" in found[("traits", "charisma")]


def test_fewer_points_fail_exact_but_pass_at_most():
    """S-A02: exactly six by default; at most six as an option."""
    short = sheet(traits={"strength": 4})
    assert set(violations(create_character, short)) == {("traits",)}
    character = make(create_character, {**short, "options": {"trait_budget_mode": "at_most"}})
    assert scores(character) == [5, 1, 1, 1, 1, 1]
    over = {**sheet(traits={"strength": 7}), "options": {"trait_budget_mode": "at_most"}}
    message = violations(create_character, over)[("traits",)]
    assert message.startswith("trait points must total at most 6; got 7")


def test_trait_cap():
    """S-A03: no cap by default (a score of 7 is possible); a GM cap is enforced per trait."""
    assert make(create_character, sheet(traits={"wisdom": 6})).traits.wisdom == 7
    capped = {**sheet(traits={"wisdom": 6}), "options": {"trait_cap": 5}}
    assert violations(create_character, capped) == {
        ("traits", "wisdom"): "wisdom score 7 exceeds trait_cap 5 (S-A03)"
    }


# Creation: expertise (S:L71-85)


def test_expertise_resolution():
    """S:L71, S:L75-83: names in any case or spacing; specialty dice 2 with its affinity."""
    picks = ["COMBAT", "Security  Bypass", "physical_skills"]
    character = make(create_character, sheet(expertise=picks))
    summary = [(e.name, e.kind, e.affinity, e.custom, e.dice) for e in character.expertise]
    assert summary == [
        ("Combat", "affinity", "combat", False, 1),
        ("security bypass", "specialty", "espionage", False, 2),
        ("Physical Skills", "affinity", "physical_skills", False, 1),
    ]


def test_duplicate_picks_are_rejected_unless_allowed():
    """S-A04: the same area picked twice is reported at the repeated pick."""
    picks = ["combat", "social_skills", "Social Skills"]
    found = violations(create_character, sheet(expertise=picks))
    assert set(found) == {("expertise", 2)}
    assert "expertise[1]" in found[("expertise", 2)]
    allowed = {**sheet(expertise=picks), "options": {"allow_duplicate_expertise": True}}
    assert len(make(create_character, allowed).expertise) == 3


def test_affinity_with_its_own_specialty_and_specialty_without_affinity():
    """S-A04: an affinity with one of its specialties is allowed; a specialty does not need
    its affinity."""
    character = make(create_character, sheet(expertise=["combat", "firearms", "chemistry"]))
    assert [e.affinity for e in character.expertise] == ["combat", "combat", "sciences"]


def test_custom_expertise_needs_gm_approval():
    """S:L73: new areas of expertise only with the GM's approval."""
    picks = ["combat", "firearms", "lock picking"]
    found = violations(create_character, sheet(expertise=picks))
    assert set(found) == {("expertise", 2)}
    assert "gm_approved_expertise" in found[("expertise", 2)]
    approved = [{"name": "Lock Picking", "kind": "specialty"}]
    character = make(create_character, sheet(expertise=picks, gm_approved_expertise=approved))
    custom = character.expertise[2]
    assert (custom.name, custom.kind, custom.affinity, custom.custom, custom.dice) == (
        "Lock Picking",
        "specialty",
        None,
        True,
        2,
    )


def test_gm_approved_area_must_be_new():
    """S:L73: a listed specialty is not a new area."""
    approved = [{"name": "firearms", "kind": "affinity"}]
    found = violations(create_character, sheet(gm_approved_expertise=approved))
    assert set(found) == {("gm_approved_expertise", 0, "name")}


def test_wild_card():
    """S:L85: one optional wild card, extra to the three picks, not covered by an affinity
    group; the GM approves it (S-A05)."""
    listed = violations(create_character, sheet(wild_card="stealth", wild_card_gm_approved=True))
    assert set(listed) == {("wild_card",)}
    assert "listed specialty 'stealth'" in listed[("wild_card",)]
    unapproved = violations(create_character, sheet(wild_card="Chinese cooking"))
    assert "wild_card_gm_approved" in unapproved[("wild_card",)]
    character = make(
        create_character, sheet(wild_card="Chinese cooking", wild_card_gm_approved=True)
    )
    assert len(character.expertise) == 3
    wild = character.wild_card
    assert (wild.name, wild.kind, wild.custom, wild.dice) == (
        "Chinese cooking",
        "specialty",
        True,
        2,
    )
    relaxed = {**sheet(wild_card="pottery"), "options": {"wild_card_requires_gm_approval": False}}
    assert make(create_character, relaxed).wild_card.name == "pottery"


# Creation: manifestation (S:L89-103)


def test_manifestation_by_value_or_printed_name_or_custom():
    """S:L89: one of the seven by enum value or printed name, or a GM-approved custom one."""
    by_value = make(create_character, sheet(manifestation="deep_sight")).manifestations
    assert [(m.manifestation, m.name) for m in by_value] == [("deep_sight", "Deep Sight")]
    custom = sheet(manifestation="Retrocognition", custom_manifestation_gm_approved=True)
    found = make(create_character, custom).manifestations
    assert [(m.manifestation, m.name) for m in found] == [("custom", "Retrocognition")]


# Validation shares the rules of creation


def test_validate_reports_the_same_violations_as_create():
    """The one checking function: create refuses, validate reports."""
    bad = sheet(
        traits={"strength": 8, "charisma": -1},
        expertise=["combat", "combat"],
        wild_card="firearms",
        manifestation="x",
    )
    refused = violations(create_character, bad)
    report = run(validate_character, bad)
    assert report.valid is False
    pointers = {v.pointer: v.message for v in report.violations}
    expected = {"/" + "/".join(str(p) for p in loc): msg for loc, msg in refused.items()}
    assert pointers == expected
    assert set(pointers) == {
        "/traits/charisma",
        "/traits",
        "/expertise",
        "/expertise/1",
        "/wild_card",
        "/manifestation",
    }


def test_validate_a_good_sheet():
    report = run(validate_character, sheet())
    assert (report.valid, report.violations) == (True, [])


# NPCs (S:L67, S:L179, S:L229)


def test_npc_defaults_to_an_average_person():
    """S:L67: an average person has trait scores of 0; an NPC needs no manifestation
    (S-A30)."""
    npc = make(create_npc, {"name": "Guard"})
    assert scores(npc) == [0] * 6
    assert (npc.kind, npc.manifestations, npc.expertise, npc.omega) == ("npc", (), (), False)


def test_npc_traits_may_be_negative_and_expertise_free():
    """S:L67: an elderly person might have Strength -1 or lower; no creation budget."""
    npc = make(
        create_npc,
        {
            "name": "Terrorist computer expert",
            "traits": {"strength": -2, "intelligence": 1},
            "expertise": [
                "mathematics/computers",
                "demolitions",
                "stealth",
                "Espionage",
                "ham radio",
            ],
            "custom_expertise": [{"name": "ham radio", "kind": "specialty"}],
        },
    )
    assert (npc.traits.strength, npc.traits.intelligence) == (-2, 1)
    assert [e.dice for e in npc.expertise] == [2, 2, 2, 1, 2]


def test_npc_with_a_rare_manifestation():
    """S:L179: NPCs have manifestations only in rare cases."""
    npc = make(create_npc, {"name": "Rival", "manifestations": ["sixth_sense"]})
    assert [m.manifestation for m in npc.manifestations] == ["sixth_sense"]


def test_omega_operative_has_no_manifestation():
    """S:L229: Section 6 members do not have 4SIGHT manifestations."""
    assert make(create_npc, {"name": "Omega agent", "omega": True}).omega is True
    found = violations(
        create_npc, {"name": "Omega agent", "omega": True, "manifestations": ["Deep Sight"]}
    )
    assert set(found) == {("manifestations",)}


def test_npc_unknown_manifestation():
    found = violations(create_npc, {"name": "Rival", "manifestations": ["telepathy"]})
    assert set(found) == {("manifestations", 0)}
    npc = make(
        create_npc,
        {"name": "Rival", "manifestations": ["telepathy"], "allow_custom_manifestations": True},
    )
    assert npc.manifestations[0].manifestation == "custom"


# Advancement: award (S:L233-235)


def awards_of(payload: dict[str, Any]) -> dict[str, tuple[int, int, int]]:
    result = run(award, payload)
    return {a.id: (a.survival, a.bonus, a.total) for a in result.awards}


def test_award_survivors_and_best_player():
    """S:L233-235: a point per survivor, a bonus point to the best player."""
    found = awards_of(
        {
            "characters": [
                {"id": "crossbow", "survived": True},
                {"id": "megabyte", "survived": True},
                {"id": "redshirt", "survived": False},
            ],
            "best_player": "megabyte",
        }
    )
    assert found == {"crossbow": (1, 0, 1), "megabyte": (1, 1, 2), "redshirt": (0, 0, 0)}


def test_award_bonus_to_a_dead_characters_player():
    """S:L233-235: the bonus rewards the player, not survival."""
    found = awards_of({"characters": [{"id": "a", "survived": False}], "best_player": "a"})
    assert found == {"a": (0, 1, 1)}


def test_award_best_player_must_be_a_character_and_ids_unique():
    found = violations(
        award,
        {
            "characters": [{"id": "a", "survived": True}, {"id": "a", "survived": False}],
            "best_player": "b",
        },
    )
    assert set(found) == {("characters", 1, "id"), ("best_player",)}


# Advancement: spend (S:L237-243)


def created(**fields: Any) -> dict[str, Any]:
    """A created character as a client holds it: the record's JSON, posted back as it is."""
    data: dict[str, Any] = json.loads(make(create_character, sheet(**fields)).model_dump_json())
    return data


def spent(character: dict[str, Any], points: int, *purchases: dict[str, Any], **extra: Any) -> Any:
    return run(
        spend, {"character": character, "points": points, "purchases": list(purchases), **extra}
    )


def test_spend_round_trips_a_created_character():
    """The record create returns is the record spend reads and returns."""
    character = created()
    result = spent(character, 0)
    assert json.loads(result.character.model_dump_json()) == character
    again = spent(json.loads(result.character.model_dump_json()), 0)
    assert again.character == result.character


def test_spend_costs():
    """S:L239-243: trait 2 points per +1, affinity/specialty 3, manifestation 10."""
    result = spent(
        created(),
        17,
        {"kind": "trait", "trait": "dexterity"},
        {"kind": "expertise", "expertise": "Stealth"},
        {"kind": "manifestation", "manifestation": "Sixth Sense"},
    )
    assert (result.points_spent, result.points_left) == (15, 2)
    character = result.character
    assert character.traits.dexterity == 2
    assert character.expertise[-1].name == "stealth"
    assert [m.name for m in character.manifestations] == ["Accelerated Computation", "Sixth Sense"]
    assert character.advancement_points == 2


def test_spend_leftover_carries_over_to_the_record():
    """S:L237 'may but need not spend': unspent points stay on the record (S-A26)."""
    first = spent(created(), 5, {"kind": "trait", "trait": "wisdom"})
    assert (first.points_spent, first.points_left) == (2, 3)
    record = json.loads(first.character.model_dump_json())
    second = run(
        spend, {"character": record, "purchases": [{"kind": "expertise", "expertise": "chemistry"}]}
    )
    assert (second.points_spent, second.points_left) == (3, 0)


def test_spend_not_enough_points():
    found = violations(
        spend,
        {
            "character": created(),
            "points": 9,
            "purchases": [{"kind": "manifestation", "manifestation": "deep_sight"}],
        },
    )
    assert found == {
        ("points",): "not enough advancement points: the purchases cost 10, 9 available"
    }


def test_spend_duplicates_cap_and_unknown_names():
    """S-A04 duplicates, S-A03 cap, unknown names: each reported at its purchase."""
    found = violations(
        spend,
        {
            "character": created(),
            "points": 100,
            "purchases": [
                {"kind": "expertise", "expertise": "combat"},
                {"kind": "manifestation", "manifestation": "accelerated_computation"},
                {"kind": "trait", "trait": "strength"},
                {"kind": "expertise", "expertise": "basket weaving"},
                {"kind": "manifestation", "manifestation": "telepathy"},
                {"kind": "trait"},
            ],
            "options": {"trait_cap": 6},
        },
    )
    assert set(found) == {
        ("purchases", 0, "expertise"),
        ("purchases", 1, "manifestation"),
        ("purchases", 2, "trait"),
        ("purchases", 3, "expertise"),
        ("purchases", 4, "manifestation"),
        ("purchases", 5, "trait"),
    }
    assert "would exceed the trait cap 6" in found[("purchases", 2, "trait")]


def test_spend_upgrade_custom_and_wild_card():
    """S-A26: an affinity's specialty is a new pick at 3; a wild card if none is held."""
    result = spent(
        created(),
        9,
        {"kind": "expertise", "expertise": "firearms"},
        {"kind": "expertise", "expertise": "parkour"},
        {"kind": "wild_card", "wild_card": "pottery"},
        gm_approved_expertise=[{"name": "parkour", "kind": "specialty"}],
        wild_card_gm_approved=True,
    )
    assert result.points_left == 0
    assert [e.name for e in result.character.expertise][-2:] == ["firearms", "parkour"]
    assert result.character.wild_card.name == "pottery"
    record = json.loads(result.character.model_dump_json())
    again = violations(
        spend,
        {
            "character": record,
            "points": 3,
            "wild_card_gm_approved": True,
            "purchases": [{"kind": "wild_card", "wild_card": "jazz"}],
        },
    )
    assert set(again) == {("purchases", 0, "wild_card")}


def test_spend_manifestation_for_omega_is_rejected():
    """S:L229: Omega operatives have no manifestations, even bought."""
    npc = make(create_npc, {"name": "Omega agent", "omega": True})
    record = json.loads(npc.model_dump_json())
    record = {name: record[name] for name in Character.model_fields}
    found = violations(
        spend,
        {
            "character": record,
            "points": 10,
            "purchases": [{"kind": "manifestation", "manifestation": "deep_sight"}],
        },
    )
    assert set(found) == {("purchases", 0, "manifestation")}
