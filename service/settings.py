"""Configuration from the environment (pydantic-settings). Every knob has a safe default, so
`python -m service serve` needs nothing set: the in-memory cache, loopback, port 8000, no
cross-origin access. Lists are written comma-separated (`CORS_ALLOWED_ORIGINS=https://a.example,
https://b.example`)."""

import re
from typing import Annotated, Any

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from service.resp import Tls
from service.rules.cost import BUDGET

__all__ = ["Settings"]

#: scheme://host[:port], as a browser sends it in `Origin`: no path, no trailing slash.
_ORIGIN = re.compile(r"https?://(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:[0-9]{1,5})?")
_HEADER = re.compile(r"[a-z0-9!#$%&'*+.^_`|~-]+")


def _split(value: Any) -> Any:
    """A comma-separated environment value (or a sequence) as its items, stripped and
    lower-cased, blanks dropped."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        return value
    cleaned = (i.strip().lower() if isinstance(i, str) else i for i in items)
    return tuple(i for i in cleaned if i != "")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(frozen=True, extra="ignore")

    redis_url: str | None = Field(
        default=None, description="Share odds tables through Redis; unset: in-memory LRU."
    )
    redis_tls_ca_file: str | None = Field(
        default=None,
        description="PEM file of the CAs whose certificates a rediss:// Redis may present; "
        "unset: the system's. The server's host name is always checked.",
    )
    redis_tls_cert_file: str | None = Field(
        default=None,
        description="PEM client certificate for rediss://, for a Redis with tls-auth-clients "
        "yes (Redis's default).",
    )
    redis_tls_key_file: str | None = Field(
        default=None,
        description="PEM key of REDIS_TLS_CERT_FILE; unset: it is in that file.",
    )
    redis_timeout_seconds: float = Field(default=0.05, gt=0, le=5)
    redis_retry_after_seconds: float = Field(default=1.0, ge=0, le=60)
    redis_ttl_seconds: int = Field(
        default=7 * 24 * 3600,
        ge=60,
        le=365 * 24 * 3600,
        description="How long a table stays in Redis: tables of an old rules version age out.",
    )
    cache_max_bytes: int = Field(
        default=32 * 1024 * 1024,
        ge=1024,
        le=16 * 1024 * 1024 * 1024,
        description="Memory for odds tables in process (JSON bytes plus 256 an entry), least "
        "recently used out first: the whole cache without Redis, and with it the fallback "
        "while Redis cannot be used.",
    )
    memo_bytes: int = Field(
        default=48 * 1024 * 1024,
        ge=0,
        le=16 * 1024 * 1024 * 1024,
        description="Memory for the outcomes the remembering rules keep, in all "
        "(`operation(memo=True)`: each system's check), oldest request out first; 0 "
        "remembers nothing. One 4D8 check's 4,096 outcomes take about 10 MB.",
    )
    max_body_bytes: int = Field(default=64 * 1024, ge=1024, le=16 * 1024 * 1024)
    max_odds_states: int = Field(
        default=BUDGET,
        ge=1000,
        le=100_000_000,
        description="The outcome states one request's exact odds may enumerate (a GraphQL "
        "request's fields share them); a request estimated over it gets a 422 naming its "
        "fields. This machine makes about a million a second.",
    )
    odds_deadline_seconds: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="Exact odds not done this long after they started are abandoned with a "
        "503 and Retry-After; they run off the event loop meanwhile.",
    )
    odds_workers: int = Field(
        default=1,
        ge=1,
        le=32,
        description="Threads computing exact odds off the event loop (one core's worth: they "
        "share the interpreter lock).",
    )
    max_header_bytes: int = Field(
        default=16 * 1024,
        ge=1024,
        le=1024 * 1024,
        description="The request line and headers of one request; past it, a 431 and the "
        "connection closed.",
    )
    max_headers: int = Field(
        default=100, ge=8, le=10_000, description="Headers one request may carry (431 past it)."
    )
    header_timeout_seconds: float = Field(
        default=10.0,
        gt=0,
        le=600,
        description="From a request's first byte to the end of its headers (408 past it).",
    )
    body_timeout_seconds: float = Field(
        default=30.0,
        gt=0,
        le=3600,
        description="From the end of a request's headers to the end of its body (408 past it).",
    )
    idle_timeout_seconds: float = Field(
        default=5.0,
        gt=0,
        le=3600,
        description="A connection that sends nothing this long, before its first request or "
        "between two, is closed.",
    )
    max_connections: int = Field(
        default=1000,
        ge=1,
        le=1_000_000,
        description="Connections open at once; one more is closed as it is accepted.",
    )
    graphql_max_depth: int = Field(
        default=15,
        ge=2,
        le=64,
        description="How deep fields may nest, introspection included: the standard "
        "introspection query of graphql-core and graphql-js is 14 deep.",
    )
    graphql_max_aliases: int = Field(default=16, ge=1, le=1000)
    graphql_max_tokens: int = Field(default=2000, ge=100, le=100_000)
    graphql_max_query_bytes: int = Field(
        default=16384,
        ge=256,
        le=16 * 1024 * 1024,
        description="The longest query text, comments and whitespace included.",
    )
    graphql_document_cache_bytes: int = Field(
        default=16 * 1024 * 1024,
        ge=0,
        le=1024 * 1024 * 1024,
        description="Memory for parsed and validated documents (about 128 bytes per query "
        "character), least recently used out first.",
    )
    graphql_introspection: bool = Field(
        default=True,
        description="Answer __schema and __type queries (within the depth limit); the schema "
        "is published at schema/schema.graphql either way.",
    )
    four_c_master_table: str | None = Field(
        default=None,
        description="A JSON file holding a 4C Master Table ({name, rows}, validated as the "
        "catalogue's 3.2.1 says), read by requests that name none, instead of the Libre "
        "Edition's basic table. Replicas sharing a cache must share it.",
    )
    fi_action_deck: str | None = Field(
        default=None,
        description="A JSON file holding a Future Imperfect Action Deck ({name, cards}: 54 "
        "cards with their steps, impulses and 5 x 5 grids, catalogue 1.6), for tests with "
        "options.engine 'deck'; none: the deck engine is refused. Replicas sharing a cache "
        "must share it.",
    )
    log_level: str = Field(default="INFO")
    log_requests: bool = Field(default=True, description="One JSON log line per request.")
    cors_allowed_origins: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(),
        description="Origins whose browsers may call the service (scheme://host[:port], "
        "comma-separated), or * for any; empty: no CORS headers at all.",
    )
    cors_allowed_headers: Annotated[tuple[str, ...], NoDecode] = Field(
        default=("content-type", "x-request-id"),
        description="Request headers a cross-origin caller may send (a preflight lists them).",
    )
    cors_exposed_headers: Annotated[tuple[str, ...], NoDecode] = Field(
        default=("x-request-id", "retry-after"),
        description="Response headers a cross-origin caller's script may read.",
    )
    cors_max_age_seconds: int = Field(
        default=600, ge=0, le=86_400, description="How long a browser may reuse a preflight."
    )
    gc_freeze: bool = Field(
        default=True,
        description="Freeze what startup built (modules, models, schemas, tables): it lives as "
        "long as the process, and frozen, full garbage collections no longer walk it.",
    )
    gc_thresholds: Annotated[tuple[int, int, int], NoDecode] = Field(
        default=(10_000, 10, 10),
        description="The garbage collector's thresholds (gc.set_threshold), as gen0,gen1,gen2. "
        "Python's 700,10,10 promotes the short-lived objects of requests in flight to older "
        "generations, and so runs full collections often; 10000 lets them die young.",
    )
    prepare_on_start: bool = Field(
        default=False,
        description="Once serving, make in the background what is otherwise made by its "
        "first request (the GraphQL schema, the catalogue, OpenAPI, the explorers' examples), "
        "with /readyz answering 503 preparing until then, so that a replica a load balancer "
        "adds never makes a caller wait for them; off, a process that answers only REST "
        "never makes them (service/prepare.py).",
    )
    # Graceful shutdown (service/drain.py): on SIGTERM, /readyz answers 503 for the drain while
    # requests are still served, then the listener closes and what is in flight finishes.
    shutdown_drain_seconds: float = Field(
        default=0.0,
        ge=0,
        le=300,
        description="After SIGTERM, keep serving this long with /readyz answering 503 "
        "draining, so that load balancers take the replica out before its listener closes; "
        "0 (local runs) closes it at once.",
    )
    shutdown_timeout_seconds: int = Field(
        default=10,
        ge=1,
        le=3600,
        description="After the drain, how long the requests in flight may take to finish "
        "before they are cancelled and the process exits.",
    )

    @property
    def redis_tls(self) -> Tls | None:
        """The TLS files for a rediss:// Redis, if any is set (an empty value is unset)."""
        files = (self.redis_tls_ca_file, self.redis_tls_cert_file, self.redis_tls_key_file)
        ca_file, cert_file, key_file = (file or None for file in files)
        if (ca_file, cert_file, key_file) == (None, None, None):
            return None
        return Tls(ca_file, cert_file, key_file)

    @field_validator("cors_allowed_origins", mode="before")
    @classmethod
    def _origins(cls, value: Any) -> Any:
        origins = _split(value)
        for origin in origins:
            if origin != "*" and not _ORIGIN.fullmatch(origin):
                raise ValueError(
                    f"{origin!r} is not an origin: scheme://host[:port], no path or trailing "
                    "slash, or *"
                )
        return origins

    @field_validator("cors_allowed_headers", "cors_exposed_headers", mode="before")
    @classmethod
    def _headers(cls, value: Any) -> Any:
        headers = _split(value)
        for header in headers:
            if not _HEADER.fullmatch(header):
                raise ValueError(f"{header!r} is not a header name")
        return headers

    @field_validator("gc_thresholds", mode="before")
    @classmethod
    def _thresholds(cls, value: Any) -> Any:
        return _split(value)

    @field_validator("gc_thresholds")
    @classmethod
    def _thresholds_bounded(cls, value: tuple[int, int, int]) -> tuple[int, int, int]:
        # 0 would turn automatic collection off, and cycles would never be freed.
        if not (1 <= value[0] <= 1_000_000 and 1 <= value[1] <= 1000 and 1 <= value[2] <= 1000):
            raise ValueError("gen0 is 1 to 1000000, gen1 and gen2 are 1 to 1000")
        return value
