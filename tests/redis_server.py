"""A throwaway `redis-server` on a free loopback port, for tests.

It never touches a Redis that is already running on the machine, keeps nothing
on disk, and can be killed and started again on the same port, so a client sees
a Redis that died and came back at the same URL. It may require a `password`
(`requirepass`), and may speak only TLS (`tls`: its port is then a TLS port, and
`url` is `rediss://`).
"""

import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.served import free_port

__all__ = ["RedisServer", "ServerTls", "TlsUnsupportedError"]

_READY_TIMEOUT = 5.0


class TlsUnsupportedError(RuntimeError):
    """This redis-server was built without TLS."""


@dataclass(frozen=True)
class ServerTls:
    """The server's certificate and key, the CA its clients' certificates must come from,
    and `auth_clients`: yes (Redis's default: a client must present a certificate), optional
    or no."""

    cert_file: Path
    key_file: Path
    ca_file: Path
    auth_clients: str = "yes"


class RedisServer:
    def __init__(
        self, executable: str, *, password: str | None = None, tls: ServerTls | None = None
    ) -> None:
        self._executable = executable
        self._password = password
        self._tls = tls
        self.port = free_port()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The server's URL, without the password."""
        scheme = "redis" if self._tls is None else "rediss"
        return f"{scheme}://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server (again on the same port) and wait until it answers."""
        if self._process is not None:
            raise RuntimeError("redis-server is already running")
        with tempfile.TemporaryFile() as output:  # what it says, for the error if it fails
            self._process = subprocess.Popen(
                [self._executable, *self._arguments()],
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
            try:
                self._wait_until_ready()
            except RuntimeError as error:
                self.stop()
                output.seek(0)
                said = output.read().decode(errors="replace")[-2000:]
                if self._tls is not None and "Bad directive" in said and "tls" in said:
                    raise TlsUnsupportedError(f"redis-server has no TLS: {said}") from error
                raise RuntimeError(f"{error}; redis-server said:\n{said}") from error
            except BaseException:
                self.stop()
                raise

    def stop(self) -> None:
        """Kill the server at once (SIGKILL), like a crash: no shutdown, no save."""
        if self._process is None:
            return
        self._process.kill()
        self._process.wait(timeout=_READY_TIMEOUT)
        self._process = None

    def _arguments(self) -> list[str]:
        arguments = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        if self._password is not None:
            arguments += ["--requirepass", self._password]
        if self._tls is None:
            return ["--port", str(self.port), *arguments]
        return [
            "--port", "0",  # no plain port at all
            "--tls-port", str(self.port),
            "--tls-cert-file", str(self._tls.cert_file),
            "--tls-key-file", str(self._tls.key_file),
            "--tls-ca-cert-file", str(self._tls.ca_file),
            "--tls-auth-clients", self._tls.auth_clients,
            *arguments,
        ]  # fmt: skip

    def _wait_until_ready(self) -> None:
        assert self._process is not None
        deadline = time.monotonic() + _READY_TIMEOUT
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self._process.returncode}")
            if _answers(self.port, tls=self._tls is not None):
                return
            time.sleep(0.01)
        raise RuntimeError(f"redis-server did not answer within {_READY_TIMEOUT} s")


def _answers(port: int, *, tls: bool) -> bool:
    """Whether the server answers PING (NOAUTH counts: it wants a password); a TLS server,
    whether it accepts connections, as a PING would need its client certificate."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            if tls:
                return True
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith((b"+PONG", b"-NOAUTH"))
    except OSError:
        return False
