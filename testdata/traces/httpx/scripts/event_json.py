from datetime import datetime

import httpx

r = httpx.post("http://localhost:8000/events", json={"title": "deploy", "at": datetime.utcnow()})
print(r.status_code)
