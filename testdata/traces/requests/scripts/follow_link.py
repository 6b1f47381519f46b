import requests

resp = requests.get("http://localhost:8000/loop/start", timeout=10)
print(resp.url, resp.status_code)
