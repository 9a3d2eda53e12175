"""A typed Python client for the Adjudicator REST API. `models` and `client` are generated from
openapi/openapi.json by `make clients` (tools/clients.py); `base` and `transport` are written by
hand.

    from adjudicator_client import Client, models

    with Client("http://127.0.0.1:8000") as client:
        result = client.four_d8_check(models.FourD8CheckRequest(ease=20))
"""

from adjudicator_client import models
from adjudicator_client.client import Client
from adjudicator_client.transport import ProblemError

__all__ = ["Client", "ProblemError", "models"]
