import httpx

r = httpx.get("http://localhost:8000/badgzip/feed.json")
print(r.json())
