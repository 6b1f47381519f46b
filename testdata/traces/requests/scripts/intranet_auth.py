import requests

USERNAME = "jürgen"
PASSWORD = "Pässwört€2024"

r = requests.get("http://localhost:8000/json/me", auth=(USERNAME, PASSWORD), timeout=5)
print(r.json())
