import httpx

resp = httpx.post("http://localhost:8000/api/v1/login", data={"user": "admin", "password": "x"})
token = resp.json()["token"]
print(token)
