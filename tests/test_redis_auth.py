"""Production Redis (issue 17): a password (`redis://:secret@host`) and TLS (`rediss://`), against
real redis-servers started with `requirepass` and with TLS on a port of their own.

A Redis the service cannot use (a wrong or missing password, an untrusted certificate, nothing
listening) is reported by /readyz (`error`, `detail`), logged once until it works again, and
costs no errors: the service answers from the local tier of its cache. No password ever
appears in /readyz or in the log.

The certificates are made here, in a temporary directory, with the `openssl` command: a CA,
a server certificate for 127.0.0.1 and localhost, a client certificate (Redis asks clients for
one by default, `tls-auth-clients yes`), a second CA nobody trusts, and a server certificate
for another host name. The TLS tests are skipped only when redis-server was built without TLS.
"""

import asyncio
import logging
import shutil
import ssl
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from starlette.testclient import TestClient

from service.app import build_app
from service.cache import MemoryCache, Problem, RedisCache, cached, make_cache
from service.resp import Client, Tls
from service.settings import Settings
from tests.redis_server import RedisServer, ServerTls, TlsUnsupportedError
from tests.served import free_port, served

pytestmark = pytest.mark.redis

PASSWORD = "s3cret-Pa55"
WRONG = "not-the-Pa55"
ODDS = "/v1/four-d8/check/odds"
EASES = range(3, 33, 3)
RETRY_AFTER = 1.0
KEY = "adjudicator:1:four_d8:check:" + "ab" * 32
TABLE = b'{"outcomes":[[1,2]]}'


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Records(logging.Handler):
    """What `adjudicator.cache` logs, kept in a list."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def at(self, level: int) -> list[str]:
        return [r.getMessage() for r in self.records if r.levelno == level]

    def text(self) -> str:
        return "\n".join(r.getMessage() + str(vars(r)) for r in self.records)


@pytest.fixture
def logged() -> Iterator[Records]:
    """The cache's log records. A handler of its own, as `configure_logging` (run by any test
    that calls `create_app`) stops `adjudicator` records from reaching pytest's."""
    logger = logging.getLogger("adjudicator.cache")
    handler, level = Records(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


@pytest.fixture
def executable() -> str:
    found = shutil.which("redis-server")
    if found is None:
        pytest.skip("redis-server is not installed")
    return found


@pytest.fixture
def start(executable: str) -> Iterator[Any]:
    """Start a redis-server as `RedisServer(executable, **options)`; stopped after the test."""
    servers: list[RedisServer] = []

    def start(**options: Any) -> RedisServer:
        server = RedisServer(executable, **options)
        try:
            server.start()
        except TlsUnsupportedError as error:
            pytest.skip(str(error))
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def with_password(server: RedisServer, password: str | None) -> str:
    scheme, rest = server.url.split("://")
    return f"{scheme}://{'' if password is None else f':{password}@'}{rest}"


def expected_answers() -> dict[int, bytes]:
    """The odds the service gives with no Redis at all."""
    with TestClient(build_app(Settings(log_requests=False), MemoryCache())) as client:
        return {ease: client.post(ODDS, json={"ease": ease}).content for ease in EASES}


# Certificates


@dataclass(frozen=True)
class Certificates:
    ca: Path
    server: tuple[Path, Path]  # certificate and key, for 127.0.0.1 and localhost
    client: tuple[Path, Path]
    other_ca: Path  # a CA that signed nothing here
    elsewhere: tuple[Path, Path]  # signed by `ca`, for elsewhere.example only


_CA = """[req]
distinguished_name = dn
x509_extensions = ext
prompt = no
[dn]
CN = {name}
[ext]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
"""

_LEAF = """basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = {usage}
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
{names}
"""


def openssl(*arguments: str | Path) -> None:
    subprocess.run(["openssl", *map(str, arguments)], check=True, capture_output=True)


def make_ca(directory: Path, name: str) -> tuple[Path, Path]:
    config, cert, key = (directory / f"{name}.{e}" for e in ("cnf", "crt", "key"))
    config.write_text(_CA.format(name=name))
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "2", "-config", config, "-keyout", key, "-out", cert)  # fmt: skip
    return cert, key


