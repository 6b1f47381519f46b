import httpx

client = httpx.Client(proxies="socks5://127.0.0.1:1080")
print(client.get("http://localhost:8000/json/inventory").json())
