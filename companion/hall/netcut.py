"""A TCP relay whose line can be cut: how tests and the bench drop one table's network.

The table connects to the relay instead of the broker. `cut()` closes every relayed
connection and refuses new ones (as a pulled cable or a dead Wi-Fi looks to the client: the
connection breaks and reconnects fail) until `restore()`.
"""

from __future__ import annotations

import asyncio
import contextlib


class CutRelay:
    """Relays 127.0.0.1:<port> to `target`; run its coroutines on one event loop."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self.cut_now = False
        self.cuts = 0
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    async def start(self) -> CutRelay:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.cut_now:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer),
                             return_exceptions=True)
        self._writers -= {writer, up_writer}

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while not self.cut_now:
                data = await reader.read(65536)
                if not data or self.cut_now:
                    break
                writer.write(data)
                await writer.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def cut(self) -> None:
        self.cut_now = True
        self.cuts += 1
        for writer in list(self._writers):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        self._writers.clear()

    async def restore(self) -> None:
        self.cut_now = False

    async def close(self) -> None:
        await self.cut()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()
