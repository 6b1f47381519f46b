import asyncio

import httpx

limits = httpx.Limits(max_connections=2)
timeout = httpx.Timeout(5.0, pool=1.0)


async def main():
    async with httpx.AsyncClient(limits=limits, timeout=timeout) as client:
        urls = [f"http://localhost:8000/slow/item/{i}" for i in range(5)]
        results = await asyncio.gather(*(client.get(u) for u in urls))
        print([r.status_code for r in results])


asyncio.run(main())
