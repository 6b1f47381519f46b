import asyncio

import requests


async def fetch_prices(symbols):
    results = {}
    for sym in symbols:
        resp = await requests.get(f"http://localhost:8000/json/prices/{sym}", timeout=5)
        results[sym] = resp.json()
    return results


if __name__ == "__main__":
    print(asyncio.run(fetch_prices(["AAPL", "MSFT"])))
