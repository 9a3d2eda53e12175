"""FORESIGHT armor and exoskeletons over REST and GraphQL as a new user meets them (issue 24):
find armor by name and TL, price a piece, turn what a character wears into the layers
damage/resolve takes, and the AG/DX, encumbrance and exoskeleton examples. Seed lines are
cited as F:L<n>."""

from functools import partial

from tests import http

BASE = "/v1/foresight"

post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="foresight")


def test_heavy_plate_at_minus_5_with_armor_exo_14_is_minus_1(client):
    """The issue's acceptance check, X34 (F:L3885): round(14/4 = 3.5) = 4; -5 + 4 = -1."""
    found = post(client, "/armor/agdx-penalty", {"agdx": -5, "level": 14})
    assert (found["mitigation"], found["agility_modifier"]) == (4, -1)
    assert found["options_applied"] == {"armor_mitigation_basis": "level"}
    query = """{ foresight { armorAgdxPenalty(input: {worn: [{armor: "heavy-plate",
        piece: FULL_SUIT}], level: 14}) { agilityModifier dexterityModifier mitigation } } }"""
    assert graphql(client, query)["armorAgdxPenalty"] == {
        "agilityModifier": -1, "dexterityModifier": -1, "mitigation": 4}  # fmt: skip


def test_a_silkweave_vest_weighs_3_kg(client):
    """The issue's acceptance check, X36 (F:L3952-3954): 2 x 1.5 = 3 kg; 6/10 from the side."""
    found = post(client, "/armor/piece", {"armor": "silkweave", "piece": "vest"})
    assert found["weight_kg"] == {"exact": "3/1", "float": 3.0}
    assert found["coverage"][0] == {"location": "chest", "front": 9, "rear": 9, "side": 6,
                                    "above": 9}  # fmt: skip
    query = """{ foresight { armorPiece(input: {armor: "Silkweave", piece: VEST}) {
        weightKg { exact } agilityTasks piece { name coverageWritten notes } } } }"""
    assert graphql(client, query)["armorPiece"] == {
        "weightKg": {"exact": "3/1"},
        "agilityTasks": False,
        "piece": {"name": "Vest (Chest & Abdomen)", "coverageWritten": "9/10",
                  "notes": "6/10 cover from sides"},
    }  # fmt: skip


def test_worn_armor_by_name_into_damage_resolve(client):
    """F:L3930: armor/protection's layers are damage/resolve's `armor`, pasted as they are:
    a DC8 impact blow at QR2 to the chest meets the vest's 4A (9/10 from the front)."""
    worn = [{"armor": "silkweave", "piece": "vest"}]
    layers = post(client, "/armor/protection", {"worn": worn, "location": "chest"})["layers"]
    assert layers == [{"name": "silkweave vest", "rating": "4A", "coverage": 9,
                       "locations": ["chest"]}]  # fmt: skip
    body = {"damage_class": "DC8i", "qr": 2, "aim": "chest", "armor": layers,
            "dice": {"values": [3]}}  # fmt: skip
    hit = post(client, "/damage/resolve", body)["hits"][0]
    assert hit["layers"][0]["protects"] is True
    assert (hit["table"], hit["absorbed"]) == ("2", 1)
    query = """{ foresight { armorProtection(input: {worn: [{armor: "kevlar",
        piece: SHIRT_ARMS}, {armor: "kevlar", piece: GLOVES}], location: LEFT_ARM,
        damageType: STUN}) { layers { name rating coverage locations } sources { column } } } }"""
    assert graphql(client, query)["armorProtection"] == {
        "layers": [{"name": "kevlar shirt_arms", "rating": "3A", "coverage": 10,
                    "locations": ["LEFT_ARM"]}],
        "sources": [{"column": "impact"}],
    }  # fmt: skip


