import httpx

r = httpx.get("http://localhost:8000/json/items", allow_redirects=True, timeout=5)
print(r.json())
