import requests

r = requests.get("http://localhost:8000/badgzip/feed.json", timeout=10)
print(r.json())
