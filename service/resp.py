"""A minimal asyncio Redis client: RESP2 over `asyncio` streams, for `RedisCache`.

`RedisCache` only sends GET, SET key value EX ttl and PING (plus AUTH and SELECT when it
connects). redis-py spends about 50 µs of CPU on one GET of a 3 KB value (pool locks,
connection health checks, retry and deprecation wrappers, event listeners); writing the command
and reading the reply straight off a stream costs about 17 µs. So this module does just that.

Concurrent calls share one connection (`Line`): the commands issued in one turn of the event
loop are written together, and the replies, which Redis sends in order, are handed back in
order. Under load that is one system call and one wakeup of Redis for several requests'
GETs, not one each: FORESIGHT attack odds from Redis went from 6-7 to 11-12 thousand answers a
second on the 2-core host (wrk, 16 connections).

It never retries and never times out by itself: the caller bounds each call with
`asyncio.timeout` and decides what a failure means (`RedisCache` opens its circuit breaker).
A call cancelled while its reply is on its way closes the connection, failing the calls that
wait on it with it, as does a lost connection or a garbled reply: the next call connects
afresh. An error reply fails its own call only.

Errors: network trouble raises `OSError` (a closed connection or a garbled reply raise
`ConnectionError`, an `OSError`; a failed TLS handshake `ssl.SSLError`, one too); an error
reply from Redis raises `ResponseError`, and one to the AUTH sent on connecting
`AuthenticationError`, so the caller can tell a wrong password from a full Redis; a TLS
connection dropped before its first reply `TlsRefusedError` (an `ssl.SSLError`).
A `Client` belongs to the event loop it is first used on, like asyncio streams themselves.

TLS (`rediss://`) verifies the server's certificate and host name, against the system's CAs
or the PEM bundle `Tls.ca_file`, and can present a client certificate (`Tls.cert_file`):
Redis asks for one unless it runs with `tls-auth-clients no`.
"""

import asyncio
import ssl
from collections import deque
from dataclasses import dataclass
from typing import TypeAlias
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = [
    "Address",
    "AuthenticationError",
    "Client",
    "Connection",
    "ProtocolError",
    "Reply",
    "ResponseError",
    "Tls",
    "TlsRefusedError",
    "encode_command",
    "parse_url",
    "read_reply",
    "tls_context",
]

#: What a command may return: simple strings as `str`, bulk strings as `bytes`, integers,
#: arrays, and None for a null bulk string or array.
Reply: TypeAlias = "str | bytes | int | list[Reply] | None"
Arg: TypeAlias = bytes | str


class ResponseError(Exception):
    """Redis answered with an error reply (`-ERR ...`); the message is Redis's."""


class AuthenticationError(ResponseError):
    """Redis refused the AUTH sent on connecting (WRONGPASS, or no password configured)."""


class TlsRefusedError(ssl.SSLError):
    """Redis dropped a TLS connection before answering its first command: it refused our
    certificate, or wanted one (`tls-auth-clients yes`, Redis's default)."""


class ProtocolError(ConnectionError):
    """The connection closed mid-reply, or the reply is not valid RESP."""


@dataclass(frozen=True)
class Address:
    """Where and how to connect: a TCP host and port, or a Unix socket `path`."""

    host: str = "localhost"
    port: int = 6379
    path: str | None = None
    username: str | None = None
    password: str | None = None
    db: int = 0
    tls: bool = False


@dataclass(frozen=True)
class Tls:
    """Files for `rediss://`, each PEM: `ca_file`, the CAs to trust (None: the system's);
    `cert_file` and `key_file`, a client certificate and its key (`key_file` None: the key is
    in `cert_file`)."""

    ca_file: str | None = None
    cert_file: str | None = None
    key_file: str | None = None


