import asyncio

import httpx


async def main():
    async with httpx.AsyncClient() as client:
        resp = client.get("http://localhost:8000/json/items")
        data = resp.json()
        print(len(data["items"]))


asyncio.run(main())
