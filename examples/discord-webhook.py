"""Post an Adjudicator result to a Discord channel through a webhook.

    python examples/discord-webhook.py https://discord.com/api/webhooks/<id>/<token>

Asks the service (ADJUDICATOR_URL, default http://localhost:8000) for one operation's result
as a Discord message and posts it unchanged: the message is already within Discord's limits
and mentions no one. Standard library only.
"""

import json
import os
import sys
import urllib.request

ADJUDICATOR_URL = os.environ.get("ADJUDICATOR_URL", "http://localhost:8000")
REQUEST = {
    "system": "four-sight",
    "operation": "combat-attack",
    "input": {
        "attacker": {"traits": [{"trait": "dexterity", "score": 3}]},
        "defender": {"traits": [{"trait": "dexterity", "score": 2}]},
    },
}


def post(url: str, body: object) -> bytes:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        # Discord refuses urllib's default User-Agent.
        headers={"Content-Type": "application/json", "User-Agent": "adjudicator-example/1"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return bytes(response.read())


def main(webhook: str) -> None:
    message = json.loads(post(f"{ADJUDICATOR_URL}/v1/discord", REQUEST))
    post(webhook, message)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
