import httpx

r = httpx.get("https://localhost:8000/json/status")
print(r.json())
