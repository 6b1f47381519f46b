import requests

r = requests.delete("http://localhost:8000/empty/sessions/99", timeout=5)
r.raise_for_status()
print(r.json())
