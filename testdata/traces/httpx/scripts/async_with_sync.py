import asyncio

import httpx


async def main():
    with httpx.AsyncClient() as client:
        r = await client.get("http://localhost:8000/json/items")
        print(r.json())


asyncio.run(main())
