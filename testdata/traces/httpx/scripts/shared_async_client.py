import asyncio

import httpx

# one client for the whole module, reused by every job
client = httpx.AsyncClient(base_url="http://localhost:8000", timeout=10)


async def fetch_items():
    r = await client.get("/json/items")
    return r.json()


def job():
    return asyncio.run(fetch_items())


if __name__ == "__main__":
    print(job())   # first scheduler tick
    print(job())   # second scheduler tick
