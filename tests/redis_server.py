"""A throwaway `redis-server` on a free loopback port, for tests.

It never touches a Redis that is already running on the machine, keeps nothing
on disk, and can be killed and started again on the same port, so a client sees
a Redis that died and came back at the same URL.
"""

import socket
import subprocess
import time

from tests.served import free_port

__all__ = ["RedisServer"]

_READY_TIMEOUT = 5.0


class RedisServer:
    def __init__(self, executable: str) -> None:
        self._executable = executable
        self.port = free_port()
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start the server (again on the same port) and wait until it answers PING."""
        if self._process is not None:
            raise RuntimeError("redis-server is already running")
        self._process = subprocess.Popen(
            [
                self._executable,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            self._wait_until_ready()
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

    def _wait_until_ready(self) -> None:
        assert self._process is not None
        deadline = time.monotonic() + _READY_TIMEOUT
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self._process.returncode}")
            if _answers_ping(self.port):
                return
            time.sleep(0.01)
        raise RuntimeError(f"redis-server did not answer PING within {_READY_TIMEOUT} s")


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False
