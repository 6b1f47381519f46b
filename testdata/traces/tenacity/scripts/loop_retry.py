import asyncio

from tenacity import AsyncRetrying, stop_after_attempt


async def flaky():
    raise TimeoutError("read timed out")


async def main():
    for attempt in AsyncRetrying(stop=stop_after_attempt(3)):
        with attempt:
            await flaky()


asyncio.run(main())