def make_leaf(
    directory: Path, name: str, ca: tuple[Path, Path], usage: str, names: str = ""
) -> tuple[Path, Path]:
    extensions, request, cert, key = (
        directory / f"{name}.{e}" for e in ("ext", "csr", "crt", "key")
    )
    extensions.write_text(_LEAF.format(usage=usage, names=names))
    openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-subj", f"/CN={name}", "-keyout", key, "-out", request)  # fmt: skip
    openssl("x509", "-req", "-in", request, "-CA", ca[0], "-CAkey", ca[1], "-CAcreateserial",
            "-days", "2", "-extfile", extensions, "-out", cert)  # fmt: skip
    return cert, key


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed")
    directory = tmp_path_factory.mktemp("certificates")
    ca = make_ca(directory, "Test CA")
    other_ca, _ = make_ca(directory, "Other CA")
    names = "subjectAltName = IP:127.0.0.1, DNS:localhost"
    return Certificates(
        ca=ca[0],
        server=make_leaf(directory, "redis", ca, "serverAuth", names),
        client=make_leaf(directory, "adjudicator", ca, "clientAuth"),
        other_ca=other_ca,
        elsewhere=make_leaf(
            directory, "elsewhere", ca, "serverAuth", "subjectAltName = DNS:elsewhere.example"
        ),
    )


def server_tls(certificates: Certificates, auth_clients: str = "yes") -> ServerTls:
    cert, key = certificates.server
    return ServerTls(cert, key, certificates.ca, auth_clients)


def client_tls(certificates: Certificates, ca: Path | None = None) -> Tls:
    cert, key = certificates.client
    return Tls(str(ca or certificates.ca), str(cert), str(key))


# A password


def test_the_right_password_shares_tables_through_redis(start):
    server = start(password=PASSWORD)
    url = with_password(server, PASSWORD)
    first, second = RedisCache(url), RedisCache(url)
    settings = Settings(log_requests=False)
    with (
        TestClient(build_app(settings, first)) as one,
        TestClient(build_app(settings, second)) as two,
    ):
        answer = one.post(ODDS, json={"ease": 18})
        assert answer.status_code == 200
        assert two.post(ODDS, json={"ease": 18}).content == answer.content
        ready = two.get("/readyz").json()["cache"]
    assert (first.stats.misses, second.stats.hits) == (1, 1)  # computed once, for both
    assert ready == {"backend": "redis", "reachable": True, "full": False}
    with redis.Redis.from_url(url) as store:
        assert len(store.keys("adjudicator:*")) == 1
    with redis.Redis.from_url(server.url) as anonymous, pytest.raises(redis.AuthenticationError):
        anonymous.get("anything")


@pytest.mark.parametrize(("password", "reply"), [(WRONG, "WRONGPASS"), (None, "NOAUTH")])
def test_a_refused_password_is_reported_logged_once_and_the_local_cache_answers(
    start, logged, password, reply
):
    expected = expected_answers()
    server = start(password=PASSWORD)
    clock = FakeClock()
    url = with_password(server, password)
    cache = RedisCache(url, timeout=1, retry_after=RETRY_AFTER, clock=clock)
    with TestClient(build_app(Settings(log_requests=False), cache)) as client:
        for _ in range(3):
            for ease in EASES:
                answer = client.post(ODDS, json={"ease": ease})
                assert answer.status_code == 200
                assert answer.content == expected[ease]
                ready = client.get("/readyz")
                assert ready.status_code == 200
                clock.now += RETRY_AFTER  # the breaker closes: Redis is tried again, and fails
        # Each table was computed once, then served from the local tier.
        assert (cache.stats.misses, cache.stats.hits) == (len(EASES), 2 * len(EASES))
        state = ready.json()["cache"]
        assert state["reachable"] is False
        assert state["error"] == "auth"
        assert state["detail"].startswith(reply)
        assert len(logged.at(logging.WARNING)) == 1
        [warning] = logged.at(logging.WARNING)
        assert f"127.0.0.1:{server.port}" in warning
        assert "auth" in warning
        assert logged.records[0].redis_error == "auth"
        assert not logged.at(logging.INFO)

        with redis.Redis.from_url(with_password(server, PASSWORD)) as admin:
            assert admin.keys("*") == []  # nothing reached Redis
            admin.config_set("requirepass", password or "")  # the operator fixes it
        clock.now += RETRY_AFTER
        assert client.post(ODDS, json={"ease": 18}).status_code == 200
        assert client.get("/readyz").json()["cache"] == {
            "backend": "redis",
            "reachable": True,
            "full": False,
        }
        assert logged.at(logging.INFO) == [f"Redis at 127.0.0.1:{server.port} is usable again"]
        with redis.Redis.from_url(server.url, password=password) as admin:
            assert len(admin.keys("adjudicator:*")) == 1  # written to Redis again
    everything = ready.text + logged.text()
    assert PASSWORD not in everything
    assert WRONG not in everything


