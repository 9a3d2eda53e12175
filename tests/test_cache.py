import asyncio
import socket
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
import redis

from service.cache import CacheStats, MemoryCache, RedisCache, cached, make_cache
from service.resp import (
    Address,
    Client,
    ProtocolError,
    Reply,
    ResponseError,
    encode_command,
    parse_url,
    read_reply,
)
from tests.redis_server import RedisServer

# Timed or loaded: run by itself, after the parallel suite (Makefile).
pytestmark = pytest.mark.alone

KEY = "adjudicator:1:four_d8:check:" + "ab" * 32
TABLE = b'{"outcomes":[[1,2]]}'


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Compute:
    """A `compute` callback that counts its calls."""

    def __init__(self, value: bytes = TABLE) -> None:
        self.value = value
        self.calls = 0

    def __call__(self) -> bytes:
        self.calls += 1
        return self.value


def stats(hits: int, misses: int, fallbacks: int) -> CacheStats:
    return CacheStats(hits=hits, misses=misses, fallbacks=fallbacks)


def in_redis(server: RedisServer, key: str) -> bytes | None:
    with redis.Redis.from_url(server.url) as client:
        value = client.get(key)
    assert value is None or isinstance(value, bytes)
    return value


# In memory


def test_memory_cache_evicts_the_least_recently_used_entry() -> None:
    entry = 256 + len("k0") + len(b"1")  # what the cache counts for each entry below

    async def scenario() -> None:
        cache = MemoryCache(max_bytes=8 * entry)
        for i in range(8):
            await cache.set(f"k{i}", b"1")
        assert cache.size == 8 * entry
        assert await cache.get("k0") == b"1"  # now k1 is the least recently used
        await cache.set("k8", b"1")
        assert await cache.get("k1") is None
        assert await cache.get("k0") == b"1"
        assert await cache.get("k8") == b"1"
        assert cache.size == 8 * entry
        await cache.close()

    asyncio.run(scenario())


def test_memory_cache_is_bounded_in_bytes_not_entries() -> None:
    async def scenario() -> None:
        cache = MemoryCache(max_bytes=100_000)
        for i in range(50):
            await cache.set(f"k{i}", bytes(10_000))
        assert cache.size <= 100_000
        assert await cache.get("k49") is not None
        assert await cache.get("k0") is None
        # One table bigger than an eighth of the memory is served, not kept: it would flush
        # the rest.
        await cache.set("huge", bytes(20_000))
        assert await cache.get("huge") is None
        assert await cache.get("k49") is not None

    asyncio.run(scenario())


def test_memory_cache_rejects_an_empty_bound() -> None:
    with pytest.raises(ValueError, match="max_bytes"):
        MemoryCache(max_bytes=0)


def test_cached_computes_once_then_hits() -> None:
    async def scenario() -> None:
        cache = MemoryCache()
        compute = Compute()
        assert await cached(cache, KEY, compute) == TABLE
        assert await cached(cache, KEY, compute) == TABLE
        assert compute.calls == 1
        assert cache.stats == stats(hits=1, misses=1, fallbacks=0)
        assert await cache.ping() is True
        await cache.close()

    asyncio.run(scenario())


def test_cached_counts_evicted_entries_as_misses() -> None:
    async def scenario() -> None:
        cache = MemoryCache(max_bytes=8 * (256 + 1 + len(TABLE)))  # eight entries
        compute = Compute()
        for key in "abcdefghi":
            await cached(cache, key, compute)
        await cached(cache, "i", compute)
        await cached(cache, "a", compute)
        assert compute.calls == 10
        assert cache.stats == stats(hits=1, misses=10, fallbacks=0)

    asyncio.run(scenario())


@pytest.mark.parametrize("url", [None, ""])
def test_make_cache_without_redis_is_in_memory(url: str | None) -> None:
    cache = make_cache(url, max_bytes=1024, timeout=0.05)
    assert isinstance(cache, MemoryCache)
    assert cache.backend == "memory"


def test_make_cache_with_redis() -> None:
    async def scenario() -> None:
        cache = make_cache("redis://127.0.0.1:1/0", max_bytes=1024, timeout=0.05)
        assert isinstance(cache, RedisCache)
        assert cache.backend == "redis"
        await cache.close()

    asyncio.run(scenario())


# Against a real redis-server


