import requests

session = requests.Session()
r = session.get("http://localhost:8000/json/feature-flags", http2=True, timeout=5)
print(r.json())
