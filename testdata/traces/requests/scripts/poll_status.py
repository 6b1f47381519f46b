import os

import requests

# POLL_TIMEOUT_MS=500 in production
timeout_s = int(os.environ.get("POLL_TIMEOUT_MS", "500")) // 1000

r = requests.get("http://localhost:8000/json/status", timeout=timeout_s)
print(r.json()["ok"])