@pytest.mark.redis
def test_redis_roundtrip_under_the_exact_key_with_a_ttl(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        cache = RedisCache(redis_server.url, ttl_seconds=3600)
        assert await cache.get(KEY) is None
        await cache.set(KEY, TABLE)
        assert await cache.get(KEY) == TABLE
        assert cache.stats == stats(hits=0, misses=0, fallbacks=0)
        await cache.close()

    asyncio.run(scenario())
    assert in_redis(redis_server, KEY) == TABLE
    with redis.Redis.from_url(redis_server.url) as client:
        assert client.keys("*") == [KEY.encode()]
        assert 3590 < client.ttl(KEY) <= 3600


@pytest.mark.redis
def test_redis_is_shared_between_caches(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        first, second = RedisCache(redis_server.url), RedisCache(redis_server.url)
        compute = Compute()
        assert await cached(first, KEY, compute) == TABLE
        assert await cached(second, KEY, compute) == TABLE
        assert compute.calls == 1
        assert first.stats == stats(hits=0, misses=1, fallbacks=0)
        assert second.stats == stats(hits=1, misses=0, fallbacks=0)
        await first.close()
        await second.close()

    asyncio.run(scenario())


@pytest.mark.redis
def test_dead_redis_costs_no_errors_and_is_skipped(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        cache = RedisCache(redis_server.url, clock=FakeClock())
        await cached(cache, KEY, Compute())  # a pooled connection, about to break
        redis_server.stop()
        compute = Compute(b"fresh")
        for _ in range(20):
            assert await cached(cache, KEY, compute) == b"fresh"
        assert compute.calls == 1  # then served by the local tier
        # The first get fails and opens the breaker; every later get and set is skipped.
        assert cache.stats == stats(hits=19, misses=2, fallbacks=21)
        assert cache.problem is not None
        assert cache.problem.kind == "unreachable"
        assert await cache.ping() is False
        await cache.close()

    started = time.monotonic()
    asyncio.run(scenario())
    assert time.monotonic() - started < 2.0


@pytest.mark.redis
def test_restarted_redis_is_used_again_after_retry_after(redis_server: RedisServer) -> None:
    clock = FakeClock()

    async def scenario() -> None:
        cache = RedisCache(redis_server.url, retry_after=1.0, clock=clock)
        assert await cache.ping() is True
        redis_server.stop()
        assert await cached(cache, KEY, Compute()) == TABLE
        assert cache.stats == stats(hits=0, misses=1, fallbacks=2)
        assert await cache.ping() is False

        redis_server.start()
        assert await cache.ping() is True  # readiness ignores the breaker
        assert cache.problem is None
        assert await cached(cache, KEY, Compute()) == TABLE  # from the local tier
        assert in_redis(redis_server, KEY) is None  # still skipped: the breaker is open
        assert cache.stats == stats(hits=1, misses=1, fallbacks=3)

        clock.now += 1.0
        assert await cached(cache, KEY, Compute()) == TABLE
        assert in_redis(redis_server, KEY) == TABLE
        compute = Compute()
        assert await cached(cache, KEY, compute) == TABLE
        assert compute.calls == 0
        assert cache.stats == stats(hits=2, misses=2, fallbacks=3)
        await cache.close()

    asyncio.run(scenario())


def test_hanging_redis_costs_one_timeout_not_one_per_call() -> None:
    # A socket that listens but never answers: the kernel completes the TCP
    # handshake, so the client connects and then waits for replies forever.
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        port = listener.getsockname()[1]

        async def scenario() -> CacheStats:
            cache = RedisCache(f"redis://127.0.0.1:{port}/0", timeout=0.2, retry_after=60)
            compute: Callable[[], bytes] = Compute()
            for _ in range(20):
                assert await cached(cache, KEY, compute) == TABLE
            assert await cache.ping() is False
            await cache.close()
            return cache.stats

        started = time.monotonic()
        result = asyncio.run(scenario())
        elapsed = time.monotonic() - started

    # Without the breaker this would be 40 timeouts of 0.2 s (8 s) plus the ping. The first
    # call computes; the local tier answers the others.
    assert elapsed < 2.0
    assert result == stats(hits=19, misses=1, fallbacks=21)


# The RESP client (service.resp)


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("redis://localhost", Address(host="localhost", port=6379, db=0)),
        ("redis://127.0.0.1:6380/3", Address(host="127.0.0.1", port=6380, db=3)),
        ("redis://[::1]:7000/", Address(host="::1", port=7000)),
        ("redis://:s3cr%40t@cache/1", Address(host="cache", password="s3cr@t", db=1)),
        (
            "redis://al%20ice:p%3Aw%2Fd@cache:6390/0",
            Address(host="cache", port=6390, username="al ice", password="p:w/d"),
        ),
        ("rediss://cache.example:6380/2", Address(host="cache.example", port=6380, db=2, tls=True)),
        ("rediss://:pw@cache.example", Address(host="cache.example", password="pw", tls=True)),
        ("unix:///run/redis/redis.sock", Address(path="/run/redis/redis.sock")),
        ("unix:///run/redis.sock?db=4", Address(path="/run/redis.sock", db=4)),
        ("unix://u:p@/run/redis.sock", Address(path="/run/redis.sock", username="u", password="p")),
    ],
)
def test_parse_url(url: str, address: Address) -> None:
    assert parse_url(url) == address


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://localhost:6379", "starts with redis://"),
        ("localhost:6379", "starts with redis://"),
        ("redis+sentinel://host/0", "starts with redis://"),
        ("", "starts with redis://"),
        ("redis:///0", "host"),
        ("redis://host/zero", "must be a number"),
        ("redis://host/-1", "must be a number"),
        ("redis://host:port/0", "Port"),
        ("redis://user@host/0", "needs a password"),
        ("redis://host/0?decode_responses=true", "host"),
        ("unix://", "unix:///path"),
        ("unix:///run/redis.sock?timeout=1", "unix:///path"),
        ("unix:///run/redis.sock?db=x", "must be a number"),
    ],
)
def test_parse_url_rejects(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_url(url)


def test_redis_cache_rejects_a_bad_url() -> None:
    with pytest.raises(ValueError, match="starts with redis://"):
        RedisCache("memcached://localhost:11211")


def test_encode_command() -> None:
    assert encode_command((b"GET", "k")) == b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"
    assert encode_command((b"PING",)) == b"*1\r\n$4\r\nPING\r\n"
    # Lengths count bytes (UTF-8 for str); values are binary-safe, empty ones included.
    assert encode_command(("SET", "clé", b"a\r\nb", "EX", "60")) == (
        b"*5\r\n$3\r\nSET\r\n$4\r\ncl\xc3\xa9\r\n$4\r\na\r\nb\r\n$2\r\nEX\r\n$2\r\n60\r\n"
    )
    assert encode_command(("GET", b"")) == b"*2\r\n$3\r\nGET\r\n$0\r\n\r\n"


def parse(data: bytes, replies: int = 1) -> list[Reply]:
    """Read `replies` replies from a stream holding `data`, then check it was all consumed."""

    async def scenario() -> list[Reply]:
        reader = asyncio.StreamReader()
        reader.feed_data(data)
        reader.feed_eof()
        result = [await read_reply(reader) for _ in range(replies)]
        assert await reader.read() == b"", "a reply was not read to its end"
        return result

    return asyncio.run(scenario())


@pytest.mark.parametrize(
    ("data", "reply"),
    [
        (b"+OK\r\n", "OK"),
        (b"+PONG\r\n", "PONG"),
        (b":42\r\n", 42),
        (b":-7\r\n", -7),
        (b"$5\r\nhello\r\n", b"hello"),
        (b"$0\r\n\r\n", b""),
        (b"$6\r\na\r\n\x00\xffb\r\n", b"a\r\n\x00\xffb"),  # binary, CRLF inside
        (b"$-1\r\n", None),
        (b"*0\r\n", []),
        (b"*-1\r\n", None),
        (
            b"*4\r\n$3\r\nGET\r\n:1\r\n$-1\r\n*2\r\n+OK\r\n$1\r\nx\r\n",
            [b"GET", 1, None, ["OK", b"x"]],
        ),
    ],
)
def test_read_reply(data: bytes, reply: Reply) -> None:
    assert parse(data) == [reply]


def test_read_reply_reads_consecutive_replies() -> None:
    table = b"x" * 3000
    data = b"+OK\r\n$3000\r\n" + table + b"\r\n$-1\r\n:3\r\n"
    assert parse(data, replies=4) == ["OK", table, None, 3]


def test_read_reply_raises_error_replies() -> None:
    with pytest.raises(ResponseError) as caught:
        parse(b"-ERR unknown command 'NOPE'\r\n")
    assert str(caught.value) == "ERR unknown command 'NOPE'"
    with pytest.raises(ResponseError) as caught:
        parse(b"-NOAUTH Authentication required.\r\n")
    assert str(caught.value) == "NOAUTH Authentication required."


@pytest.mark.parametrize(
    "data",
    [
        b"",  # closed before the reply
        b"+OK",  # closed mid-line
        b"$5\r\nhel",  # closed mid-bulk
        b"*2\r\n:1\r\n",  # closed mid-array
        b"$3\r\nabcde\r\n",  # a bulk string longer than its length
        b"?what\r\n",  # no such type
        b":forty-two\r\n",
        b"$many\r\n",
    ],
)
def test_read_reply_raises_connection_errors_on_bad_streams(data: bytes) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse(data)
    assert isinstance(caught.value, ConnectionError)  # an OSError: RedisCache falls back


# A fake Redis in the test's own event loop: it answers one command at a time per connection,
# in order, like Redis, and records what it was sent.

Answer = Callable[[list[bytes]], Awaitable[bytes]]


class FakeRedis:
    def __init__(self, answer: Answer) -> None:
        self.answer = answer
        self.commands: list[list[bytes]] = []
        self.connections = 0

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while (command := await read_command(reader)) is not None:
                self.commands.append(command)
                writer.write(await self.answer(command))
                await writer.drain()
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()


async def read_command(reader: asyncio.StreamReader) -> list[bytes] | None:
    line = await reader.readline()
    if not line:
        return None
    assert line.startswith(b"*"), line
    args = []
    for _ in range(int(line[1:])):
        header = await reader.readline()
        assert header.startswith(b"$"), header
        args.append((await reader.readexactly(int(header[1:]) + 2))[:-2])
    return args


def bulk(value: bytes) -> bytes:
    return b"$%d\r\n%s\r\n" % (len(value), value)


async def answer_slowly(command: list[bytes]) -> bytes:
    """GET k answers b"value of k", after a while when k is b"slow"; anything else +OK."""
    if command[0] == b"GET":
        if command[1] == b"slow":
            await asyncio.sleep(0.3)
        return bulk(b"value of " + command[1])
    return b"+OK\r\n"


@asynccontextmanager
async def fake_redis(answer: Answer) -> AsyncIterator[tuple[FakeRedis, int]]:
    fake = FakeRedis(answer)
    server = await asyncio.start_server(fake.serve, "127.0.0.1", 0)
    async with server:
        yield fake, server.sockets[0].getsockname()[1]


def test_client_reuses_one_connection_for_sequential_calls() -> None:
    async def scenario() -> None:
        async with fake_redis(answer_slowly) as (fake, port):
            client = Client.from_url(f"redis://127.0.0.1:{port}")
            for key in ("a", "b", "c"):
                assert await client.get(key) == b"value of " + key.encode()
            await client.set("k", b"v", ex=60)
            assert fake.connections == 1
            assert client.connected
            assert fake.commands[-1] == [b"SET", b"k", b"v", b"EX", b"60"]
            await client.aclose()
            assert not client.connected

    asyncio.run(scenario())


def test_a_cancelled_call_drops_its_connection_and_the_next_call_gets_its_own_reply() -> None:
    async def scenario() -> None:
        async with fake_redis(answer_slowly) as (fake, port):
            client = Client.from_url(f"redis://127.0.0.1:{port}")
            assert await client.get("warm") == b"value of warm"
            assert client.connected
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.05):
                    await client.get("slow")
            assert not client.connected  # the connection with the late reply on it is gone
            await asyncio.sleep(0.5)  # the late reply has been sent by now
            # On the old connection this would read b"value of slow".
            assert await client.get("fast") == b"value of fast"
            assert fake.connections == 2
            assert client.connected
            await client.aclose()

    asyncio.run(scenario())


