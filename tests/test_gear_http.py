"""FORESIGHT toolkits, communications, power and navigation aids over REST and GraphQL as a new
user meets them (issue 24). Seed lines are cited as F:L<n>."""

from functools import partial

from tests import http

BASE = "/v1/foresight"

post = partial(http.post, base=BASE)
graphql = partial(http.graphql, system="foresight")


def test_the_field_radio_s_battery(client):
    """X38 (F:L4225): 25 W on lead acid is 100 units, 4 kg, lasting 4 h (the book's 1 h is
    AMB2-33)."""
    found = post(client, "/power/battery", {"storage": "rechargeable-battery-lead-acid",
                                            "draw_w": 25})  # fmt: skip
    assert (found["units"], found["mass_kg"]["exact"], found["runtime_h"]["exact"]) == (
        100, "4/1", "4/1")  # fmt: skip
    query = """{ foresight { powerBattery(input: {storage: "battery-alkaline", drawW: 10,
        hours: 5}) { units outputLimited massKg { exact } runtimeH { exact } } } }"""
    assert graphql(client, query)["powerBattery"] == {
        "units": 50, "outputLimited": False, "massKg": {"exact": "1/2"},
        "runtimeH": {"exact": "5/1"}}  # fmt: skip


def test_search_the_catalogues_by_name_and_tl(client):
    """F:L4182-4196, F:L4229-4235, F:L4239-4263."""
    comms = post(client, "/comms/catalog", {"name": "phone", "tl": 5.5})
    assert [i["item"]["name"] for i in comms["items"]] == ["Phone, Cellular", "Phone, Satellite"]
    solar = post(client, "/power/generator/catalog", {"name": "solar"})
    assert [i["item"]["price_svu"] for i in solar["items"]] == [2000, 100]
    query = """{ foresight { navigationAidsCatalog(input: {name: "compass"}) { count
        items { item { key tl pm fail } notes } } } }"""
    found = graphql(client, query)["navigationAidsCatalog"]
    assert found["count"] == 2
    assert found["items"][1]["item"] == {"key": "compass-5", "tl": 5.0, "pm": 1, "fail": "99*"}
    query = """{ foresight { commsCatalog(input: {tlMin: 7}) { items { item { key } } }
        powerGeneratorCatalog(input: {tlMin: 9}) { items { item { name ds } } } } }"""
    found = graphql(client, query)
    assert [i["item"]["key"] for i in found["commsCatalog"]["items"]] == [
        "transceiver-subspace-comms", "transceiver-ansible"]  # fmt: skip
    assert found["powerGeneratorCatalog"]["items"] == [
        {"item": {"name": "Portable H Fusion, 1GW", "ds": 10.0}}]  # fmt: skip


def test_a_toolkit(client):
    """F:L4164-4178: a standard kit for items a TL below is 10 kg; bicycle tools 1/10."""
    found = post(client, "/toolkit", {"quality": "standard", "tl_below": 1})
    assert (found["pm"], found["size_kg"]["exact"], found["cost_svu"]["exact"]) == (
        0, "10/1", "2000/1")  # fmt: skip
    query = """{ foresight { toolkit(input: {quality: BASIC, scale: BICYCLE}) { pm
        sizeKg { exact } costSvu { exact } capability } } }"""
    assert graphql(client, query)["toolkit"] == {
        "pm": -1, "sizeKg": {"exact": "1/1"}, "costSvu": {"exact": "10/1"},
        "capability": "minor temporary repairs only"}  # fmt: skip


def test_bad_gear_input_names_the_field(client):
    response = client.post(BASE + "/power/battery", json={"storage": "lead", "draw_w": 5})
    assert response.status_code == 422
    assert response.json()["errors"][0]["pointer"] == "/storage"
    response = client.post(BASE + "/power/battery",
                           json={"storage": "battery-alkaline", "draw_w": 0})  # fmt: skip
    assert response.status_code == 422
    response = client.post(BASE + "/toolkit", json={"quality": "standard", "tl_below": 3})
    assert response.status_code == 422


def test_the_tables_are_served(client):
    for name in ("toolkits", "communications", "power-storage", "power-generators",
                 "navigation-aids"):  # fmt: skip
        response = client.get(f"{BASE}/tables/{name}")
        assert response.status_code == 200, name
        assert response.json()["source"].startswith("F:L4")
