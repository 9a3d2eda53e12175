"""The base of every generated model: immutable like the service's own models, and built on
first use, so importing some 1,500 models stays cheap."""

from pydantic import BaseModel, ConfigDict

__all__ = ["Model"]


class Model(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)