def test_a_cancelled_connect_leaves_nothing_behind() -> None:
    async def answer(command: list[bytes]) -> bytes:
        if command[0] == b"AUTH":
            await asyncio.sleep(0.3)
        return b"+OK\r\n" if command[0] != b"GET" else bulk(b"v")

    async def scenario() -> None:
        async with fake_redis(answer) as (fake, port):
            client = Client.from_url(f"redis://:pw@127.0.0.1:{port}")
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.05):
                    await client.get("k")
            assert not client.connected
            await asyncio.sleep(0.5)
            assert await client.get("k") == b"v"
            assert [c[0] for c in fake.commands] == [b"AUTH", b"AUTH", b"GET"]
            await client.aclose()

    asyncio.run(scenario())


def test_an_error_reply_raises_in_its_own_caller_only() -> None:
    async def answer(command: list[bytes]) -> bytes:
        return b"-OOM command not allowed\r\n" if command[0] == b"SET" else bulk(b"v")

    async def scenario() -> None:
        async with fake_redis(answer) as (fake, port):
            client = Client.from_url(f"redis://127.0.0.1:{port}")
            refused, value = await asyncio.gather(
                client.set("k", b"v", ex=1), client.get("k"), return_exceptions=True
            )
            assert isinstance(refused, ResponseError)
            assert "OOM command not allowed" in str(refused)
            assert value == b"v"
            assert client.connected
            assert await client.get("k") == b"v"
            assert fake.connections == 1
            await client.aclose()

    asyncio.run(scenario())


