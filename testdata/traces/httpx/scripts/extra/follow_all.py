import httpx

client = httpx.Client(follow_redirects=True)
r = client.get("http://localhost:8000/loop/start")
print(r.status_code)
