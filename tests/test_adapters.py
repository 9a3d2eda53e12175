"""The chat adapters (service.adapters): a result as a Foundry VTT `Roll` and as a Discord
message.

Foundry's side is checked the way `Roll.fromData` reads the JSON (Foundry v13's
`client/dice/roll.mjs` and `terms/*.mjs`): every term of a known class, the formula Foundry
would write for the terms (`Roll.getFormula`), each `Die` totalling its active results and
the roll totalling its terms' totals joined by their operators (`Roll#_evaluateTotal`).
Discord's side is checked against Discord's published embed limits.
"""

import dataclasses
import json
import re
from typing import Any

import pydantic_core
import pytest
from pydantic import Field, create_model

from service.adapters import discord_message, foundry_roll
from service.adapters.discord import (
    DESCRIPTION,
    EMBED_TOTAL,
    FIELD_NAME,
    FIELD_VALUE,
    FIELDS,
    FOOTER,
    TITLE,
    DiscordMessage,
    units,
)
from service.adapters.foundry import FoundryRoll
from service.adapters.terms import MAX_DICE
from service.rules.dice import Dice, DiceSpec, Roll
from service.rules.model import InputError, Model
from service.rules.registry import Operation, load

REGISTRY = load()
OPERATIONS = {f"{op.system}/{op.name}": op for s in REGISTRY.systems for op in s.operations}
ROLLING = [name for name, op in OPERATIONS.items() if op.random]
#: A Die term as Foundry's grammar reads it: `NdF`, the explode modifier, bracketed flavor.
DIE_FORMULA = re.compile(r"^([0-9]+)d([0-9]+)(x?)\[([^\[\]@]+)\]$")


def run(name: str, request: dict[str, Any] | None = None) -> tuple[Operation, Model]:
    op = OPERATIONS[name]
    body = json.dumps(op.example if request is None else request)
    return op, op.run(op.request_model.model_validate_json(body))


def wire(model: Model) -> Any:
    """The JSON a response would carry, as the service writes results."""
    return json.loads(pydantic_core.to_json(model))


def from_data(data: dict[str, Any]) -> None:
    """What `Roll.fromData` relies on, checked: it parses `formula`, rebuilds each term by its
    class and takes `total` as the roll's."""
    assert data["class"] == "Roll"
    assert data["evaluated"] is True
    assert data["dice"] == []
    formula, totals = [], []
    for term in data["terms"]:
        assert term["class"] in {"Die", "OperatorTerm", "NumericTerm"}
        assert term["evaluated"] is True
        if term["class"] == "OperatorTerm":
            assert term["options"] == {}
            assert term["operator"] == "+"
            formula.append(" + ")
            totals.append("+")
            continue
        flavor = term["options"]["flavor"]
        if term["class"] == "NumericTerm":
            formula.append(f"{term['number']}[{flavor}]")
            totals.append(str(term["number"]))
            continue
        results = term["results"]
        written = f"{term['number']}d{term['faces']}{''.join(term['modifiers'])}[{flavor}]"
        assert DIE_FORMULA.match(written), written
        formula.append(written)
        for result in results:
            assert set(result) == {"result", "active", "exploded", "discarded"}
            assert 1 <= result["result"] <= term["faces"]
            assert result["active"] is not result["discarded"]
        exploded = sum(r["exploded"] for r in results)
        # Each explosion rolls one more die, as Foundry's `Die#explode` appends one result.
        assert len(results) == term["number"] + exploded
        assert term["modifiers"] == (["x"] if exploded else [])
        totals.append(str(sum(r["result"] for r in results if r["active"])))
    assert data["formula"] == "".join(formula)
    assert [t["class"] == "OperatorTerm" for t in data["terms"]] == [
        i % 2 == 1 for i in range(len(data["terms"]))
    ]
    assert data["total"] == eval(" ".join(totals))