def tls_context(tls: Tls) -> ssl.SSLContext:
    """A client context that verifies the server's certificate and host name. A missing or
    unreadable file raises `OSError` (or `ssl.SSLError`) here, not on the first connection."""
    if tls.key_file is not None and tls.cert_file is None:
        raise ValueError("a Redis TLS key file needs its certificate file")
    context = ssl.create_default_context(cafile=tls.ca_file)
    if tls.cert_file is not None:
        context.load_cert_chain(tls.cert_file, tls.key_file)
    return context


def parse_url(url: str) -> Address:
    """`redis://[[user]:password@]host[:port][/db]`, `rediss://...` (TLS), or
    `unix://[[user]:password@]/path/to.sock[?db=N]`."""
    parts = urlsplit(url)
    username = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    if username is not None and password is None:
        raise ValueError(f"a Redis username needs a password: {url!r}")
    query = parse_qs(parts.query, keep_blank_values=True, strict_parsing=False)
    if parts.scheme == "unix":
        if set(query) - {"db"} or not parts.path:
            raise ValueError(f"expected unix:///path/to.sock[?db=N], got {url!r}")
        db = _db(query.get("db", ["0"])[-1], url)
        return Address(path=parts.path, username=username, password=password, db=db)
    if parts.scheme not in ("redis", "rediss"):
        raise ValueError(f"a Redis URL starts with redis://, rediss:// or unix://, got {url!r}")
    if query or not parts.hostname:
        raise ValueError(f"expected {parts.scheme}://[[user]:password@]host[:port][/db]: {url!r}")
    return Address(
        host=parts.hostname,
        port=parts.port or 6379,  # `.port` raises ValueError itself when it is not a number
        username=username,
        password=password,
        db=_db(parts.path.lstrip("/") or "0", url),
        tls=parts.scheme == "rediss",
    )


def _db(text: str, url: str) -> int:
    if not text.isdigit():
        raise ValueError(f"the Redis database must be a number, got {text!r} in {url!r}")
    return int(text)


def encode_command(args: tuple[Arg, ...]) -> bytes:
    """A command as a RESP array of bulk strings: `*2\\r\\n$3\\r\\nGET\\r\\n$1\\r\\nk\\r\\n`."""
    chunks = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg.encode() if isinstance(arg, str) else arg
        chunks += (b"$%d\r\n" % len(data), data, b"\r\n")
    return b"".join(chunks)


async def read_reply(reader: asyncio.StreamReader) -> Reply:
    """Read one whole reply. An error reply raises `ResponseError` once its line is read."""
    line = b""
    try:
        line = await reader.readline()  # up to and including b"\n"
        if not line.endswith(b"\r\n"):  # readline returns what it has at end of stream
            raise ProtocolError("Redis closed the connection")
        kind, rest = line[:1], line[1:-2]
        if kind == b"$":  # bulk string: $<length>\r\n<bytes>\r\n, or $-1\r\n for None
            length = int(rest)
            if length < 0:
                return None
            data = await reader.readexactly(length + 2)
            if data[-2:] != b"\r\n":
                raise ProtocolError("a bulk string does not end with CRLF")
            return data[:-2]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise ResponseError(rest.decode(errors="replace"))
        if kind == b":":
            return int(rest)
        if kind == b"*":  # array: *<count>\r\n then each element; *-1\r\n is None
            count = int(rest)
            return None if count < 0 else [await read_reply(reader) for _ in range(count)]
    except asyncio.IncompleteReadError as error:  # an EOFError, not an OSError
        raise ProtocolError("Redis closed the connection mid-reply") from error
    except ValueError as error:  # int() of garbage, or a line longer than the reader's limit
        raise ProtocolError(f"invalid reply {line[:40]!r}") from error
    raise ProtocolError(f"unknown reply type {line[:40]!r}")


