import requests

API_KEY = "3f9a1c0e-7b2d-4e55-9a0b-1c2d3e4f5a6b"

# copied from the curl example in the vendor docs: -H "X-Api-Key: ..."
headers = {"X-Api-Key:": API_KEY, "Accept": "application/json"}
r = requests.get("http://localhost:8000/json/quota", headers=headers, timeout=5)
print(r.json())
