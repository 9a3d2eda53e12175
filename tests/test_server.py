"""The served connection's transport sends a response's head and body as one write
(service/server.py, `_Coalescing`)."""

import asyncio
from typing import Any

from service.server import _Coalescing


class Recording:
    """A transport that records what is asked of it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def write(self, data: Any) -> None:
        self.calls.append(("write", bytes(data)))

    def close(self) -> None:
        self.calls.append(("close", None))

    def write_eof(self) -> None:
        self.calls.append(("write_eof", None))

    def abort(self) -> None:
        self.calls.append(("abort", None))

    def is_closing(self) -> bool:
        return False


def run(scenario: Any) -> list[tuple[str, Any]]:
    async def main() -> list[tuple[str, Any]]:
        transport = Recording()
        await scenario(_Coalescing(transport, asyncio.get_running_loop()))  # type: ignore[arg-type]
        await asyncio.sleep(0)  # the end of the turn
        return transport.calls

    return asyncio.run(main())


def test_a_head_and_its_body_go_out_as_one_write():
    async def scenario(coalescing: _Coalescing) -> None:
        coalescing.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
        coalescing.write(memoryview(b"{}"))

    assert run(scenario) == [("write", b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}")]


def test_a_lone_write_goes_out_by_the_end_of_the_turn():
    """A streamed response's head does not wait for a body that comes later."""

    async def scenario(coalescing: _Coalescing) -> None:
        coalescing.write(b"head")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        coalescing.write(b"body")

    assert run(scenario) == [("write", b"head"), ("write", b"body")]


def test_closing_or_ending_sends_what_is_held_first_and_aborting_drops_it():
    async def close(coalescing: _Coalescing) -> None:
        coalescing.write(b"last")
        coalescing.close()

    async def end(coalescing: _Coalescing) -> None:
        coalescing.write(b"last")
        coalescing.write_eof()

    async def abort(coalescing: _Coalescing) -> None:
        coalescing.write(b"lost")
        coalescing.abort()

    assert run(close) == [("write", b"last"), ("close", None)]
    assert run(end) == [("write", b"last"), ("write_eof", None)]
    assert run(abort) == [("abort", None)]


def test_anything_else_is_the_transports_own():
    async def scenario(coalescing: _Coalescing) -> None:
        assert coalescing.is_closing() is False

    assert run(scenario) == []