def test_worn_armor_named_in_damage_resolve_and_attack(client):
    """The outfit by name in the mortality operations (F:L3879, F:L3930): a silkweave vest
    is 4A against the impact blow, 6/10 from the side; the odds are D10 <= 6 keeping it.
    A heavy-plate full suit is 5A against melee from any side (F:L3906, F:L3950)."""
    body = {"damage_class": "DC8i", "qr": 2, "aim": "chest", "direction": "side",
            "worn": [{"armor": "silkweave", "piece": "vest"}], "dice": {"values": [6]}}  # fmt: skip
    found = post(client, "/damage/resolve", body)
    assert found["hits"][0]["layers"] == [{"name": "silkweave vest", "rating": "4A",
                                           "coverage": 6, "roll": 6, "protects": True}]  # fmt: skip
    assert found["result"] == "1"
    odds = post(client, "/damage/resolve/odds", {k: v for k, v in body.items() if k != "dice"})
    assert {row["outcome"]: row["exact"] for row in odds["result"]} == {"1": "3/5", "3": "2/5"}
    query = """{ foresight { attack(input: {attacker: {qr: QR2}, damageClass: "DC8m",
        aim: CHEST, direction: REAR, worn: [{armor: "heavy-plate", piece: FULL_SUIT}],
        }) { damage { result hits { layers { name rating coverage } } } } } }"""
    assert graphql(client, query)["attack"]["damage"] == {
        "result": "S",  # DC 8 - 5 = 3 at QR2 is 1, absorbed by the A: an S (F:L2638)
        "hits": [{"layers": [{"name": "heavy-plate full_suit", "rating": "5A", "coverage": 10}]}],
    }
    response = client.post(BASE + "/damage/resolve", json={**body, "damage_class": "DC8"})
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/worn"


def test_armor_catalog_by_name_and_tl(client):
    """F:L3917-3922: the nanofibers, told apart by TL."""
    found = post(client, "/armor/catalog", {"name": "rigid", "tl_min": 8})
    assert [(r["key"], r["beam"]) for r in found["armor"]] == [
        ("rigid-nanofiber-8", "7A"), ("rigid-nanofiber-9", "10A")]  # fmt: skip
    query = """{ foresight { armorCatalog(input: {tl: 5.5}) { count armor { name impact } } } }"""
    assert graphql(client, query)["armorCatalog"]["count"] == 3


def test_heavy_plate_encumbrance_and_the_combat_exoskeleton(client):
    """X35 (F:L3924): 40 kg counts 20 (not the book's 22.5, AMB2-32) and burdens ST 9; X37
    (F:L3985): a TL6 combat exoskeleton armored with impermasuit carries 60 kg of armor."""
    found = post(client, "/armor/encumbrance", {
        "worn": [{"armor": "heavy-plate", "piece": "full_suit"}], "strength": 9})  # fmt: skip
    assert (found["counted_kg"]["exact"], found["state"]) == ("20/1", "burdened")
    query = """{ foresight { exoskeleton(input: {exoskeleton: "combat-6",
        armor: "impermasuit"}) { armorKg { exact } exoskeleton { stamina rechargeKwh } } } }"""
    assert graphql(client, query)["exoskeleton"] == {
        "armorKg": {"exact": "60/1"},
        "exoskeleton": {"stamina": 25, "rechargeKwh": 0.2},
    }


def test_bad_armor_input_names_the_field(client):
    response = client.post(BASE + "/armor/protection",
                           json={"worn": [{"armor": "mithril", "piece": "vest"}]})  # fmt: skip
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/worn/0/armor"
    response = client.post(BASE + "/armor/agdx-penalty", json={"agdx": 3, "level": 14})
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/agdx"
    response = client.post(BASE + "/armor/protection", json={"worn": []})
    assert response.status_code == 422


def test_the_tables_are_served(client):
    for name in ("armor", "armor-locations", "exoskeletons"):
        response = client.get(f"{BASE}/tables/{name}")
        assert response.status_code == 200, name
        assert response.json()["source"].startswith("F:L3")
