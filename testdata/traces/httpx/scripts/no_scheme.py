import os

import httpx

BASE = os.environ.get("SERVICE_HOST", "localhost:8000")
r = httpx.get(f"{BASE}/json/health")
print(r.json())