@pytest.mark.parametrize("password", [WRONG, None])
def test_a_refused_password_is_not_a_refused_write(start, password):
    """A write refused for want of a password opens the breaker and goes to the local tier,
    unlike one refused for want of memory, which Redis would still answer reads after."""
    server = start(password=PASSWORD)

    async def scenario() -> RedisCache:
        cache = RedisCache(with_password(server, password), timeout=1, clock=FakeClock())
        await cache.set(KEY, TABLE)
        assert await cache.get(KEY) == TABLE
        await cache.close()
        return cache

    cache = asyncio.run(scenario())
    assert (cache.stats.refused_writes, cache.stats.full, cache.stats.fallbacks) == (0, False, 2)
    assert cache.problem is not None
    assert cache.problem.kind == "auth"


def test_a_password_for_a_redis_without_one_is_an_auth_error(start):
    server = start()

    async def scenario() -> Problem | None:
        cache = RedisCache(with_password(server, WRONG), timeout=1)
        assert await cache.ping() is False
        await cache.close()
        return cache.problem

    problem = asyncio.run(scenario())
    assert problem is not None
    assert problem.kind == "auth"
    assert WRONG not in problem.detail


def test_an_unreachable_redis_is_reported_and_logged_once_by_the_service(tmp_path):
    """The real service (uvicorn, JSON logs): nothing listens at the Redis URL's port."""
    port = free_port()
    log = tmp_path / "service.log"
    expected = expected_answers()
    env = {"REDIS_URL": f"redis://:{PASSWORD}@127.0.0.1:{port}/0", "LOG_LEVEL": "INFO"}
    with served(env, log) as (base, _), httpx.Client(base_url=base, timeout=10) as client:
        for _ in range(5):
            for ease in EASES:
                answer = client.post(ODDS, json={"ease": ease})
                assert answer.status_code == 200
                assert answer.content == expected[ease]
            ready = client.get("/readyz")
            assert ready.status_code == 200
        metrics = client.get("/metrics").text.splitlines()
    state = ready.json()["cache"]
    assert (state["reachable"], state["error"]) == (False, "unreachable")
    assert f"adjudicator_cache_hits_total {4 * len(EASES)}" in metrics  # the local tier
    text = log.read_text()
    warnings = [line for line in text.splitlines() if '"redis_error"' in line]
    assert len(warnings) == 1, text
    assert '"level": "warning"' in warnings[0]
    assert '"redis_error": "unreachable"' in warnings[0]
    assert PASSWORD not in text + ready.text


def test_a_burst_of_failures_logs_once(logged):
    """Concurrent calls that all fail log one warning, then a success logs one recovery."""
    port = free_port()

    async def scenario() -> None:
        cache = RedisCache(f"redis://127.0.0.1:{port}/0", timeout=1, retry_after=0)
        assert not any(await asyncio.gather(*(cache.ping() for _ in range(50))))
        for _ in range(20):
            assert await cache.get(KEY) is None
        await cache.close()

    asyncio.run(scenario())
    assert len(logged.at(logging.WARNING)) == 1
    assert not logged.at(logging.INFO)


# TLS


def test_rediss_with_the_ca_and_a_client_certificate_works(start, certificates):
    server = start(tls=server_tls(certificates))
    assert server.url.startswith("rediss://")

    async def scenario() -> None:
        first = RedisCache(server.url, tls=client_tls(certificates), timeout=1)
        second = RedisCache(server.url, tls=client_tls(certificates), timeout=1)
        assert await first.ping() is True
        assert await cached(first, KEY, lambda: TABLE) == TABLE
        assert await second.get(KEY) == TABLE  # shared through Redis
        assert first.problem is None
        await first.close()
        await second.close()

    asyncio.run(scenario())
    cert, key = certificates.client
    with redis.Redis.from_url(
        server.url, ssl_ca_certs=str(certificates.ca), ssl_certfile=str(cert), ssl_keyfile=str(key)
    ) as store:
        assert store.get(KEY) == TABLE


