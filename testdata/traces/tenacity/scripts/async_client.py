import asyncio

from tenacity import AsyncRetrying, stop_after_attempt, wait_fixed


async def open_conn():
    reader, writer = await asyncio.open_connection("127.0.0.1", 59999)
    return reader, writer


async def main():
    async for attempt in AsyncRetrying(stop=stop_after_attempt(3), wait=wait_fixed(0.1)):
        with attempt:
            await open_conn()


asyncio.run(main())