def test_concurrent_calls_share_one_connection_and_each_gets_its_own_reply() -> None:
    """Commands issued together go out together on one connection; Redis answers in order,
    and each caller gets the reply to its own command, a slow one included."""

    async def scenario() -> None:
        async with fake_redis(answer_slowly) as (fake, port):
            client = Client.from_url(f"redis://127.0.0.1:{port}")
            keys = ["k0", "slow", "k2", "k3", "k4"]
            values = await asyncio.gather(*(client.get(key) for key in keys))
            assert values == [b"value of " + key.encode() for key in keys]
            assert fake.connections == 1
            assert [c[1] for c in fake.commands] == [key.encode() for key in keys]
            await client.aclose()

    asyncio.run(scenario())


def test_a_lost_connection_fails_every_command_waiting_on_it_and_the_next_call_reconnects():
    async def answer(command: list[bytes]) -> bytes:
        if command[1] == b"drop":
            raise ConnectionError("the fake Redis drops the connection")
        return bulk(b"value of " + command[1])

    async def scenario() -> None:
        async with fake_redis(answer) as (fake, port):
            client = Client.from_url(f"redis://127.0.0.1:{port}")
            first, dropped, after = await asyncio.gather(
                client.get("a"), client.get("drop"), client.get("b"), return_exceptions=True
            )
            assert first == b"value of a"
            assert isinstance(dropped, ConnectionError)
            assert isinstance(after, ConnectionError)
            assert not client.connected
            assert await client.get("c") == b"value of c"
            assert fake.connections == 2
            await client.aclose()

    asyncio.run(scenario())


