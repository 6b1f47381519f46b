import httpx

form = {
    "name": "Ana",
    "address": {"city": "Lisbon", "zip": "1000-001"},
}
r = httpx.post("http://localhost:8000/signup", data=form)
print(r.status_code)