def test_rediss_with_a_password_and_no_client_certificate(start, certificates, logged):
    """`tls-auth-clients no`: the CA alone; the password travels inside TLS."""
    server = start(password=PASSWORD, tls=server_tls(certificates, auth_clients="no"))
    tls = Tls(ca_file=str(certificates.ca))
    cache = make_cache(with_password(server, PASSWORD), max_bytes=1 << 20, timeout=1, tls=tls)
    wrong = RedisCache(with_password(server, WRONG), tls=tls, timeout=1)
    with TestClient(build_app(Settings(log_requests=False), cache)) as client:
        assert client.post(ODDS, json={"ease": 18}).status_code == 200
        assert client.get("/readyz").json()["cache"]["reachable"] is True
    with TestClient(build_app(Settings(log_requests=False), wrong)) as client:
        assert client.post(ODDS, json={"ease": 18}).status_code == 200
        ready = client.get("/readyz")
    assert ready.json()["cache"]["error"] == "auth"
    with redis.Redis.from_url(
        with_password(server, PASSWORD), ssl_ca_certs=str(certificates.ca)
    ) as store:
        assert len(store.keys("adjudicator:*")) == 1
    assert PASSWORD not in ready.text + logged.text()
    assert WRONG not in ready.text + logged.text()


@pytest.mark.parametrize("trusted", ["system", "other"])
def test_an_untrusted_certificate_is_reported_as_tls(start, certificates, logged, trusted):
    server = start(tls=server_tls(certificates))
    ca = None if trusted == "system" else certificates.other_ca
    tls = Tls(None if ca is None else str(ca), *map(str, certificates.client))
    cache = RedisCache(with_password(server, PASSWORD), tls=tls, timeout=1)
    with TestClient(build_app(Settings(log_requests=False), cache)) as client:
        for ease in EASES:
            assert client.post(ODDS, json={"ease": ease}).status_code == 200
        assert client.post(ODDS, json={"ease": 18}).status_code == 200
        ready = client.get("/readyz")
    assert ready.status_code == 200
    state = ready.json()["cache"]
    assert (state["reachable"], state["error"]) == (False, "tls")
    assert "certificate verify failed" in state["detail"]
    assert cache.stats.hits == 1  # the local tier
    assert len(logged.at(logging.WARNING)) == 1
    assert PASSWORD not in ready.text + logged.text()


def test_the_server_host_name_is_checked(start, certificates):
    cert, key = certificates.elsewhere  # a certificate from the trusted CA, for another host
    server = start(tls=ServerTls(cert, key, certificates.ca))

    async def scenario() -> Problem | None:
        cache = RedisCache(server.url, tls=client_tls(certificates), timeout=1)
        assert await cache.ping() is False
        await cache.close()
        return cache.problem

    problem = asyncio.run(scenario())
    assert problem is not None
    assert problem.kind == "tls"
    assert "mismatch" in problem.detail


def test_a_missing_client_certificate_is_reported(start, certificates):
    server = start(tls=server_tls(certificates))  # tls-auth-clients yes

    async def scenario() -> Problem | None:
        cache = RedisCache(server.url, tls=Tls(ca_file=str(certificates.ca)), timeout=1)
        assert await cache.ping() is False
        await cache.close()
        return cache.problem

    problem = asyncio.run(scenario())
    assert problem is not None
    assert problem.kind == "tls", problem


# Configuration


def test_tls_files_need_a_rediss_url(certificates):
    with pytest.raises(ValueError, match="rediss://"):
        Client.from_url("redis://127.0.0.1:6379", tls=Tls(ca_file=str(certificates.ca)))
    with pytest.raises(ValueError, match="certificate file"):
        Client.from_url("rediss://127.0.0.1:6379", tls=Tls(key_file=str(certificates.client[1])))
    with pytest.raises(FileNotFoundError):
        RedisCache("rediss://127.0.0.1:6379", tls=Tls(ca_file=str(certificates.ca) + ".missing"))
    with pytest.raises(ssl.SSLError):
        RedisCache("rediss://127.0.0.1:6379", tls=Tls(ca_file=str(certificates.client[1])))


def test_tls_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("REDIS_TLS_CA_FILE", "/etc/redis/ca.pem")
    monkeypatch.setenv("REDIS_TLS_CERT_FILE", "/etc/redis/client.pem")
    monkeypatch.setenv("REDIS_TLS_KEY_FILE", "")
    assert Settings().redis_tls == Tls("/etc/redis/ca.pem", "/etc/redis/client.pem", None)
    for name in ("REDIS_TLS_CA_FILE", "REDIS_TLS_CERT_FILE"):
        monkeypatch.setenv(name, "")
    assert Settings().redis_tls is None