def test_a_closed_client_raises_connection_error() -> None:
    async def scenario() -> None:
        async with fake_redis(answer_slowly) as (_, port):
            client = Client.from_url(f"redis://127.0.0.1:{port}")
            assert await client.ping() is False  # the fake says +OK, not +PONG
            await client.aclose()
            with pytest.raises(ConnectionError, match="closed"):
                await client.get("k")
            cache = RedisCache(f"redis://127.0.0.1:{port}", clock=FakeClock())
            await cache.close()
            assert await cache.get(KEY) is None
            assert cache.stats == stats(hits=0, misses=0, fallbacks=1)

    asyncio.run(scenario())


def test_auth_with_a_password_and_select_over_tcp() -> None:
    async def scenario() -> None:
        async with fake_redis(answer_slowly) as (fake, port):
            client = Client.from_url(f"redis://:p%40ss@127.0.0.1:{port}/2")
            assert await client.get("k") == b"value of k"
            assert fake.commands == [[b"AUTH", b"p@ss"], [b"SELECT", b"2"], [b"GET", b"k"]]
            await client.aclose()

    asyncio.run(scenario())


def test_auth_with_a_user_and_select_over_a_unix_socket() -> None:
    async def scenario(path: str) -> None:
        fake = FakeRedis(answer_slowly)
        server = await asyncio.start_unix_server(fake.serve, path)
        async with server:
            cache = RedisCache(f"unix://alice:s3cr3t@{path}?db=5")
            assert await cache.get(KEY) == b"value of " + KEY.encode()
            assert fake.commands == [
                [b"AUTH", b"alice", b"s3cr3t"],
                [b"SELECT", b"5"],
                [b"GET", KEY.encode()],
            ]
            await cache.close()

    # A short directory: Unix socket paths are limited to about 100 bytes.
    with tempfile.TemporaryDirectory(dir="/tmp") as directory:
        asyncio.run(scenario(str(Path(directory) / "redis.sock")))


