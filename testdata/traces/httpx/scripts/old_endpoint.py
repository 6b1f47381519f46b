import httpx

# /loop used to be /api/v1/status, the server now redirects
r = httpx.get("http://localhost:8000/loop/status")
r.raise_for_status()
print(r.json())