def within_limits(message: DiscordMessage) -> None:
    """Discord's limits, counted as Discord counts: UTF-16 code units."""
    data = wire(message)
    assert set(data) == {"embeds", "allowed_mentions"}
    assert data["allowed_mentions"] == {"parse": []}
    (embed,) = data["embeds"]
    assert 1 <= units(embed["title"]) <= TITLE
    assert 1 <= units(embed["description"]) <= DESCRIPTION
    assert len(embed["fields"]) <= FIELDS
    for field in embed["fields"]:
        assert 1 <= units(field["name"]) <= FIELD_NAME
        assert 1 <= units(field["value"]) <= FIELD_VALUE
    assert 1 <= units(embed["footer"]["text"]) <= FOOTER
    texts = [embed["title"], embed["description"], embed["footer"]["text"]]
    texts += [f["name"] + f["value"] for f in embed["fields"]]
    assert sum(map(units, texts)) <= EMBED_TOTAL


def test_units_count_as_javascript_does():
    assert (units("d6"), units("→…·"), units("🎲")) == (2, 3, 2)


# --- the 4SIGHT exploding attack -----------------------------------------------------------


def test_four_sight_exploding_attack_as_a_foundry_roll():
    """Seed 11: the attacker's 6 explodes into a 4, the defender rolls 5; the roll is
    `1d6x[attacker base] + 1d6[defender base]` = 15, the hit and its injury in the flavor."""
    op, result = run("four-sight/combat-attack")
    data = wire(foundry_roll(op, result))
    assert data == {
        "class": "Roll",
        "options": {
            "flavor": "hit: yes · margin: 6 · injury: moderate · defender injuries: moderate"
            " · defender penalty per die: 2 · grievous check required: no",
            "adjudicator": {
                "system": "four-sight",
                "operation": "combat-attack",
                "seed": 11,
                "rules_version": result.rules_version,  # type: ignore[attr-defined]
            },
        },
        "dice": [],
        "formula": "1d6x[attacker base] + 1d6[defender base]",
        "terms": [
            {
                "class": "Die",
                "options": {"flavor": "attacker base"},
                "evaluated": True,
                "number": 1,
                "faces": 6,
                "modifiers": ["x"],
                "results": [
                    {"result": 6, "active": True, "exploded": True, "discarded": False},
                    {"result": 4, "active": True, "exploded": False, "discarded": False},
                ],
            },
            {"class": "OperatorTerm", "options": {}, "evaluated": True, "operator": "+"},
            {
                "class": "Die",
                "options": {"flavor": "defender base"},
                "evaluated": True,
                "number": 1,
                "faces": 6,
                "modifiers": [],
                "results": [{"result": 5, "active": True, "exploded": False, "discarded": False}],
            },
        ],
        "total": 15,
        "evaluated": True,
    }
    from_data(data)


def test_four_sight_exploding_attack_as_a_discord_message():
    op, result = run("four-sight/combat-attack")
    (embed,) = wire(discord_message(op, result))["embeds"]
    assert embed["title"] == "4SIGHT · combat-attack"
    assert embed["description"] == (
        "`1d6x` [attacker base] → **6!** + 4 = 10\n`1d6` [defender base] → 5"
    )
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert (fields["hit"], fields["margin"], fields["injury"]) == ("yes", "6", "moderate")
    assert embed["footer"]["text"].startswith("Seed 11: replay with POST /v1/four-sight/")


def test_the_wire_names_the_class_whichever_serialiser_writes_it():
    """`class` is a Python keyword: the field is `class_` and every writer says `class`."""
    op, result = run("four-sight/combat-attack")
    roll = foundry_roll(op, result)
    assert json.loads(roll.model_dump_json())["terms"][0]["class"] == "Die"
    assert roll.model_dump()["class"] == "Roll"
    assert "class" in FoundryRoll.model_json_schema()["properties"]
    assert FoundryRoll.model_validate_json(roll.model_dump_json()) == roll


# --- every rolling operation ---------------------------------------------------------------


def test_every_rolling_example_answers_both_adapters():
    """Each rolling operation's registry example: a Foundry roll `Roll.fromData` reads with
    its total, and a Discord message within Discord's limits."""
    assert len(ROLLING) > 100
    for name in ROLLING:
        op, result = run(name)
        roll = wire(foundry_roll(op, result))
        from_data(roll)
        dice = [r for t in roll["terms"] if t["class"] == "Die" for r in t["results"]]
        rolls: list[Roll] = result.rolls  # type: ignore[attr-defined]
        assert sorted(r["result"] for r in dice) == sorted(r.value for r in rolls), name
        assert roll["total"] == sum(r.value for r in rolls if not r.discarded), name
        within_limits(discord_message(op, result))