class Connection:
    """One connection: one command at a time while it is set up (`call`: AUTH, SELECT),
    then its commands pipelined by a `Line` (`write`, `read`)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._writer = writer

    @classmethod
    async def open(cls, address: Address, tls: ssl.SSLContext | None = None) -> "Connection":
        """Connect, then AUTH and SELECT as `address` says.

        Over TLS 1.3 the client's handshake is done before the server has checked the
        client's certificate: a server that refuses it (none sent, or not from its CA) says so
        with an alert or just drops the connection when the client first reads. So a TLS
        connection's first exchange (AUTH, else a PING) happens here, and a connection
        dropped then raises `TlsRefusedError`, not a `ConnectionError` like any other.
        """
        if address.path is not None:
            reader, writer = await asyncio.open_unix_connection(address.path)
        else:
            reader, writer = await asyncio.open_connection(address.host, address.port, ssl=tls)
        connection = cls(reader, writer)
        try:
            try:
                if address.password is not None:
                    user = () if address.username is None else (address.username,)
                    await connection.call("AUTH", *user, address.password)
                elif address.tls:
                    await connection.call("PING")
            except ResponseError as refused:  # WRONGPASS, or NOAUTH to the PING
                raise AuthenticationError(str(refused)) from None
            except ConnectionError as dropped:
                if not address.tls:
                    raise
                raise TlsRefusedError(f"Redis dropped the TLS connection ({dropped}): does it "
                                      "want a client certificate?") from dropped  # fmt: skip
            if address.db:
                await connection.call("SELECT", str(address.db))
        except BaseException:
            connection.close()
            raise
        return connection

    async def call(self, *args: Arg) -> Reply:
        self._writer.write(encode_command(args))
        await self._writer.drain()  # raises if the connection was lost; waits if buffers are full
        return await read_reply(self._reader)

    def write(self, data: bytes) -> None:
        """Send without waiting (a `Line` sends commands this way)."""
        self._writer.write(data)

    async def read(self) -> Reply:
        """The next reply."""
        return await read_reply(self._reader)

    @property
    def usable(self) -> bool:
        """False once the server has closed the connection (as far as the loop has seen)."""
        return not self._reader.at_eof() and not self._writer.is_closing()

    def close(self) -> None:
        """Close without waiting (safe while being cancelled); the loop finishes the job.

        Aborted, not closed: a TLS close waits for the server's close_notify, and a loop that
        stops first (at shutdown, or a test's) would leave the socket open.
        """
        self._writer.transport.abort()


class Line:
    """One connection carrying the commands of many callers at once (pipelining).

    Commands issued in the same turn of the event loop go out in one write, and Redis answers
    them in order, so the replies are handed back in the order the commands were queued: under
    load, one system call and one wakeup of Redis carry several requests' GETs instead of one
    each (a write to Redis was most of a cached odds answer's cost, make bench, profiled).

    A reply is matched by its place in the queue, so it can never be read as another command's.
    An error reply raises `ResponseError` in its own caller only. Anything else that goes wrong
    (the connection lost, a garbled reply, a caller cancelled while its reply is on its way)
    closes the line and fails every command still waiting on it with `ConnectionError`.
    """

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._queued: list[bytes] = []  # commands not yet written
        self._waiting: deque[asyncio.Future[Reply]] = deque()  # one per command sent or queued
        self._reading: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def usable(self) -> bool:
        return not self._closed and self._connection.usable

    async def call(self, command: bytes) -> Reply:
        if self._closed:
            raise ConnectionError("the Redis connection is closed")
        loop = asyncio.get_running_loop()
        if not self._queued:
            loop.call_soon(self._send)
        self._queued.append(command)
        reply: asyncio.Future[Reply] = loop.create_future()
        self._waiting.append(reply)
        if self._reading is None:
            self._reading = loop.create_task(self._read())
        try:
            return await reply
        except asyncio.CancelledError:
            self.close("a command was cancelled while its reply was on its way")
            raise

    def _send(self) -> None:
        if self._queued and not self._closed:
            self._connection.write(b"".join(self._queued))
        self._queued.clear()

    async def _read(self) -> None:
        try:
            while self._waiting:
                try:
                    reply: Reply | ResponseError = await self._connection.read()
                except ResponseError as refused:
                    reply = refused
                waiter = self._waiting.popleft()
                if waiter.done():
                    continue
                if isinstance(reply, ResponseError):
                    waiter.set_exception(reply)
                else:
                    waiter.set_result(reply)
        except BaseException as error:
            # A reader gone with replies still due would leave the next reader a step behind.
            self.close(str(error) or type(error).__name__)
            if not isinstance(error, OSError | asyncio.CancelledError):
                raise
        finally:
            self._reading = None

    def close(self, why: str) -> None:
        """Close the connection; each command still waiting raises `ConnectionError`."""
        if self._closed:
            return
        self._closed = True
        self._connection.close()
        self._queued.clear()
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_exception(ConnectionError(f"the Redis connection closed: {why}"))
        if self._reading is not None and self._reading is not asyncio.current_task():
            self._reading.cancel()


class Client:
    """Commands over one pipelined connection (`Line`), opened when first needed and again
    whenever the last one closed."""

    def __init__(self, address: Address, *, tls: Tls | None = None) -> None:
        """`tls` is for a `rediss://` address only: files for a plain connection would
        suggest a protection it does not have, so they raise ValueError."""
        if tls is not None and not address.tls:
            raise ValueError("Redis TLS files are set, but the Redis URL is not rediss://")
        self.address = address
        self._line: Line | None = None
        self._opening: asyncio.Future[Line] | None = None
        self._closed = False
        # Loading the CA certificates is slow: once per client, not once per connection.
        self._tls = tls_context(tls or Tls()) if address.tls else None

    @classmethod
    def from_url(cls, url: str, *, tls: Tls | None = None) -> "Client":
        return cls(parse_url(url), tls=tls)

    async def call(self, *args: Arg) -> Reply:
        """Send one command and return its reply. No retries: any failure propagates."""
        line = await self._usable_line()
        return await line.call(encode_command(args))

    async def _usable_line(self) -> Line:
        """The open line, or a new one: callers that find none while one is being opened
        wait for that one rather than each opening their own."""
        if self._closed:
            raise ConnectionError("the Redis client is closed")
        line = self._line
        if line is not None and line.usable:
            return line
        if self._opening is not None:
            return await asyncio.shield(self._opening)
        if line is not None:
            line.close("Redis closed it")
            self._line = None
        opening = self._opening = asyncio.get_running_loop().create_future()
        try:
            opened = Line(await Connection.open(self.address, self._tls))
        except BaseException as error:
            failed = error if isinstance(error, Exception) else ConnectionError("cancelled")
            opening.set_exception(failed)
            opening.exception()  # those waiting raise it; nobody waiting is no error to log
            raise
        finally:
            self._opening = None
        if self._closed:
            opened.close("the Redis client is closed")
            opening.set_exception(ConnectionError("the Redis client is closed"))
            opening.exception()
            raise ConnectionError("the Redis client is closed")
        self._line = opened
        opening.set_result(opened)
        return opened

    @property
    def connected(self) -> bool:
        """Whether a usable connection is open."""
        return self._line is not None and self._line.usable

    async def get(self, key: Arg) -> bytes | None:
        reply = await self.call(b"GET", key)
        if reply is not None and not isinstance(reply, bytes):
            raise ProtocolError(f"GET returned {reply!r}")
        return reply

    async def set(self, key: Arg, value: Arg, ex: int) -> None:
        await self.call(b"SET", key, value, b"EX", str(ex))

    async def ping(self) -> bool:
        return await self.call(b"PING") == "PONG"

    async def aclose(self) -> None:
        """Close the connection; later calls raise, and commands still waiting raise."""
        self._closed = True
        if self._line is not None:
            self._line.close("the Redis client is closed")
        await asyncio.sleep(0)  # let the loop run the transport's close callbacks
