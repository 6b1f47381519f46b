import httpx

client = httpx.Client(timeout=httpx.Timeout(connect=5.0, read=30.0))
print(client.get("http://localhost:8000/json/ping").json())