def test_a_discarded_die_is_inactive_and_struck_through():
    """Amplified d% (C:L490): two tens dice, the worse discarded; 3 and 7 with a 5 read 75."""
    op, result = run("four-c/dice/d100", {"mode": "amplified", "dice": {"values": [3, 7, 5]}})
    assert result.roll == 75  # type: ignore[attr-defined]
    rolls: list[Roll] = result.rolls  # type: ignore[attr-defined]
    assert [r.discarded for r in rolls] == [True, False, False]
    data = wire(foundry_roll(op, result))
    from_data(data)
    assert data["terms"][0]["results"] == [
        {"result": 3, "active": False, "exploded": False, "discarded": True},
        {"result": 7, "active": True, "exploded": False, "discarded": False},
    ]
    assert (data["formula"], data["total"]) == ("2d10[d% tens] + 1d10[d% ones]", 12)
    (embed,) = wire(discord_message(op, result))["embeds"]
    assert embed["description"].startswith("`2d10` [d% tens] → ~~3~~ + 7 = 7\n")


def test_the_better_tens_die_is_kept_and_a_tie_discards_the_second():
    for values, discarded in (([9, 2, 1], [False, True, False]), ([4, 4, 1], [False, True, False]),
                              ([10, 1, 1], [True, False, False])):  # fmt: skip
        _, result = run("four-c/dice/d100", {"mode": "amplified", "dice": {"values": values}})
        assert [r.discarded for r in result.rolls] == discarded  # type: ignore[attr-defined]


def test_discarding_replaces_the_shared_die():
    dice = Dice(DiceSpec(values=(3, 3)))
    dice.roll(6, "a")
    dice.roll(6, "a")
    shared = dice.rolls[0]
    dice.discard(0)
    assert shared.discarded is False
    assert dice.rolls[0].discarded is True
    assert dice.rolls[0].model_copy(update={"discarded": False}) == shared
    assert wire(dice.rolls[1])["discarded"] is False
    assert wire(dice.rolls[0])["discarded"] is True


# --- the shape of the terms ----------------------------------------------------------------


def logged(*dice: tuple[int, int, str, int | None]) -> list[Roll]:
    return [Roll(sides=s, value=v, purpose=p, exploded_from=e) for s, v, p, e in dice]


def rolled_as(op_name: str, rolls: list[Roll]) -> tuple[Operation, Model]:
    op, result = run(op_name)
    return op, result.model_copy(update={"rolls": rolls})


def test_chains_join_their_root_and_consecutive_roots_make_one_term():
    """Two attacker d6 (the first exploding twice), then a defender d6, then a d8: the
    explosions stay with their root even after the next root was rolled."""
    rolls = logged((6, 6, "attacker base", None), (6, 6, "attacker explosion", 0),
                   (6, 2, "attacker explosion", 1), (6, 3, "attacker base", None),
                   (6, 5, "defender base", None), (8, 8, "bonus", None))  # fmt: skip
    op, result = rolled_as("four-sight/combat-attack", rolls)
    data = wire(foundry_roll(op, result))
    from_data(data)
    assert data["formula"] == "2d6x[attacker base] + 1d6[defender base] + 1d8[bonus]"
    assert [r["exploded"] for r in data["terms"][0]["results"]] == [True, True, False, False]
    assert data["total"] == 30


def test_a_die_exploding_from_an_exploded_die_continues_its_chain():
    """Each die explodes once: a log naming the chain's first die for every explosion (as a
    pool index would) still reads 6!, 6!, 2."""
    rolls = logged((6, 6, "die 1", None), (6, 6, "again", 0), (6, 2, "again", 0))
    op, result = rolled_as("four-sight/combat-attack", rolls)
    data = wire(foundry_roll(op, result))
    from_data(data)
    assert [r["exploded"] for r in data["terms"][0]["results"]] == [True, True, False]


def test_a_log_naming_no_earlier_die_of_its_size_starts_a_chain():
    """`exploded_from` pointing at a later die or a die of another size cannot be a chain:
    the die stands alone and still counts once."""
    rolls = logged((6, 6, "a", 1), (8, 3, "b", None), (6, 2, "a", 1))
    op, result = rolled_as("four-sight/combat-attack", rolls)
    data = wire(foundry_roll(op, result))
    from_data(data)
    assert data["formula"] == "1d6[a] + 1d8[b] + 1d6[a]"


