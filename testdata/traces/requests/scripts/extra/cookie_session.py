import requests

cookies = {"session_id": 918273, "theme": "dark"}
r = requests.get("http://localhost:8000/json/dashboard", cookies=cookies, timeout=5)
print(r.json())
