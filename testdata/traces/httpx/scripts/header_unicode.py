import httpx

display_name = "Zoë Müller ✓"
r = httpx.put(
    "http://localhost:8000/profiles/42",
    headers={"X-Display-Name": display_name},
    content=b"{}",
)
print(r.status_code)