def test_a_purpose_is_made_safe_as_flavor_and_escaped_in_discord():
    rolls = logged((6, 4, "[x] @hp *bold*", None), (6, 4, " [] ", None))
    op, result = rolled_as("four-sight/combat-attack", rolls)
    data = wire(foundry_roll(op, result))
    from_data(data)
    assert data["formula"] == "1d6[(x) hp *bold*] + 1d6[()]"
    (embed,) = wire(discord_message(op, result))["embeds"]
    assert embed["description"].split("\n")[0] == r"`1d6` [(x) hp \*bold\*] → 4"


def test_a_result_without_dice_is_a_zero_roll_with_its_outcome():
    """A rolling operation that drew no die (an automatic success) still posts: `0[no dice]`."""
    op, result = rolled_as("four-sight/combat-attack", [])
    data = wire(foundry_roll(op, result))
    from_data(data)
    assert data["terms"] == [
        {"class": "NumericTerm", "options": {"flavor": "no dice"}, "evaluated": True, "number": 0}
    ]
    assert (data["formula"], data["total"]) == ("0[no dice]", 0)
    assert data["options"]["flavor"].startswith("hit: yes")
    (embed,) = wire(discord_message(op, result))["embeds"]
    assert embed["description"] == "*No dice rolled.*"


def test_an_operation_that_never_rolls_is_an_input_error():
    op, result = run("four-c/power/amplified-ee-control")
    for adapter in (foundry_roll, discord_message):
        with pytest.raises(InputError) as raised:
            adapter(op, result)
        assert raised.value.loc == ("operation",)


def test_more_dice_than_a_chat_roll_holds_is_an_input_error():
    op, result = rolled_as("four-sight/combat-attack", logged(*[(6, 1, "d", None)] * 1025))
    for adapter in (foundry_roll, discord_message):
        with pytest.raises(InputError, match="too many"):
            adapter(op, result)


# --- Discord's limits ----------------------------------------------------------------------


def test_the_biggest_real_results_stay_within_discords_limits():
    """Whole 4C characters with Sidekicks, and Future Imperfect pools of open-ended d2 whose
    table dice all explode, as far as the table dice go."""
    for seed in range(12):
        for name in ("four-c/character/generate", "four-c/power/sidekick/generate"):
            op, result = run(name, {**OPERATIONS[name].example, "dice": {"seed": seed}})
            within_limits(discord_message(op, result))
            from_data(wire(foundry_roll(op, result)))
    values = [2] * 200 + [1] * 9  # chains of 101 and 100 dice, then eight 1s
    op, result = run(
        "future-imperfect/dice/roll",
        {"count": 10, "sides": 2, "open_ended": True, "dice": {"values": values}},
    )
    within_limits(discord_message(op, result))
    from_data(wire(foundry_roll(op, result)))


def test_an_oversized_result_is_cut_at_every_limit():
    """A result with 40 long outcome fields and 1024 dice of long, markdown-laden purposes:
    every part is cut within its limit and says what was left out."""
    fields: dict[str, Any] = {
        f"field_{i}_{'x' * 300}": (str, Field(default="🎲*" * 750)) for i in range(40)
    }
    big = create_model("Big", __base__=Model, **fields)
    envelope = create_model(
        "BigResult", __base__=big, rolls=(list[Roll], ...), seed=(int | None, None),
        rules_version=(str, ...),
    )  # fmt: skip
    rolls = [Roll(sides=6, value=6 if i % 3 else 2, purpose=f"*{i // 7}* 🎲" + "_" * 150,
                  exploded_from=i - 1 if i % 3 else None) for i in range(MAX_DICE)]  # fmt: skip
    op = dataclasses.replace(OPERATIONS["four-sight/combat-attack"], output=big)
    result = envelope(rolls=rolls, seed=7, rules_version="x")
    message = discord_message(op, result)
    within_limits(message)
    (embed,) = wire(message)["embeds"]
    assert embed["fields"][-1]["value"].endswith("more in the JSON result")
    assert re.search(r"… and \d+ more terms \(\d+ dice\)$", embed["description"])
    from_data(wire(foundry_roll(op, result)))
