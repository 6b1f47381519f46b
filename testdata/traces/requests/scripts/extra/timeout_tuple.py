import requests

CONNECT, READ, TOTAL = 3.05, 27, 60

r = requests.get("http://localhost:8000/json/items", timeout=(CONNECT, READ, TOTAL))
print(r.json())