# The RESP client against a real redis-server


@pytest.mark.redis
def test_redis_cache_selects_its_database(redis_server: RedisServer) -> None:
    url = f"redis://127.0.0.1:{redis_server.port}/3"

    async def scenario() -> None:
        cache = RedisCache(url)
        await cache.set(KEY, TABLE)
        assert await cache.get(KEY) == TABLE
        assert cache.stats == stats(hits=0, misses=0, fallbacks=0)
        await cache.close()

    asyncio.run(scenario())
    with redis.Redis.from_url(url) as db3:
        assert db3.get(KEY) == TABLE
    assert in_redis(redis_server, KEY) is None  # not in db 0


@pytest.mark.redis
def test_redis_cache_authenticates(redis_server: RedisServer) -> None:
    password = "s3cr3t:@/ %"
    host = f"127.0.0.1:{redis_server.port}"
    with redis.Redis.from_url(redis_server.url) as admin:
        admin.acl_setuser(
            "alice", enabled=True, passwords=["+wonder land"], keys=["*"], commands=["+@all"]
        )
        admin.config_set("requirepass", password)

    async def scenario() -> None:
        default_user = RedisCache(f"redis://:{quote(password, safe='')}@{host}/0")
        alice = RedisCache(f"redis://alice:wonder%20land@{host}/0", clock=FakeClock())
        wrong = RedisCache(f"redis://alice:nope@{host}/0", clock=FakeClock())
        anonymous = RedisCache(f"redis://{host}/0", clock=FakeClock())
        assert await default_user.ping() is True
        assert await alice.ping() is True
        assert await wrong.ping() is False  # WRONGPASS
        assert await anonymous.ping() is False  # NOAUTH
        await default_user.set(KEY, TABLE)
        assert await alice.get(KEY) == TABLE
        assert await wrong.get(KEY) is None
        assert await anonymous.get(KEY) is None
        assert default_user.stats == alice.stats == stats(hits=0, misses=0, fallbacks=0)
        assert wrong.stats == anonymous.stats == stats(hits=0, misses=0, fallbacks=1)
        for cache in (default_user, alice, wrong, anonymous):
            await cache.close()

    asyncio.run(scenario())


@pytest.mark.redis
def test_a_timed_out_get_never_answers_a_later_get(redis_server: RedisServer) -> None:
    clock = FakeClock()

    async def scenario() -> None:
        cache = RedisCache(redis_server.url, timeout=0.1, retry_after=1.0, clock=clock)
        await cache.set("a", b"A")
        await cache.set("b", b"B")
        with redis.Redis.from_url(redis_server.url) as admin:
            admin.execute_command("CLIENT", "PAUSE", "500", "ALL")  # commands wait 0.5 s
        assert await cache.get("a") is None  # timed out
        assert cache.stats == stats(hits=0, misses=0, fallbacks=1)
        await asyncio.sleep(1.0)  # the pause is over: Redis has answered GET a by now
        clock.now += 1.0
        # On the pooled connection of GET a, this would read b"A".
        assert await cache.get("b") == b"B"
        assert await cache.get("a") == b"A"
        assert cache.stats == stats(hits=0, misses=0, fallbacks=1)
        await cache.close()

    asyncio.run(scenario())


@pytest.mark.redis
def test_a_connection_closed_by_redis_is_not_used(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        client = Client.from_url(redis_server.url)
        first = await client.call("CLIENT", "ID")
        assert await client.call("CLIENT", "ID") == first  # the same pooled connection
        with redis.Redis.from_url(redis_server.url) as admin:
            assert admin.execute_command("CLIENT", "KILL", "ID", str(first)) == 1
        await asyncio.sleep(0.2)  # the event loop sees the connection close
        assert await client.call("CLIENT", "ID") not in (first, None)
        assert await client.ping() is True
        assert client.connected
        await client.aclose()

    asyncio.run(scenario())
