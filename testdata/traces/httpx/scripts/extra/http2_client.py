import httpx

client = httpx.Client(http2=True, base_url="http://localhost:8000")
print(client.get("/json/flags").json())
