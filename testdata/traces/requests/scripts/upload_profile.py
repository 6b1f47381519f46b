import requests

author = "Zoë Müller ✓"

r = requests.put(
    "http://localhost:8000/profiles/42",
    headers={"X-Display-Name": author},
    data=b"{}",
    timeout=5,
)
print(r.status_code)
